import Foundation
import TestSupport
import Testing

/// A shell a person pastes a printed curl command into; the tests run each command with every one of them.
enum CurlCommandShell: String, CaseIterable, Sendable, CustomStringConvertible {
    case bash, zsh, dash

    var description: String { rawValue }

    var path: String { "/usr/bin/\(rawValue)" }

    /// Whether the shell is installed; in CI (`CI=true`, where `scripts/test` installs all three) its absence fails
    /// the test instead of skipping it.
    var isUsable: Bool { TestServer.isCI || FileManager.default.isExecutableFile(atPath: path) }

    /// What running a command printed and how it ended.
    struct Outcome {
        var status: Int32
        var output: Data
        var errors: String
    }

    /// Runs `command` as a script of this shell, with no standard input.
    func run(_ command: String) async throws -> Outcome {
        let folder = try MultipartTests.Folder()
        let script = try folder.file("command.sh", Data((command + "\n").utf8))
        let output = try folder.file("out", Data())
        let errors = try folder.file("err", Data())
        let outHandle = try FileHandle(forWritingTo: output)
        let errHandle = try FileHandle(forWritingTo: errors)
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = [script.path]
        process.standardOutput = outHandle
        process.standardError = errHandle
        process.standardInput = FileHandle.nullDevice
        let exited = AsyncStream<Int32>.makeStream()
        process.terminationHandler = { process in
            exited.continuation.yield(process.terminationStatus)
            exited.continuation.finish()
        }
        try process.run()
        var status: Int32 = -1
        for await code in exited.stream { status = code }
        try outHandle.close()
        try errHandle.close()
        return Outcome(
            status: status, output: try Data(contentsOf: output),
            errors: String(decoding: try Data(contentsOf: errors), as: UTF8.self))
    }
}
