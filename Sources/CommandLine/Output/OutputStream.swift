import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One of the process's standard streams, written with `write(2)` so that a full disk or a closed pipe is an error
/// the tool reports, never a trap: `FileHandle.write` stops the process on either.
///
/// The first failure is kept and later writes to the stream are skipped, so a tool whose stdout went away finishes its
/// work quietly and then says once what happened (``ToolMain`` reads ``failure`` before it exits).
public final class OutputStream: Sendable {
    /// Standard output.
    public static let standardOutput = OutputStream(descriptor: STDOUT_FILENO, name: "standard output")
    /// Standard error.
    public static let standardError = OutputStream(descriptor: STDERR_FILENO, name: "standard error")

    private let descriptor: Int32
    /// The stream's name in messages.
    public let name: String
    private let firstFailure = Mutex<Int32?>(nil)

    /// A stream over an open file descriptor.
    public init(descriptor: Int32, name: String) {
        self.descriptor = descriptor
        self.name = name
    }

    /// Writes every byte of `text`; after a failure, does nothing.
    public func write(_ text: String) {
        guard firstFailure.withLock({ $0 == nil }) else { return }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { buffer in
                Foundation.write(descriptor, buffer.baseAddress, buffer.count)
            }
            if written < 0 {
                let code = errno
                if code == EINTR { continue }
                firstFailure.withLock { $0 = $0 ?? code }
                return
            }
            bytes = bytes.dropFirst(written)
        }
    }

    /// The first write that failed, as a sentence (`Could not write to standard output: No space left on device.`),
    /// or `nil` when every write went through.
    public var failure: String? {
        firstFailure.withLock { $0 }.map { code in
            "Could not write to \(name): \(String(cString: strerror(code)))."
        }
    }

    /// Makes a write to a closed pipe fail with `EPIPE` instead of killing the process with SIGPIPE (exit 141), so
    /// that the tool can say so and exit with its own status. Call once at start-up.
    public static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }
}
