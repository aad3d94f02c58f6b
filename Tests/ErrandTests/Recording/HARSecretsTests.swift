import Errand
import Foundation
import TestSupport
import Testing

/// A recording with secrets included, beside a default one and a plain observer on the same client, against httpbin
/// (which echoes what it was sent): only the recording that asked holds the secrets.
@Suite("HAR secrets on request", .enabled(if: TestServer.httpbin.isUsable))
struct HARSecretsTests {
    static let secrets = ["tok-55120", "c-99812", "k-77331"]

    static let request = Request<Data>(
        path: "anything", query: [QueryItem("api_key", "k-77331"), QueryItem("q", "tea")],
        headers: ["Authorization": "Bearer tok-55120", "Cookie": "sid=c-99812"])

    @Test(
        "a token header, a cookie and an API key: masked by default and for other observers, in clear when asked",
        arguments: TransportKind.allCases)
    func bothModes(_ kind: TransportKind) async throws {
        let redactedFile = try HARFiles.make("secrets-redacted-\(kind)")
        let clearFile = try HARFiles.make("secrets-included-\(kind)")
        let redacted = try HARRecorder(file: redactedFile)
        let clear = try HARRecorder(file: clearFile, secrets: .included)
        let events = ExchangeRecorder()
        let client = APIClient(
            configuration: ClientConfiguration(
                baseURL: try TestServer.httpbin.url(), transport: kind.make(), observers: [redacted, clear, events],
                redaction: Redaction(queryNames: ["api_key"])))
        _ = try await client.send(Self.request)
        await redacted.flush()
        await clear.flush()

        let masked = try String(contentsOf: redactedFile, encoding: .utf8)
        for secret in Self.secrets { #expect(!masked.contains(secret), "\(secret) in the default recording") }
        #expect(try HAR(contentsOf: redactedFile).log.comment == nil)

        let har = try HAR(contentsOf: clearFile)
        #expect(har.log.comment == HARRecorder.secretsWarning)
        #expect(har.log.creator.comment == HARRecorder.secretsWarning)
        let entry = try #require(har.log.entries.first)
        #expect(entry.request.headers.contains(HAR.Pair(name: "Authorization", value: "Bearer tok-55120")))
        #expect(entry.request.cookies == [HAR.Pair(name: "sid", value: "c-99812")])
        #expect(entry.request.queryString.contains(HAR.Pair(name: "api_key", value: "k-77331")))
        #expect(entry.request.url.contains("api_key=k-77331"))
        let echoed = entry.response.content.text ?? ""
        for secret in Self.secrets { #expect(echoed.contains(secret), "httpbin's echo of \(secret), kept in clear") }

        let event = try #require(events.events.first)
        let seen = [
            event.url, event.requestHeaders.description, String(decoding: event.responseBody ?? Data(), as: UTF8.self),
        ]
        .joined(separator: "\n")
        for secret in Self.secrets { #expect(!seen.contains(secret), "another observer was given \(secret)") }
    }

    @Test("an answer of the cache alone is recorded in clear too, and masked for the others")
    func cacheAnswer() async throws {
        let file = try HARFiles.make("secrets-cache")
        let clear = try HARRecorder(file: file, secrets: .included)
        let events = ExchangeRecorder()
        let client = APIClient(
            configuration: ClientConfiguration(
                baseURL: try TestServer.httpbin.url(), transport: TransportKind.urlSession.make(),
                middleware: [HTTPCache()], observers: [clear, events], redaction: Redaction(queryNames: ["api_key"])))
        let request = Request<Data>(path: "cache/60", query: [QueryItem("api_key", "k-77331")])
        _ = try await client.send(request)
        let second = try await client.send(request)
        #expect(second.cacheStatus == .hit)
        await clear.flush()
        let entries = try HAR(contentsOf: file).log.entries
        #expect(entries.map(\.errandCache) == ["miss", "hit"])
        #expect(entries.allSatisfy { $0.request.url.contains("api_key=k-77331") })
        #expect(events.events.count == 2)
        #expect(events.events.allSatisfy { !$0.url.contains("k-77331") })
    }
}
