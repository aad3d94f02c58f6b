/// An observer that logs every exchange as a line to a sink, at a level chosen by its outcome.
///
/// ```swift
/// configuration.observers.append(LoggingObserver(level: .info, sink: StandardErrorLogSink()))
/// // info: GET https://api.example.com/v1/search?api_key=*** 200 41ms cache=miss
/// ```
///
/// A success is `info`, a 4xx `warning`, a failure or a 5xx `error`; at `debug` each line also carries the request's
/// headers and the transport's timings. What it logs is the event observers receive, so the client's ``Redaction``
/// has already masked secret headers, query values and path segments, and the failure is its `debugDescription`,
/// built and redacted where every error is.
public struct LoggingObserver: ExchangeObserver {
    /// The least level written; lines below it are dropped before they are formatted.
    public var level: LogLevel
    /// Where the lines go.
    public var sink: any LogSink

    /// Logs exchanges at `level` and above to `sink`.
    public init(level: LogLevel = .info, sink: any LogSink) {
        self.level = level
        self.sink = sink
    }

    /// Writes the exchange's line when its level is at least ``level``.
    public func exchangeDidFinish(_ event: ExchangeEvent) {
        let eventLevel = Self.level(of: event)
        guard eventLevel >= level else { return }
        var line = event.summary
        if let error = event.error { line += " — " + error.debugDescription }
        if level == .debug {
            line += " request-headers=\(event.requestHeaders)"
            if let metrics = event.metrics { line += " metrics=\(metrics)" }
        }
        sink.write(line, level: eventLevel)
    }

    /// The level an exchange is logged at: by its failure or its status.
    static func level(of event: ExchangeEvent) -> LogLevel {
        guard event.error == nil, let status = event.status else { return .error }
        switch status {
        case 500...: return .error
        case 400..<500: return .warning
        default: return .info
        }
    }
}
