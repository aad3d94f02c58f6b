/// How much a log line matters, from the most detailed to the most urgent.
public enum LogLevel: Int, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
    /// Every exchange with its redacted request headers and timings.
    case debug
    /// Every exchange, one line each.
    case info
    /// An exchange answered with a 4xx status.
    case warning
    /// An exchange that failed or was answered with a 5xx status.
    case error

    /// Orders the levels from ``debug`` to ``error``.
    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The level's name, as `warning`.
    public var description: String {
        switch self {
        case .debug: "debug"
        case .info: "info"
        case .warning: "warning"
        case .error: "error"
        }
    }
}

/// Where a ``LoggingObserver`` writes its lines: the standard error, a file, the platform's logger, or the app's own.
public protocol LogSink: Sendable {
    /// Writes one line (without a line break) at a level.
    func write(_ line: String, level: LogLevel)
}
