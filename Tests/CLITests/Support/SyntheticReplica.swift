import Errand
import Foundation
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A replica process of the tests' own serving one synthetic Met collection at the Met's paths
/// (`replica.py --synthetic SIZE/SEED/EPOCH`), so that a test can kill it, or restart it at a later epoch on the
/// same port.
final class SyntheticReplica: @unchecked Sendable {
    // Unchecked: `process` is set in `start` and read in `stop`, both called by the one test that owns the replica,
    // never concurrently.
    private var process: Process?
    /// The port it listens on, kept across restarts so that stored image URLs stay the same.
    private(set) var port: Int

    /// Starts the collection on a free port.
    init(_ spec: String) async throws {
        port = 0
        try await start(spec)
    }

    deinit { stop() }

    /// The server root, as `http://127.0.0.1:PORT`.
    var root: String { "http://127.0.0.1:\(port)" }

    /// Starts (again) with this collection, on the same port when it had one.
    func start(_ spec: String) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let script = Fixtures.packageRoot.appendingPathComponent("Tests/Servers/replica.py").path
        process.arguments = ["python3", script, "--port", String(port), "--synthetic", spec]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let firstLine = AsyncStream<String>.makeStream()
        let buffer = LineBuffer()
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty {
                handle.readabilityHandler = nil
                firstLine.continuation.finish()
            } else if let line = buffer.append(data).first {
                firstLine.continuation.yield(line)
                firstLine.continuation.finish()
            }
        }
        try process.run()
        self.process = process
        var announced: String?
        for await line in firstLine.stream { announced = line }
        output.fileHandleForReading.readabilityHandler = nil
        guard let announced, let port = Int(announced.split(separator: ":").last ?? "") else {
            throw ReplicaFailed(spec: spec)
        }
        self.port = port
    }

    /// Kills the process at once (SIGKILL), as a server that vanishes; waits until it is gone.
    func stop() {
        guard let process, process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
    }

    /// How many object requests (`…/objects/{id}`) the replica has logged.
    func objectRequests() async throws -> Int {
        guard let url = URL(string: root) else { throw ReplicaFailed(spec: root) }
        let client = APIClient(baseURL: url)
        let data = try await client.send(Request<Data>(path: "__requests")).value
        let log = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
        return log.filter { ($0["path"] as? String)?.contains("/objects/") == true }.count
    }

    struct ReplicaFailed: Error, CustomStringConvertible {
        var spec: String
        var description: String { "the synthetic replica \(spec) did not start" }
    }
}

/// Splits bytes into lines as they arrive.
final class LineBuffer: @unchecked Sendable {
    // Unchecked: used only from one readability handler, which FileHandle calls serially.
    private var pending = Data()

    /// Adds bytes; returns the lines they completed.
    func append(_ data: Data) -> [String] {
        pending.append(data)
        var lines: [String] = []
        while let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(String(decoding: pending[pending.startIndex..<end], as: UTF8.self))
            pending.removeSubrange(pending.startIndex...end)
        }
        return lines
    }
}
