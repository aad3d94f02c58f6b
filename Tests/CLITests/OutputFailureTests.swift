import Foundation
import Testing
import TestSupport

/// Output that cannot be written is a sentence and a status below 128, never a trap: a full disk and a reader that
/// went away.
@Suite("Tools whose output cannot be written", .enabled(if: TestServer.replica.isUsable))
struct OutputFailureTests {
    /// Runs `mealdb` with its stdout on `stdout` and its stderr in a file; returns the status and the stderr text.
    private func run(_ arguments: [String], stdout: FileHandle) async throws -> (status: Int32, stderr: String) {
        let tool = try ToolProcess("mealdb")
        let process = ChildProcess()
        process.executableURL = tool.executable
        process.arguments = arguments + ["--base-url", try Replica.root(), "--no-cache"]
        process.environment = tool.environment
        let errURL = tool.home.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = stdout
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let exited = AsyncStream<Int32>.makeStream()
        process.terminationHandler = {
            exited.continuation.yield($0.terminationStatus); exited.continuation.finish()
        }
        try process.run()
        var status: Int32 = -1
        for await code in exited.stream { status = code }
        try err.close()
        return (status, String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }

    @Test("a full disk (/dev/full) exits 1 with one sentence")
    func fullDisk() async throws {
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let outcome = try await run(["ingredients"], stdout: full)
        #expect(outcome.status == 1, "\(outcome)")
        #expect(outcome.stderr == "mealdb: error: Could not write to standard output: No space left on device.\n")
    }

    @Test("a reader that closed the pipe: no SIGPIPE death, exit 1 with one sentence")
    func closedPipe() async throws {
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        let outcome = try await run(["ingredients"], stdout: pipe.fileHandleForWriting)
        #expect(outcome.status == 1, "\(outcome)")
        #expect(outcome.stderr == "mealdb: error: Could not write to standard output: Broken pipe.\n")
    }
}
