import Errand
import Foundation
import TestSupport
import Testing

/// Recordings of real exchanges with httpbin, read back as HAR and as plain JSON; `scripts/test` checks each file
/// they write with the HAR 1.2 schema and haralyzer.
@Suite("HAR recorder", .enabled(if: TestServer.httpbin.isUsable))
struct HARRecorderTests {
    func client(_ recorder: HARRecorder, _ kind: TransportKind, middleware: [any Middleware] = [])
        throws -> APIClient
    {
        APIClient(
            configuration: ClientConfiguration(
                baseURL: try TestServer.httpbin.url(), transport: kind.make(), middleware: middleware,
                observers: [recorder], redaction: Redaction(queryNames: ["api_key"])))
    }

    @Test(
        "each redirect hop is an entry of its own, with its status, Location, sizes and timings",
        arguments: TransportKind.allCases)
    func redirects(_ kind: TransportKind) async throws {
        let file = try HARFiles.make("redirects-\(kind)")
        let recorder = try HARRecorder(file: file)
        let response = try await client(recorder, kind).send(Request<Data>(path: "redirect/2"))
        #expect(response.status == 200)
        await recorder.flush()
        let har = try HAR(contentsOf: file)
        let entries = har.log.entries
        #expect(har.log.version == "1.2")
        #expect(entries.map(\.response.status) == [302, 302, 200])
        #expect(entries.map { URL(string: $0.request.url)?.path } == ["/redirect/2", "/relative-redirect/1", "/get"])
        #expect(entries[0].response.redirectURL.contains("/relative-redirect/1"))
        #expect(entries[2].response.redirectURL == "")
        for entry in entries {
            #expect(entry.time >= 0)
            #expect(entry.timings.send >= 0 && entry.timings.wait >= 0 && entry.timings.receive >= 0)
            #expect(entry.response.content.size == entry.response.content.text?.utf8.count ?? 0)
            #expect(entry.startedDateTime.hasSuffix("Z"), "\(entry.startedDateTime)")
        }
        #expect(entries[2].response.content.mimeType == "application/json")
        #expect(entries[2].response.content.text?.contains("\"url\"") == true)
    }

    @Test("secrets are masked: Authorization, Cookie, a secret query value, and where the body echoes them")
    func secrets() async throws {
        let file = try HARFiles.make("secrets")
        let recorder = try HARRecorder(file: file)
        let request = Request<Data>(
            path: "anything", query: [QueryItem("api_key", "k-77331"), QueryItem("q", "tea")],
            headers: ["Authorization": "Bearer tok-55120", "Cookie": "sid=c-99812"])
        _ = try await client(recorder, .urlSession).send(request)
        await recorder.flush()
        let text = try String(contentsOf: file, encoding: .utf8)
        for secret in ["k-77331", "tok-55120", "c-99812"] { #expect(!text.contains(secret), "\(secret) in the file") }
        let entry = try #require(try HAR(contentsOf: file).log.entries.first)
        #expect(entry.request.queryString.contains(HAR.Pair(name: "api_key", value: "***")))
        #expect(entry.request.queryString.contains(HAR.Pair(name: "q", value: "tea")))
        #expect(entry.request.headers.contains(HAR.Pair(name: "Authorization", value: "***")))
        #expect(entry.request.headers.contains(HAR.Pair(name: "Cookie", value: "***")))
        #expect(entry.request.cookies.isEmpty, "a masked Cookie field has no cookies to list")
    }

    @Test("a body above the limit is cut there with a note; bytes that are not text are base64")
    func bodies() async throws {
        let file = try HARFiles.make("bodies")
        let recorder = try HARRecorder(file: file, bodyLimit: 100)
        let api = try client(recorder, .urlSession)
        _ = try await api.send(Request<Data>(path: "bytes/300"))
        _ = try await api.send(Request<Data>(path: "base64/SGVsbG8sIEhBUiE="))
        await recorder.flush()
        let entries = try HAR(contentsOf: file).log.entries
        let bytes = entries[0].response.content
        #expect(bytes.size == 300)
        #expect(bytes.comment == "truncated: the first 100 of 300 bytes")
        #expect(bytes.encoding == "base64")
        #expect(Data(base64Encoded: bytes.text ?? "")?.count == 100)
        #expect(entries[1].response.content.text == "Hello, HAR!")
        #expect(entries[1].response.content.encoding == nil)
    }

    @Test("an answer of the cache alone is an entry marked hit, with the stored body")
    func cacheHit() async throws {
        let file = try HARFiles.make("cache")
        let recorder = try HARRecorder(file: file)
        let api = try client(recorder, .urlSession, middleware: [HTTPCache()])
        let first = try await api.send(Request<Data>(path: "cache/60"))
        let second = try await api.send(Request<Data>(path: "cache/60"))
        #expect(second.cacheStatus == .hit)
        await recorder.flush()
        let entries = try HAR(contentsOf: file).log.entries
        #expect(entries.map(\.errandCache) == ["miss", "hit"])
        #expect(entries[1].response.status == 200)
        #expect(entries[1].response.content.text.map { Data($0.utf8) } == first.data)
        let json = try HARFiles.json(file)
        let raw = ((json["log"] as? [String: Any])?["entries"] as? [[String: Any]])?[1]
        #expect(raw?["_errandCache"] as? String == "hit", "the custom field is spelled as HAR wants: _errandCache")
    }

    @Test(
        "a streamed body is recorded with its status, headers and size, not its bytes",
        arguments: TransportKind.allCases)
    func streamed(_ kind: TransportKind) async throws {
        let file = try HARFiles.make("stream-\(kind)")
        let recorder = try HARRecorder(file: file)
        let stream = try await client(recorder, kind).stream(Request<Data>(path: "stream-bytes/5000"))
        var total = 0
        for try await chunk in stream.body { total += chunk.count }
        #expect(total == 5000)
        await recorder.flush()
        let entry = try #require(try HAR(contentsOf: file).log.entries.first)
        #expect(entry.response.status == 200)
        #expect(entry.response.content.size == 5000)
        #expect(entry.response.content.text == nil)
        #expect(entry.response.content.comment == "streamed: the body is not recorded")
    }

    @Test("a failed exchange is an entry with status 0 and the error")
    func failure() async throws {
        let file = try HARFiles.make("failure")
        let recorder = try HARRecorder(file: file)
        let client = APIClient(
            configuration: ClientConfiguration(
                baseURL: URL(string: "http://127.0.0.1:9")!, transport: TransportKind.urlSession.make(),
                observers: [recorder]))
        await #expect(throws: ErrandError.self) { try await client.send(Request<Data>(path: "nothing")) }
        await recorder.flush()
        let entry = try #require(try HAR(contentsOf: file).log.entries.first)
        #expect(entry.response.status == 0)
        #expect(entry.errandError?.contains("ErrandError.transport") == true)
    }

    @Test("a recording replays: the same requests get the recorded answers without the network")
    func roundTrip() async throws {
        let file = try HARFiles.make("round-trip")
        let recorder = try HARRecorder(file: file)
        let live = try client(recorder, .urlSession)
        let requests = [
            Request<Data>(path: "get", query: [QueryItem("n", "1")]),
            Request<Data>(method: .post, path: "post", body: .json(["z": 1, "a": 2])),
            Request<Data>(path: "redirect/1"),
        ]
        var answers: [Data] = []
        for request in requests { answers.append(try await live.send(request).data) }
        await recorder.flush()
        let replay = APIClient(
            configuration: ClientConfiguration(
                baseURL: try TestServer.httpbin.url(), transport: try HARReplayTransport(file: file)))
        for (request, answer) in zip(requests, answers) {
            #expect(try await replay.send(request).data == answer)
        }
    }
}
