#if canImport(CCurl)
import Errand
import Foundation
import Testing

/// Errand's client against the Autobahn test suite's fuzzing server (an independent implementation of RFC 6455 and
/// RFC 7692), run by hand: start `wstest -m fuzzingserver` with the cases wanted, then run this suite with
/// `ERRAND_AUTOBAHN=http://127.0.0.1:9001` in the environment. Each case's messages are echoed back, as the suite
/// expects of a client under test; the verdicts (OK, NON-STRICT, FAILED) are in the server's report, not here.
@Suite(
    "WebSocket client against the Autobahn fuzzing server",
    .enabled(if: ProcessInfo.processInfo.environment["ERRAND_AUTOBAHN"] != nil))
struct AutobahnClientTests {
    private let client: APIClient
    private let agent = ProcessInfo.processInfo.environment["ERRAND_AUTOBAHN_AGENT"] ?? "errand"

    init() throws {
        let server = try #require(ProcessInfo.processInfo.environment["ERRAND_AUTOBAHN"].flatMap(URL.init(string:)))
        client = APIClient(configuration: ClientConfiguration(baseURL: server, transport: CurlTransport()))
    }

    @Test("every case the server offers runs to its end, and the server writes its report")
    func cases() async throws {
        let counter = try await client.webSocket(Request(path: "/getCaseCount"))
        var count = 0
        for try await message in counter.messages {
            if case .text(let text) = message { count = Int(text) ?? 0 }
        }
        #expect(count > 0)
        let compression =
            ProcessInfo.processInfo.environment["ERRAND_AUTOBAHN_COMPRESSION"] == "off" ? nil : WebSocketCompression()
        for index in 1...max(count, 1) {
            let socket = try await client.webSocket(
                Request(path: "/runCase", query: [QueryItem("case", "\(index)"), QueryItem("agent", agent)]),
                options: .init(maxMessageSize: 64 << 20, compression: compression))
            do {
                for try await message in socket.messages { try await socket.send(message) }
            } catch {
                // A case that breaks the protocol ends here; the report says whether the client did right.
            }
        }
        let report = try await client.webSocket(Request(path: "/updateReports", query: [QueryItem("agent", agent)]))
        for try await _ in report.messages {}
    }
}
#endif
