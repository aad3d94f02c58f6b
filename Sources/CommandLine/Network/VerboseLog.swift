import Errand

/// The `--verbose` observer: one stderr line per HTTP exchange with method, redacted URL, status, time and cache
/// status, as `GET https://host/api/json/v1/***/search.php?s=pasta 200 12ms cache=miss`.
///
/// URLs arrive already redacted by the client's ``Redaction`` rules (the API key path segment as `***`).
public struct VerboseLog: ExchangeObserver {
    private let console: Console

    /// Creates an observer printing to the console's stderr.
    public init(console: Console) { self.console = console }

    /// Prints the exchange's line.
    public func exchangeDidFinish(_ event: ExchangeEvent) {
        console.diagnostic(console.errorStyle.dim(Self.line(for: event)))
    }

    /// The line for one exchange.
    public static func line(for event: ExchangeEvent) -> String {
        let outcome = event.status.map(String.init) ?? "failed (\(event.error?.userMessage ?? "unknown error"))"
        let millis = Int((event.duration / .milliseconds(1)).rounded())
        let retry = event.attempt > 1 ? " attempt=\(event.attempt)" : ""
        return "\(event.method) \(event.url) \(outcome) \(millis)ms cache=\(event.cacheStatus.rawValue)\(retry)"
    }
}
