import Foundation

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
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let output = Pipe()
        process.standardOutput = output
        let collected = Collected()
        let eof = AsyncStream<Void>.makeStream()
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            guard !data.isEmpty else {
                handle.readabilityHandler = nil
                eof.continuation.finish()
                return
            }
            let seen = collected.add(collected.buffer.append(data), marker: marker)
            guard let killAfter, seen >= killAfter, collected.fire() else { return }
            if let action {
                action()
            } else if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
            }
        }
        let exited = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in exited.continuation.finish() }
        try process.run()
        for await _ in exited.stream {}
        for await _ in eof.stream {}
        return Outcome(
            status: process.terminationStatus, killed: process.terminationReason == .uncaughtSignal,
            lines: collected.lines)
    }

    /// What the handler collected.
    private final class Collected: @unchecked Sendable {
        // Unchecked: written only by the readability handler, which FileHandle calls serially, and read after the
        // pipe reached its end.
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
