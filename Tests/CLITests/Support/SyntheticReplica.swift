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
    private var process: ChildProcess?
    /// The replica's stdout, kept open for as long as it runs.
    private var output: Pipe?
    /// Ends when the process has exited.
    private var exited: AsyncStream<Void>?
    /// The port it listens on, kept across restarts so that stored image URLs stay the same.
    private(set) var port: Int

    /// Starts the collection on a free port.
    init(_ spec: String) async throws {
        port = 0
        try await start(spec)
    }

    deinit { kill() }

    /// The server root, as `http://127.0.0.1:PORT`.
    var root: String { "http://127.0.0.1:\(port)" }

    /// Starts (again) with this collection, on the same port when it had one.
    func start(_ spec: String) async throws {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let script = Fixtures.packageRoot.appendingPathComponent("Tests/Servers/replica.py").path
        process.arguments = ["python3", script, "--port", String(port), "--synthetic", spec]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let exited = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in exited.continuation.finish() }
        try process.run()
        self.process = process
        self.output = output
        self.exited = exited.stream
        // The first line comes from a blocking read on a thread of its own: neither the cooperative pool nor a
        // dispatch source (whose descriptor Foundation may close under it) is involved.
        let reader = output.fileHandleForReading
        let announced: String? = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var line = Data()
                while let byte = try? reader.read(upToCount: 1), let first = byte.first, first != UInt8(ascii: "\n") {
                    line.append(first)
                }
                continuation.resume(returning: line.isEmpty ? nil : String(decoding: line, as: UTF8.self))
            }
        }
        guard let announced, let port = Int(announced.split(separator: ":").last ?? "") else {
            throw ReplicaFailed(spec: spec)
        }
        self.port = port
    }

    /// Kills the process at once (SIGKILL), as a server that vanishes, without waiting for it.
    func kill() {
        guard let process, process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
    }

    /// Kills the process and waits until it is gone, so that its port is free again.
    func stop() async {
        kill()
        if let exited { for await _ in exited {} }
        process = nil
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
    // Unchecked: used by one reading thread at a time.
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
