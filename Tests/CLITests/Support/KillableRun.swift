import Foundation
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Runs a tool whose stdout is JSON lines, and kills it with SIGKILL once a number of lines contain a marker: a
/// process dying at a point the test chose by what the process had done, not by the time that had passed.
enum KillableRun {
    struct Outcome {
        /// The exit status, or the signal when ``killed``.
        var status: Int32
        /// Whether the process died by SIGKILL.
        var killed: Bool
        /// The lines it printed.
        var lines: [String]
    }

    /// Runs `executable` with `arguments`; when `killAfter` is given, kills it as soon as that many lines have
    /// contained `marker` — or, when `action` is given, runs that instead, once.
    static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String], killAfter: Int? = nil,
        marker: String = "\"event\":\"progress\"", action: (@Sendable () -> Void)? = nil
    ) async throws -> Outcome {
        let process = ChildProcess()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let output = Pipe()
        process.standardOutput = output
        let collected = Collected()
        let exited = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in exited.continuation.finish() }
        try process.run()
        // The lines are read by blocking reads on a thread of their own until the pipe ends, so that the kill
        // happens as soon as the marked line arrives, without a dispatch source on the pipe.
        let reader = output.fileHandleForReading
        let drained: Void = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                // `availableData` returns as soon as some bytes are there (`read(upToCount:)` would wait for all).
                while case let data = reader.availableData, !data.isEmpty {
                    let seen = collected.add(collected.buffer.append(data), marker: marker)
                    guard let killAfter, seen >= killAfter, collected.fire() else { continue }
                    if let action {
                        action()
                    } else if process.isRunning {
                        kill(process.processIdentifier, SIGKILL)
                    }
                }
                continuation.resume()
            }
        }
        _ = drained
        for await _ in exited.stream {}
        return Outcome(
            status: process.terminationStatus, killed: process.terminationReason == .uncaughtSignal,
            lines: collected.lines)
    }

    /// What the handler collected.
    private final class Collected: @unchecked Sendable {
        // Unchecked: written only by the one reading thread, and read after that thread saw the pipe's end.
        let buffer = LineBuffer()
        private(set) var lines: [String] = []
        private var marked = 0
        private var fired = false

        /// True the first time only.
        func fire() -> Bool {
            defer { fired = true }
            return !fired
        }

        func add(_ new: [String], marker: String) -> Int {
            lines += new
            marked += new.filter { $0.contains(marker) }.count
            return marked
        }
    }
}
