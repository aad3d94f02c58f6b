import Errand
import Foundation
import MetMirror
import MetMuseum

#if canImport(Glibc)
import Glibc
#endif

/// Mirrors synthetic collections of the replica at several rates through the whole stack (SDK, bulk fetch,
/// middleware, curl, SQLite) and prints what each run cost.
struct MirrorBenchmark {
    let size: Int

    /// The points measured: (rate, objects). At the Met's rate a run is cut to what takes about ten seconds.
    var points: [(rate: Double?, objects: Int)] {
        [(80, 800), (400, 4_000), (nil, size / 4), (nil, size)]
    }

    func run() async throws {
        print(
            "| rate limit (req/s) | objects | seconds | objects/s | of the limit | CPU ms/object | RSS after (MB) | DB bytes/object |"
        )
        print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for (index, point) in points.enumerated() {
            let replica = try await Replica(spec: "\(point.objects)/\(index + 51)/0")
            let store = try MirrorStore(directory: try Measure.folder("mirror-bench"))
            let budget = MetClient.budget(rate: point.rate ?? 20_000)
            let mirror = CollectionMirror(
                store: store, configuration: ClientConfiguration(baseURL: replica.root), budget: budget)
            let cpu = Measure.cpuSeconds()
            let start = ContinuousClock.now
            let summary = try await mirror.run(MirrorOptions(batchSize: 200, concurrency: 8))
            let seconds = Measure.seconds(start.duration(to: .now))
            let used = Measure.cpuSeconds() - cpu
            await replica.stop()
            let perSecond = Double(summary.doneThisRun) / seconds
            let share = point.rate.map { String(format: "%.2f×", perSecond / $0) } ?? "unlimited"
            print(
                "| \(point.rate.map { String(Int($0)) } ?? "none") | \(summary.doneThisRun) | "
                    + String(format: "%.1f | %.0f | ", seconds, perSecond) + share
                    + String(
                        format: " | %.3f | %.0f | %.0f |", used * 1000 / Double(summary.doneThisRun),
                        Measure.residentMB(), Double(summary.databaseBytes) / Double(max(summary.counts.fetched, 1))))
        }
        print("CPU is this process's (client, SQLite); the replica's own is not counted. RSS is read after each run:")
        print(
            "a flat figure across the last two runs (a quarter and all of \(size) objects) means memory does not grow")
        print("with the collection.")
    }
}

/// A replica process of the benchmark's own serving one synthetic collection at the Met's paths.
final class Replica {
    let process = Process()
    let root: URL
    private var listener: Pipe?
    private let exited = AsyncStream<Void>.makeStream()

    init(spec: String) async throws {
        let listener = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", Measure.packageRoot.appendingPathComponent("Tests/Servers/replica.py").path, "--port", "0",
            "--synthetic", spec,
        ]
        process.standardOutput = listener
        process.terminationHandler = { [exited] _ in exited.continuation.finish() }
        try process.run()
        self.listener = listener
        // A blocking read of the first line on a thread of its own, off the cooperative pool.
        let reader = listener.fileHandleForReading
        let text: String = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var line = Data()
                while let byte = try? reader.read(upToCount: 1), let first = byte.first, first != UInt8(ascii: "\n") {
                    line.append(first)
                }
                continuation.resume(returning: String(decoding: line, as: UTF8.self))
            }
        }
        // The replica prints `replica on http://127.0.0.1:PORT` first.
        guard let port = text.split(separator: ":").last, let url = URL(string: "http://127.0.0.1:\(port)") else {
            throw CocoaError(.fileReadUnknown)
        }
        root = url
    }

    func stop() async {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        for await _ in exited.stream {}
    }
}
