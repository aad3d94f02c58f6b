import Errand
import ErrandTesting
import Foundation
import TestSupport
import Testing

/// Replays of archives built in the test: matching, order, strict and lenient modes.
@Suite("HAR replay")
struct HARReplayTests {
    static let base = URL(string: "https://api.example.com/v1")!

    static func entry(
        _ url: String, method: String = "GET", status: Int = 200, body: String, headers: [HAR.Pair] = [],
        postData: HAR.PostData? = nil
    ) -> HAR.Entry {
        HAR.Entry(
            startedDateTime: "2026-01-02T03:04:05.678Z", time: 12,
            request: HAR.Request(
                method: method, url: url, headers: [], postData: postData, bodySize: postData?.text?.utf8.count ?? 0),
            response: HAR.Response(
                status: status, statusText: "", headers: headers + [.init(name: "Content-Encoding", value: "gzip")],
                content: HAR.Content(size: body.utf8.count, mimeType: "application/json", text: body),
                bodySize: body.utf8.count),
            timings: HAR.Timings(send: 0, wait: 12, receive: 0))
    }

    static func har(_ entries: [HAR.Entry]) -> HAR {
        HAR(log: HAR.Log(creator: HAR.Creator(name: "test", version: "1"), entries: entries))
    }

    func client(_ replay: HARReplayTransport) -> APIClient {
        APIClient(configuration: ClientConfiguration(baseURL: Self.base, transport: replay))
    }

    @Test("answers by method and URL, repeated requests in the recorded order, the last answer again after")
    func order() async throws {
        let replay = HARReplayTransport(
            Self.har([
                Self.entry("https://api.example.com/v1/count", body: "1"),
                Self.entry("https://api.example.com/v1/other", body: "x"),
                Self.entry("https://api.example.com/v1/count", body: "2"),
            ]))
        let api = client(replay)
        let count = Request<String>(path: "count")
        #expect(try await api.send(count).value == "1")
        #expect(try await api.send(count).value == "2")
        #expect(try await api.send(count).value == "2")
        #expect(try await api.send(Request<String>(path: "other")).value == "x")
    }

    @Test("the recorded body is the decoded one: Content-Encoding is not replayed, the other headers are")
    func headers() async throws {
        let replay = HARReplayTransport(
            Self.har([
                Self.entry("https://api.example.com/v1/a", body: "{}", headers: [.init(name: "ETag", value: "\"v1\"")])
            ]))
        let response = try await client(replay).send(Request<Data>(path: "a"))
        #expect(response.headers["ETag"] == "\"v1\"")
        #expect(response.headers["Content-Encoding"] == nil)
        #expect(response.data == Data("{}".utf8))
    }

    @Test("strict: an unmatched request fails as not recorded, naming the closest entry and the difference")
    func strict() async throws {
        let replay = HARReplayTransport(
            Self.har([
                Self.entry("https://api.example.com/v1/search?q=tea", body: "[]"),
                Self.entry("https://api.example.com/v1/meal/1", body: "{}"),
            ]))
        let api = client(replay)
        let error = await #expect(throws: ErrandError.self) {
            try await api.send(Request<Data>(path: "search", query: [QueryItem("q", "coffee")]))
        }
        guard case .transport(let failure)? = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(failure.kind == .notRecorded)
        #expect(failure.underlying.contains("entry 1"), "\(failure.underlying)")
        #expect(failure.underlying.contains("the query: q=tea was recorded, not q=coffee"), "\(failure.underlying)")
        #expect(error?.userMessage.contains("q=tea") == true)
    }

    @Test("the method and the body count; a body can be left out of the match")
    func bodies() async throws {
        let recorded = HAR.PostData(mimeType: "application/json", text: #"{"a":1,"b":2}"#)
        let har = Self.har([
            Self.entry("https://api.example.com/v1/orders", method: "POST", body: "ok", postData: recorded)
        ])
        let order = Request<String>(method: .post, path: "orders", body: .json(["b": 2, "a": 1]))
        #expect(try await client(HARReplayTransport(har)).send(order).value == "ok", "sorted keys match the recording")
        let other = Request<String>(method: .post, path: "orders", body: .json(["a": 3]))
        await #expect(throws: ErrandError.self) { try await client(HARReplayTransport(har)).send(other) }
        let loose = HARReplayTransport(har, matching: HARMatching(comparesBodies: false))
        #expect(try await client(loose).send(other).value == "ok")
        let strict = client(HARReplayTransport(har))
        let get = await #expect(throws: ErrandError.self) { try await strict.send(Request<String>(path: "orders")) }
        #expect(get?.debugDescription.contains("the method: POST was recorded, not GET") == true)
    }

    @Test("ignored query names leave a cache-buster out of the match")
    func ignoredQuery() async throws {
        let har = Self.har([Self.entry("https://api.example.com/v1/feed?page=2&t=111", body: "p2")])
        let request = Request<String>(path: "feed", query: [QueryItem("page", "2"), QueryItem("t", "999")])
        await #expect(throws: ErrandError.self) { try await client(HARReplayTransport(har)).send(request) }
        let replay = HARReplayTransport(har, matching: HARMatching(ignoredQueryNames: ["t"]))
        #expect(try await client(replay).send(request).value == "p2")
    }

    @Test("lenient: what the recording lacks goes to the fallback transport")
    func lenient() async throws {
        let stub = StubTransport()
        stub.respond(to: "live", json: #""from the network""#)
        let replay = HARReplayTransport(
            Self.har([Self.entry("https://api.example.com/v1/recorded", body: #""from the file""#)]), fallback: stub)
        let api = client(replay)
        #expect(try await api.send(Request<String>(path: "recorded")).value == #""from the file""#)
        #expect(try await api.send(Request<String>(path: "live")).value == #""from the network""#)
        #expect(stub.requests.map(\.url.path) == ["/v1/live"])
    }

    @Test("a recorded redirect is followed to the next recorded hop")
    func redirect() async throws {
        let replay = HARReplayTransport(
            Self.har([
                Self.entry(
                    "https://api.example.com/v1/old", status: 302, body: "",
                    headers: [.init(name: "Location", value: "/v1/new")]),
                Self.entry("https://api.example.com/v1/new", body: "moved"),
            ]))
        let response = try await client(replay).send(Request<String>(path: "old"))
        #expect(response.value == "moved")
        #expect(response.url.path == "/v1/new")
    }

    @Test("masked recordings match: the request is compared as the client's redaction shows it")
    func redacted() async throws {
        let har = Self.har([Self.entry("https://api.example.com/v1/items?api_key=***&n=1", body: "[1]")])
        let redaction = Redaction(queryNames: ["api_key"])
        let request = Request<String>(path: "items", query: [QueryItem("api_key", "s3cret"), QueryItem("n", "1")])
        await #expect(throws: ErrandError.self) { try await client(HARReplayTransport(har)).send(request) }
        let replay = HARReplayTransport(har, redaction: redaction)
        #expect(try await client(replay).send(request).value == "[1]")
    }

    @Test("a browser's export, written by hand to the spec, replays (pages, initiators, cookies, base64, params)")
    func browserExport() async throws {
        let file = HARFiles.resources.appendingPathComponent("browser.har")
        let har = try HAR(contentsOf: file)
        #expect(har.log.entries.count == 4)
        let configuration = try ClientConfiguration.replaying(file, baseURL: URL(string: "https://shop.example.org")!)
        let api = APIClient(configuration: configuration)
        let page = try await api.send(Request<String>(path: "catalog", query: [QueryItem("page", "1")]))
        #expect(page.value.contains("Teapot"))
        let picture = try await api.send(Request<Data>(path: "images/pot.png"))
        #expect(picture.value.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]), "base64 content decodes to its bytes")
        let login = Request<String>(
            method: .post, path: "login", body: .form([QueryItem("user", "ada"), QueryItem("remember", "1")]))
        let answer = try await api.send(login)
        #expect(answer.status == 200)
        #expect(answer.value == #"{"ok":true}"#)
        await #expect(throws: ErrandError.self, "the recorded 404 is the answer, and it is not accepted") {
            try await api.send(Request<String>(path: "missing"))
        }
    }
}
