import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What happens to a full-screen app from outside: keys typed, the window resized, a request to stop.
public enum TerminalEvent: Sendable, Equatable {
    /// Keys decoded from one read of standard input.
    case keys([Key])
    /// The window changed size (SIGWINCH).
    case resized
    /// SIGTERM or SIGHUP: the app must restore the terminal and exit with this status.
    case terminate(Int32)
    /// Standard input closed (the terminal went away).
    case inputClosed
}

/// The events of this process's terminal, as one stream.
///
/// Keys are read by a blocking `read` on a thread of their own, never on Swift's cooperative pool; signals arrive
/// through dispatch sources, whose handlers only yield an event.
public final class TerminalEvents: Sendable {
    /// The events, in the order they happened.
    public let stream: AsyncStream<TerminalEvent>
    private let continuation: AsyncStream<TerminalEvent>.Continuation
    // Kept only so the sources live as long as this object; never read after `init`.
    nonisolated(unsafe) private var sources: [any DispatchSourceSignal] = []

    /// Starts reading keys and watching SIGWINCH, SIGTERM and SIGHUP.
    ///
    /// SIGINT is left to the tools' own handler (`Interruption`), which exits with 130: its `exit` runs the
    /// terminal's restoration, and two handlers racing to `exit` from two threads could deadlock.
    public init() {
        (stream, continuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
        let continuation = continuation
        let thread = Thread {
            var decoder = KeyDecoder()
            var buffer = [UInt8](repeating: 0, count: 256)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else {
                    continuation.yield(.inputClosed)
                    return
                }
                let keys = decoder.feed(buffer[0..<count])
                if !keys.isEmpty { continuation.yield(.keys(keys)) }
            }
        }
        thread.name = "terminal keys"
        thread.start()
        let signals: [(Int32, TerminalEvent)] = [
            (SIGWINCH, .resized), (SIGTERM, .terminate(143)), (SIGHUP, .terminate(129)),
        ]
        sources = signals.map { number, event in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(event) }
            source.resume()
            return source
        }
    }
}
