#if canImport(CCurl)
import Errand
import Foundation

/// What many open WebSocket connections over curl cost, each with its thread (CurlSocketConnection): threads, resident
/// memory and CPU while idle, and the time for one echo on every connection at once.
enum WebSocketSockets {
    struct Figures: Codable {
        let sockets: Int
        let openSeconds: Double
        let threadsAdded: Int
        let residentMegabytesAdded: Double
        /// The process's CPU time over an idle stretch, per second of it.
        let idleCPUShare: Double
        let idleSeconds: Double
        /// One 1 KB echo on every connection, all at once.
        let echoAllSeconds: Double
    }

    static func measure(_ url: URL, sockets count: Int, idle: Duration = .seconds(2)) async throws -> Figures {
        let client = APIClient(configuration: ClientConfiguration(baseURL: url, transport: CurlTransport()))
        let threadsBefore = status("Threads:") ?? 0
        let residentBefore = status("VmRSS:") ?? 0
        let opening = ContinuousClock.now
        var sockets: [WebSocket] = []
        for _ in 0..<count {
            sockets.append(try await client.webSocket(Request(url: url.appendingPathComponent("echo"))))
        }
        let openSeconds = seconds(ContinuousClock.now - opening)
        let threadsAdded = (status("Threads:") ?? 0) - threadsBefore
        let residentAdded = Double((status("VmRSS:") ?? 0) - residentBefore) / 1024
        let idleMeasurement = try await Measurement.of { try await Task.sleep(for: idle) }
        let message = WebSocketMessage.binary(Data(repeating: 1, count: 1024))
        let echoing = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for socket in sockets {
                group.addTask {
                    try await socket.send(message)
                    var messages = socket.messages.makeAsyncIterator()
                    guard try await messages.next() == message else { throw BenchError("a wrong echo") }
                }
            }
            try await group.waitForAll()
        }
        let echoSeconds = seconds(ContinuousClock.now - echoing)
        for socket in sockets { await socket.close() }
        return Figures(
            sockets: count, openSeconds: openSeconds, threadsAdded: threadsAdded,
            residentMegabytesAdded: residentAdded,
            idleCPUShare: idleMeasurement.cpuSeconds / idleMeasurement.seconds, idleSeconds: idleMeasurement.seconds,
            echoAllSeconds: echoSeconds)
    }

    static func table(_ figures: Figures) -> String {
        """
        | sockets | open (s) | threads added | resident MB added | idle CPU share | one echo on each (ms) |
        |---:|---:|---:|---:|---:|---:|
        | \(figures.sockets) | \(String(format: "%.2f", figures.openSeconds)) | \(figures.threadsAdded) | \
        \(String(format: "%.1f", figures.residentMegabytesAdded)) | \(String(format: "%.4f", figures.idleCPUShare)) | \
        \(String(format: "%.1f", figures.echoAllSeconds * 1000)) |
        """
    }

    /// A field of `/proc/self/status` as a number (kB for memory, a count for threads).
    private static func status(_ field: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix(field) })
        else { return nil }
        return line.split(whereSeparator: \.isWhitespace).dropFirst().first.flatMap { Int($0) }
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
#endif
