/// The fuzz targets: each names a product (`fuzz-…`), a corpus folder and the check its inputs go through.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// The URL and query builder, percent-encoding and URL redaction.
    case url = "fuzz-url"
    /// The response-header parsers: `Cache-Control`, `Retry-After`, HTTP dates, `Vary`, `Age`, cache keys.
    case httpHeaders = "fuzz-http-headers"
    /// The `Meal` and `MetObject` decoders (each input goes through both).
    case models = "fuzz-models"
    /// The CLI argument parser and the `--base-url` rules.
    case cli = "fuzz-cli"
    /// The content decoder (gzip, deflate, br, stacked), fed bodies cut into pieces.
    case decoding = "fuzz-decoding"
    /// The tools' `--json` string escaping and terminal-text filter.
    case output = "fuzz-output"
    /// The event-stream parser, fed bytes whole and cut into pieces, and the reconnection waits its `retry:` makes.
    case eventStream = "fuzz-event-stream"
    /// The parsers of numbers a server writes: digits, `Retry-After`, `Content-Length`, a certificate's DER lengths.
    case numbers = "fuzz-numbers"
    /// The WebSocket frame parser and message assembler, fed server bytes whole and cut into pieces.
    case webSocketFrames = "fuzz-websocket-frames"
    /// The Netscape cookie-file reader (``CookieJar/importNetscapeFile(_:)``) and its round trip through the export.
    case cookieFile = "fuzz-cookie-file"
    /// The HAR reader (``HARReplayTransport/init(file:matching:redaction:fallback:)``) and the responses it replays.
    case har = "fuzz-har"

    /// Runs one input through the target's check.
    public func check(_ input: FuzzInput) -> Violations {
        switch self {
        case .url: URLChecks.check(input)
        case .httpHeaders: HeaderChecks.check(input)
        case .models: ModelChecks.check(input)
        case .cli: CLIChecks.check(input)
        case .decoding: DecodingChecks.check(input)
        case .output: OutputChecks.check(input)
        case .eventStream: EventStreamChecks.check(input)
        case .numbers: NumberChecks.check(input)
        case .webSocketFrames: WebSocketFrameChecks.check(input)
        case .cookieFile: CookieFileChecks.check(input)
        case .har: HARChecks.check(input)
        }
    }
}
