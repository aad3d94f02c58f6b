import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc

/// The tests' own way of starting programs (Foundation's `Process.run()` can trap on Linux; see `ChildProcess`).
@Suite("ChildProcess: programs started for the tests")
struct ChildProcessTests {
    /// Runs `/bin/sh -c script` and returns what it printed on stdout, after it has been reaped.
    private func shell(
        _ script: String, configure: (ChildProcess) -> Void = { _ in }
    ) async throws -> (output: String, process: ChildProcess) {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        let output = Pipe()
        process.standardOutput = output
        configure(process)
        let exited = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in exited.continuation.finish() }
        try process.run()
        // The child's end of the pipe is closed here once it started, so this read ends when the child exits.
        let data = output.fileHandleForReading.readDataToEndOfFile()
        for await _ in exited.stream {}
        return (String(decoding: data, as: UTF8.self), process)
    }

    @Test("an exit code, the output through a pipe, and the state before and after")
    func exitCode() async throws {
        let (output, process) = try await shell("echo hello; exit 3")
        #expect(output == "hello\n")
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 3)
        #expect(!process.isRunning)
        #expect(process.processIdentifier > 0)
    }

    @Test("a child killed by a signal reports the signal")
    func killedBySignal() async throws {
        let (_, process) = try await shell("kill -TERM $$")
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(process.terminationStatus == SIGTERM)
    }

    @Test("the child gets none of this process's other descriptors")
    func descriptorsClosed() async throws {
        // No O_CLOEXEC, and numbered high: a descriptor only an explicit close keeps from the child.
        let opened = Glibc.open("/dev/null", O_RDONLY)
        try #require(opened >= 0)
        let high = fcntl(opened, F_DUPFD, 200)
        close(opened)
        try #require(high >= 200)
        defer { close(high) }
        let (output, _) = try await shell("ls /proc/self/fd")
        let descriptors = Set(output.split(separator: "\n").map(String.init))
        // 0, 1 and 2, and the directory `ls` itself has open while it lists.
        #expect(descriptors.isSubset(of: ["0", "1", "2", "3"]))
        #expect(descriptors.isSuperset(of: ["0", "1", "2"]))
        #expect(!descriptors.contains(String(high)))
    }

    @Test("the environment and working directory given, nil stdin as /dev/null")
    func environmentAndDirectory() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (output, process) = try await shell("echo \"$CHILD_VALUE\"; pwd; cat; echo end") { process in
            process.environment = ["CHILD_VALUE": "a b", "PATH": "/usr/bin:/bin"]
            process.currentDirectoryURL = directory
            process.standardInput = nil
        }
        #expect(output == "a b\n\(directory.resolvingSymlinksInPath().path)\nend\n")
        #expect(process.terminationStatus == 0)
    }

    @Test("a program that does not exist is an error from run(), and nothing starts")
    func missingProgram() throws {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/nonexistent/program")
        #expect(throws: POSIXError.self) { try process.run() }
        #expect(process.processIdentifier == 0)
        #expect(!process.isRunning)
    }

    @Test("waitUntilExit returns once the child is reaped; terminate ends a waiting child")
    func terminateAndWait() async throws {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/sleep")
        process.arguments = ["30"]
        try process.run()
        #expect(process.isRunning)
        process.terminate()
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                process.waitUntilExit()
                continuation.resume()
            }
        }
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(process.terminationStatus == SIGTERM)
    }
}
#endif
