#if canImport(CCurl)
import Errand
import Foundation

/// `errand-bench websocket`: echo round trips on one WebSocket connection, 1 KB messages (round trips per second) and
/// 1 MB messages (MB/s of messages echoed), by Errand over curl and by the `websockets` package's Python client in the
/// same run, rounds interleaved, against a Python `websockets` echo server and a small C one
/// (Benchmarks/websocket/ws_echo.c), each with the client's CPU per message and the server's CPU share of the round,
/// which says whether the server set the pace.
///
///     errand-bench websocket --url ws://127.0.0.1:P [--server-pid PID] [--fast-url ws://127.0.0.1:Q]
///         [--fast-server-pid PID] [--rounds 3] [--small-count 5000] [--large-count 40] [--sockets 50] [--json]
///
/// With `--sockets N` it then opens N connections to the first server, one after another, and reports what they cost
/// (``WebSocketSockets``).
///
/// `scripts/bench --websocket` starts both servers and passes their URLs and process ids.
enum WebSocketBenchmark {
    struct Server {
        let name: String
        let url: URL
        let pid: Int32?
    }

    struct Point: Hashable {
        let name: String
        let size: Int
        let count: Int
    }

    struct Row: Codable {
        let server: String
        let point: String
        let client: String
        /// Messages echoed per second, fastest round.
        let messagesPerSecond: Double
        /// Megabytes (10^6) of messages echoed per second, fastest round.
        let megabytesPerSecond: Double
        /// The client's CPU per message, microseconds, in the fastest round.
        let cpuPerMessageMicroseconds: Double
        /// The server's CPU time over the fastest round's wall time (1 = one processor busy throughout).
        let serverCPUShare: Double?
        let roundMessagesPerSecond: [Double]
    }

    struct Round {
        let seconds: Double
        let cpuSeconds: Double
        let serverCPUSeconds: Double?
    }

    static let clients = ["errand-curl", "python-websockets"]

    static func run(_ arguments: [String]) async throws {
        var values: [String: String] = [:]
        var json = false
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            guard argument != "--json" else {
                json = true
                continue
            }
            guard argument.hasPrefix("--"), let value = iterator.next() else {
                throw BenchError(
                    "errand-bench websocket: unexpected \(argument) (see the header of WebSocketBenchmark.swift)")
            }
            values[String(argument.dropFirst(2))] = value
        }
        var servers: [Server] = []
        if let url = values["url"].flatMap(URL.init(string:)) {
            servers.append(Server(name: "python-websockets", url: url, pid: values["server-pid"].flatMap { Int32($0) }))
        }
        if let url = values["fast-url"].flatMap(URL.init(string:)) {
            servers.append(Server(name: "c-echo", url: url, pid: values["fast-server-pid"].flatMap { Int32($0) }))
        }
        guard !servers.isEmpty else { throw BenchError("errand-bench websocket: pass --url and/or --fast-url") }
        let rounds = values["rounds"].flatMap { Int($0) } ?? 3
        let points = [
            Point(name: "1 KB", size: 1024, count: values["small-count"].flatMap { Int($0) } ?? 5000),
            Point(name: "1 MB", size: 1 << 20, count: values["large-count"].flatMap { Int($0) } ?? 40),
        ]
        let python = values["python"] ?? "/usr/bin/python3"
        let script = values["baseline"] ?? "Benchmarks/websocket/ws_client.py"
        var rows: [Row] = []
        for server in servers {
            for point in points {
                var measured: [String: [Round]] = [:]
                for round in 1...rounds {
                    for client in clients {
                        let before = server.pid.flatMap(processCPUSeconds)
                        var result: Round
                        if client == "errand-curl" {
                            result = try await Task.detached { try await errandRound(server.url, point) }.value
                        } else {
                            result = try pythonRound(python, script, server.url, point)
                        }
                        let after = server.pid.flatMap(processCPUSeconds)
                        if let before, let after {
                            result = Round(
                                seconds: result.seconds, cpuSeconds: result.cpuSeconds, serverCPUSeconds: after - before
                            )
                        }
                        measured[client, default: []].append(result)
                        log(
                            "  round \(round): \(client) \(point.name) vs \(server.name): "
                                + "\(Int(Double(point.count) / result.seconds)) msg/s")
                    }
                }
                for client in clients {
                    guard let all = measured[client], let best = all.min(by: { $0.seconds < $1.seconds }) else {
                        continue
                    }
                    let rate = Double(point.count) / best.seconds
                    rows.append(
                        Row(
                            server: server.name, point: point.name, client: client, messagesPerSecond: rate,
                            megabytesPerSecond: rate * Double(point.size) / 1e6,
                            cpuPerMessageMicroseconds: best.cpuSeconds / Double(point.count) * 1e6,
                            serverCPUShare: best.serverCPUSeconds.map { $0 / best.seconds },
                            roundMessagesPerSecond: all.map { Double(point.count) / $0.seconds }))
                }
            }
        }
        var sockets: WebSocketSockets.Figures?
        if let count = values["sockets"].flatMap({ Int($0) }), let server = servers.first {
            sockets = try await Task.detached { try await WebSocketSockets.measure(server.url, sockets: count) }.value
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(["websocket": rows]), as: UTF8.self))
            if let sockets { print(String(decoding: try encoder.encode(["sockets": sockets]), as: UTF8.self)) }
        } else {
            print(table(rows))
            if let sockets { print("\n" + WebSocketSockets.table(sockets)) }
        }
    }

    /// One round by Errand over curl: connect (not timed), one warm-up echo, then `point.count` echoes.
    static func errandRound(_ url: URL, _ point: Point) async throws -> Round {
        let client = APIClient(configuration: ClientConfiguration(baseURL: url, transport: CurlTransport()))
        let socket = try await client.webSocket(
            Request(url: url.appendingPathComponent("echo")), options: .init(maxMessageSize: 2 << 20))
        let message = WebSocketMessage.binary(Data((0..<point.size).map { UInt8(truncatingIfNeeded: $0 &* 31) }))
        var messages = socket.messages.makeAsyncIterator()
        try await socket.send(message)
        _ = try await messages.next()
        let measurement = try await Measurement.of {
            for _ in 0..<point.count {
                try await socket.send(message)
                guard case .binary(let echo) = try await messages.next(), echo.count == point.size else {
                    throw BenchError("errand-curl: an echo that is not the message sent")
                }
            }
        }
        await socket.close()
        return Round(seconds: measurement.seconds, cpuSeconds: measurement.cpuSeconds, serverCPUSeconds: nil)
    }

    /// One round by the Python client, which times itself after its own connect and warm-up.
    static func pythonRound(_ python: String, _ script: String, _ url: URL, _ point: Point) throws -> Round {
        struct Report: Decodable {
            let seconds: Double
            let cpuSeconds: Double

            enum CodingKeys: String, CodingKey {
                case seconds
                case cpuSeconds = "cpu_seconds"
            }
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [
            script, "--url", url.appendingPathComponent("echo").absoluteString, "--size", String(point.size),
            "--count", String(point.count),
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchError("python-websockets: exit \(process.terminationStatus)")
        }
        let report = try JSONDecoder().decode(Report.self, from: data)
        return Round(seconds: report.seconds, cpuSeconds: report.cpuSeconds, serverCPUSeconds: nil)
    }

    /// A process's user + system CPU time, from `/proc/PID/stat` (Linux).
    static func processCPUSeconds(_ pid: Int32) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        // After the command's closing parenthesis: state is field 3, utime and stime fields 14 and 15.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    static func table(_ rows: [Row]) -> String {
        var lines = [
            "| server | message | client | msg/s | MB/s | client CPU µs/msg | server CPU share | rounds (msg/s) |",
            "|---|---|---|---:|---:|---:|---:|---|",
        ]
        for row in rows {
            let share = row.serverCPUShare.map { String(format: "%.2f", $0) } ?? "–"
            let rounds = row.roundMessagesPerSecond.map { String(Int($0)) }.joined(separator: ", ")
            lines.append(
                "| \(row.server) | \(row.point) | \(row.client) | \(Int(row.messagesPerSecond)) | "
                    + String(format: "%.1f", row.megabytesPerSecond)
                    + " | \(Int(row.cpuPerMessageMicroseconds)) | \(share) | \(rounds) |")
        }
        return lines.joined(separator: "\n")
    }
}
#endif
