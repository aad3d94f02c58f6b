import Foundation
import Synchronization

/// Writes each line to the standard error (a ``LoggingObserver``'s lines carry their level as their first field).
public struct StandardErrorLogSink: LogSink {
    /// Creates the sink.
    public init() {}

    /// Writes the line and a line break.
    public func write(_ line: String, level: LogLevel) {
        FileHandle.standardError.write(Data("\(line)\n".utf8))
    }
}

/// Appends each line to a file, created with mode 0600 when missing (a ``LoggingObserver``'s lines carry their level
/// as their first field).
public final class FileLogSink: LogSink {
    private let handle: Mutex<FileHandle>

    /// Opens `url` for appending.
    ///
    /// - Throws: the file system's error when the file cannot be created or opened.
    public init(url: URL) throws {
        if !FileManager.default.fileExists(atPath: url.path) {
            // The log holds URLs and headers, redacted but private to the user all the same. When it cannot be
            // created, opening it below throws the file system's error.
            _ = FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600])
        }
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        self.handle = Mutex(handle)
    }

    /// Appends the line and a line break; a line that cannot be written is dropped, as logging must not fail
    /// the request it describes.
    public func write(_ line: String, level: LogLevel) {
        handle.withLock { handle in try? handle.write(contentsOf: Data("\(line)\n".utf8)) }
    }
}

#if canImport(OSLog)
import OSLog

/// Writes each line to the unified logging system (`Logger`), at the matching OSLog level.
///
/// The line is logged as public: it holds only what ``Redaction`` left visible.
public struct OSLogSink: LogSink {
    private let logger: Logger

    /// Logs to a subsystem (as your app's bundle identifier) and category.
    public init(subsystem: String, category: String = "Errand") {
        logger = Logger(subsystem: subsystem, category: category)
    }

    /// Writes the line at the OSLog level for `level`.
    public func write(_ line: String, level: LogLevel) {
        switch level {
        case .debug: logger.debug("\(line, privacy: .public)")
        case .info: logger.info("\(line, privacy: .public)")
        case .warning: logger.warning("\(line, privacy: .public)")
        case .error: logger.error("\(line, privacy: .public)")
        }
    }
}
#endif
