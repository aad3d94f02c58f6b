import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns SIGINT (Ctrl-C) into a clean exit with status 130: the progress line is cleared, one sentence is printed,
/// and the process exits without a stack trace.
public enum Interruption {
    // Written once by `install` on the main thread before any task starts, and never read: it only keeps the
    // dispatch source alive for the life of the process.
    nonisolated(unsafe) private static var source: (any DispatchSourceSignal)?

    /// Installs the handler; call once at start-up.
    public static func install(console: Console) {
        signal(SIGINT, SIG_IGN)
        let signalSource = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        signalSource.setEventHandler {
            console.rawError(console.terminal.stderrIsTerminal ? "\r\u{1B}[2K" : "")
            console.error("Interrupted.")
            exit(ExitCode.interrupted.rawValue)
        }
        signalSource.resume()
        source = signalSource
    }

}
