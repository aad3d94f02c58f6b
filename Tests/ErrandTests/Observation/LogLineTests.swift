import Errand
import ErrandTesting
import Foundation
import Synchronization
import Testing

/// The logging observer's lines: one per event at every level and in both formats, numbers as numbers, and a retried
/// success logged as a success.
@Suite("Log lines")
struct LogLineTests {
    final class Lines: LogSink {
        private let lines = Mutex<[(level: LogLevel, line: String)]>([])
        var all: [(level: LogLevel, line: String)] { lines.withLock { $0 } }
        func write(_ line: String, level: LogLevel) { lines.withLock { $0.append((level, line)) } }
    }

    /// Splits a logfmt line into its fields: `key=value`, a value in quotes with `\"`, `\\`, `\n`, `\r`, `\t`.
    static func parse(_ line: String) -> [String: String]? {
        var fields: [String: String] = [:]
        var rest = Substring(line)
        while !rest.isEmpty {
            guard let equals = rest.firstIndex(of: "=") else { return nil }
            let key = String(rest[..<equals])
            guard !key.isEmpty, !key.contains(" ") else { return nil }
            rest = rest[rest.index(after: equals)...]
            var value = ""
            if rest.first == "\"" {
                rest = rest.dropFirst()
                var closed = false
                while let character = rest.first {
                    rest = rest.dropFirst()
                    if character == "\"" {
                        closed = true
                        break
                    }
                    guard character == "\\" else {
                        value.append(character)
                        continue
                    }
                    guard let escaped = rest.first else { return nil }
                    rest = rest.dropFirst()
                    switch escaped {
                    case "n": value.append("\n")
                    case "r": value.append("\r")
                    case "t": value.append("\t")
                    case "\"", "\\": value.append(escaped)
                    default: return nil
                    }
                }
                guard closed else { return nil }
            } else {
                let end = rest.firstIndex(of: " ") ?? rest.endIndex
                value = String(rest[..<end])
                guard !value.contains("\"") else { return nil }
                rest = rest[end...]
            }
            fields[key] = value
            if rest.first == " " { rest = rest.dropFirst() } else if !rest.isEmpty { return nil }
        }
        return fields
    }

    static let metrics = TransferMetrics(
        dns: .microseconds(1_200), connect: .microseconds(2_500), tls: .microseconds(7_250),
        firstByte: .microseconds(15_000), total: .microseconds(16_130), bytesSent: 0, bytesReceived: 2,
        httpVersion: "1.1", connectionReused: false, remoteAddress: "127.0.0.1", remotePort: 8443)

    /// A stub whose answers carry metrics, a 503 with a multi-line HTML body, and a failure whose text has a line
    /// break and quotes.
    static func stub() -> StubTransport {
        let stub = StubTransport()
        stub.register(
            path: "ok",
            reply: .dynamic { request in
                TransportResponse(status: 200, body: Data("{}".utf8), url: request.url, metrics: metrics)
            })
        stub.respond(
            to: "broken", status: 503, headers: ["Content-Type": "text/html"], body: Data("<p>\n\"down\"</p>".utf8))
        stub.fail(
            "down",
            with: .transport(TransportFailure(kind: .cannotConnect, underlying: "refused\nby \"the\" host = 127.0.0.1"))
        )
        return stub
    }

    static func sendAll(_ stub: StubTransport, _ observer: LoggingObserver) async {
        let client = APIClient(
            configuration: ClientConfiguration(
                baseURL: URL(string: "https://api.example.com/v1")!, headers: ["X-Note": "two words"],
                transport: stub, observers: [observer]))
        for path in ["ok", "broken", "down"] {
            _ = try? await client.send(Request<Data>(path: path, query: [QueryItem("q", "a b")]))
        }
    }

    @Test(
        "every event is exactly one line that parses as key=value pairs, at every level", arguments: LogLevel.allCases)
    func oneLinePerEvent(level: LogLevel) async throws {
        let lines = Lines()
        await Self.sendAll(Self.stub(), LoggingObserver(level: level, sink: lines))
        let expected = [LogLevel.info, .error, .error].filter { $0 >= level }
        #expect(lines.all.map(\.level) == expected)
        for (eventLevel, line) in lines.all {
            #expect(!line.contains("\n") && !line.contains("\r"), "\(line)")
            let fields = try #require(Self.parse(line), "\(line)")
            #expect(fields["level"] == eventLevel.description)
            #expect(fields["method"] == "GET")
            #expect(Double(fields["duration_ms"] ?? "") != nil)
            #expect(Int(fields["attempts"] ?? "") == 1)
            #expect(Int(fields["bytes"] ?? "") != nil)
            #expect((fields["request_headers"] != nil) == (level == .debug))
        }
        if level <= .error, let failed = lines.all.last.flatMap({ Self.parse($0.line) }) {
            #expect(failed["error"]?.contains("refused\nby \"the\" host = 127.0.0.1") == true)
            #expect(failed["status"] == nil)
        }
    }

    @Test("at debug the metrics are numbers with units")
    func metricsAreNumbers() async throws {
        let lines = Lines()
        await Self.sendAll(Self.stub(), LoggingObserver(level: .debug, sink: lines))
        let fields = try #require(lines.all.first.flatMap { Self.parse($0.line) })
        #expect(fields["status"] == "200")
        #expect(Double(fields["dns_ms"] ?? "") == 1.2)
        #expect(Double(fields["connect_ms"] ?? "") == 2.5)
        #expect(Double(fields["tls_ms"] ?? "") == 7.25)
        #expect(Double(fields["ttfb_ms"] ?? "") == 15)
        #expect(Double(fields["total_ms"] ?? "") == 16.13)
        #expect(Int(fields["bytes_sent"] ?? "") == 0)
        #expect(fields["http"] == "1.1")
        #expect(fields["reused"] == "false")
        #expect(fields["remote"] == "127.0.0.1:8443")
        #expect(fields["request_headers"]?.contains("X-Note: two words") == true)
        #expect(!lines.all[0].line.contains("TransferMetrics"))
        #expect(!lines.all[0].line.contains("Optional("))
    }

    @Test("JSON lines: one object per event, numbers as JSON numbers")
    func jsonLines() async throws {
        let lines = Lines()
        await Self.sendAll(Self.stub(), LoggingObserver(level: .debug, format: .jsonLines, sink: lines))
        #expect(lines.all.count == 3)
        for (level, line) in lines.all {
            #expect(!line.contains("\n"))
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            #expect(object["level"] as? String == level.description)
            #expect(object["duration_ms"] is NSNumber)
            #expect(object["attempts"] as? Int == 1)
        }
        let first = try #require(
            try JSONSerialization.jsonObject(with: Data(lines.all[0].line.utf8)) as? [String: Any])
        #expect(first["dns_ms"] as? Double == 1.2)
        #expect(first["status"] as? Int == 200)
        let last = try #require(
            try JSONSerialization.jsonObject(with: Data(lines.all[2].line.utf8)) as? [String: Any])
        #expect((last["error"] as? String)?.contains("refused\nby \"the\" host") == true)
    }

    /// A client on a stub that answers `statuses` in turn (the last one from then on), retrying 503s on `clock`.
    static func scripted(
        _ statuses: [Int], headers: HTTPHeaders = [:], clock: ManualClock, observer: LoggingObserver
    ) -> (APIClient, StubTransport) {
        let count = Mutex(0)
        let stub = StubTransport()
        stub.register(
            path: "quote",
            reply: .dynamic { request in
                let index = count.withLock { count in
                    defer { count += 1 }
                    return min(count, statuses.count - 1)
                }
                return TransportResponse(
                    status: statuses[index], headers: headers, body: Data("{}".utf8), url: request.url)
            })
        let client = APIClient(
            configuration: ClientConfiguration(
                baseURL: URL(string: "https://api.example.com/v1")!, transport: stub,
                middleware: [RetryMiddleware(policy: RetryPolicy(maxAttempts: 3))], observers: [observer],
                clock: clock))
        return (client, stub)
    }

    @Test("a 503 retried and then answered: the failed attempts are warnings, the success one info line with attempts")
    func retriedSuccessIsASuccess() async throws {
        let clock = ManualClock()
        let lines = Lines()
        let (client, stub) = Self.scripted(
            [503, 503, 200], clock: clock, observer: LoggingObserver(level: .debug, sink: lines))

        let response = try await clock.run { try await client.send(Request<Data>(path: "quote")) }

        #expect(response.status == 200)
        #expect(stub.requests.count == 3)
        #expect(lines.all.map(\.level) == [.warning, .warning, .info])
        let fields = lines.all.compactMap { Self.parse($0.line) }
        #expect(fields.map { $0["attempts"] } == ["1", "2", "3"])
        #expect(fields.map { $0["retrying"] } == ["true", "true", nil])
        #expect(fields.map { $0["status"] } == ["503", "503", "200"])
        #expect(!lines.all.contains { $0.level == .error })
    }

    @Test("a 503 that outlasts the retries: earlier attempts are warnings, the last one the error")
    func exhaustedRetriesEndInOneError() async throws {
        let clock = ManualClock()
        let lines = Lines()
        let (client, _) = Self.scripted([503], clock: clock, observer: LoggingObserver(level: .info, sink: lines))

        await #expect(throws: ErrandError.self) {
            try await clock.run { try await client.send(Request<Data>(path: "quote")) }
        }

        #expect(lines.all.map(\.level) == [.warning, .warning, .error])
        #expect(lines.all.last.flatMap { Self.parse($0.line)?["retrying"] } == nil)
    }

    @Test("a 503 whose Retry-After is longer than the policy waits is not retried, and is logged as the error it is")
    func retryAfterTooLongIsAnError() async throws {
        let clock = ManualClock()
        let lines = Lines()
        let (client, stub) = Self.scripted(
            [503], headers: ["Retry-After": "3600"], clock: clock, observer: LoggingObserver(level: .info, sink: lines))

        await #expect(throws: ErrandError.self) {
            try await clock.run { try await client.send(Request<Data>(path: "quote")) }
        }

        #expect(stub.requests.count == 1)
        #expect(lines.all.map(\.level) == [.error])
    }
}
