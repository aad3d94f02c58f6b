import Errand
import ErrandTesting
import Foundation
import Synchronization
import Testing

/// The logging observer: one line per exchange at its outcome's level, filtered by the least level, redacted.
@Suite("Logging observer")
struct LoggingObserverTests {
    final class Lines: LogSink {
        private let lines = Mutex<[(LogLevel, String)]>([])
        var all: [(LogLevel, String)] { lines.withLock { $0 } }
        func write(_ line: String, level: LogLevel) { lines.withLock { $0.append((level, line)) } }
    }

    private static func client(_ stub: StubTransport, _ observer: LoggingObserver) -> APIClient {
        var configuration = ClientConfiguration(
            baseURL: URL(string: "https://api.example.com/v1")!, headers: ["Authorization": "Bearer s3cret-token"],
            transport: stub, observers: [observer])
        configuration.redaction = Redaction(queryNames: ["api_key"])
        return APIClient(configuration: configuration)
    }

    private static func stub() -> StubTransport {
        let stub = StubTransport()
        stub.respond(to: "ok", json: "{}")
        stub.respond(to: "missing", status: 404, json: "{}")
        stub.respond(to: "broken", status: 503, json: "{}")
        stub.fail("down", with: .transport(TransportFailure(kind: .cannotConnect, underlying: "refused")))
        return stub
    }

    private static func sendAll(_ client: APIClient) async {
        for path in ["ok", "missing", "broken", "down"] {
            _ = try? await client.send(Request<Data>(path: path, query: [QueryItem("api_key", "k3y-secret")]))
        }
    }

    @Test("each outcome has its level, and nothing below the least level is written")
    func levels() async {
        let lines = Lines()
        await Self.sendAll(Self.client(Self.stub(), LoggingObserver(level: .info, sink: lines)))
        #expect(lines.all.map(\.0) == [.info, .warning, .error, .error])
        #expect(
            lines.all[0].1.hasPrefix(
                #"level=info method=GET url="https://api.example.com/v1/ok?api_key=***" status=200 "#))

        let warnings = Lines()
        await Self.sendAll(Self.client(Self.stub(), LoggingObserver(level: .warning, sink: warnings)))
        #expect(warnings.all.map(\.0) == [.warning, .error, .error])
    }

    @Test("secrets are masked in every line, at debug too")
    func redacted() async {
        let lines = Lines()
        await Self.sendAll(Self.client(Self.stub(), LoggingObserver(level: .debug, sink: lines)))
        #expect(lines.all.count == 4)
        for (_, line) in lines.all {
            #expect(!line.contains("k3y-secret"), "\(line)")
            #expect(!line.contains("s3cret-token"), "\(line)")
        }
        #expect(lines.all[0].1.contains("request_headers="))
        #expect(lines.all[3].1.contains("ErrandError.transport(cannotConnect)"))
    }

    @Test("the file sink appends lines to a file only its owner reads")
    func fileSink() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("errand-log-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: url) }
        let sink = try FileLogSink(url: url)
        await Self.sendAll(Self.client(Self.stub(), LoggingObserver(level: .warning, sink: sink)))
        let again = try FileLogSink(url: url)
        again.write("appended", level: .info)
        let text = try String(contentsOf: url, encoding: .utf8)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 4)
        #expect(
            lines.first?.hasPrefix(
                #"level=warning method=GET url="https://api.example.com/v1/missing?api_key=***" status=404 "#)
                == true)
        #expect(lines.last == "appended")
        let mode = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }
}
