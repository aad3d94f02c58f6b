import Errand
import Foundation
import TestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A replica of the project's own (Tests/Servers/replica.py) on a port of its own, which a test can stop and start
/// again on the same port: the shared replica of scripts/test must stay up for the other tests.
final class ReplicaProcess {
    let port: Int
    private var process: ChildProcess?
    static let python = "/usr/bin/python3"
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Servers/replica.py")

    var url: String { "http://127.0.0.1:\(port)" }

    init() throws {
        port = try Self.freePort()
    }

    /// Starts the replica and waits until it answers.
    func start() async throws {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: Self.python)
        process.arguments = [Self.script.path, "--port", "\(port)"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        let client = APIClient(baseURL: URL(string: url)!)
        let deadline = ContinuousClock.now + .seconds(15)
        while ContinuousClock.now < deadline {
            if (try? await client.send(Request<Data>(path: "__settings"))) != nil { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw CocoaError(
            .fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "the replica did not start on \(port)"])
    }

    /// Stops the replica and waits until its port refuses connections.
    func stop() async throws {
        guard let process else { return }
        // SIGKILL: a child started from a thread that blocks SIGTERM (as dispatch's threads do) inherits the block.
        kill(process.processIdentifier, SIGKILL)
        self.process = nil
        let client = APIClient(baseURL: URL(string: url)!)
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if (try? await client.send(Request<Data>(path: "__settings"))) == nil { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw CocoaError(
            .fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "the replica on \(port) did not stop"])
    }

    private static func freePort() throws -> Int {
        let finder = ChildProcess()
        finder.executableURL = URL(fileURLWithPath: python)
        finder.arguments = [
            "-c", "import socket; s=socket.socket(); s.bind(('127.0.0.1',0)); print(s.getsockname()[1]); s.close()",
        ]
        let output = Pipe()
        finder.standardOutput = output
        try finder.run()
        // A few bytes, then end of file when the finder exits: no wait beyond that.
        let data = output.fileHandleForReading.readDataToEndOfFile()
        guard let port = Int(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        else { throw CocoaError(.fileReadUnknown) }
        return port
    }
}

/// The built `mealdb` and `met`: beside the test bundle (the same build folder), or in `ERRAND_CLI_DIR`.
enum BuiltTools {
    static var directory: URL? {
        if let dir = ProcessInfo.processInfo.environment["ERRAND_CLI_DIR"] { return URL(fileURLWithPath: dir) }
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.isExecutableFile(atPath: url.appendingPathComponent("mealdb").path) { return url }
        }
        return nil
    }

    static func path(_ name: String) throws -> String {
        guard let directory else { throw CocoaError(.fileNoSuchFile) }
        return directory.appendingPathComponent(name).path
    }
}
