import Errand
import ErrandTesting
import Foundation
import Testing

/// Secrets (credentials in headers, API keys in paths and queries) never appear in error descriptions, whatever
/// path the error took: refused before sending, failed on the wire, answered with a bad status, or streamed.
@Suite("Security: secrets stay out of errors")
struct SecretRedactionTests {
    private let redaction = Redaction(queryNames: ["api_key"], pathSegments: ["SECRETKEY"])

    private func client(base: String, stub: StubTransport) -> APIClient {
        var configuration = ClientConfiguration(baseURL: URL(string: base)!, transport: stub)
        configuration.redaction = redaction
        return APIClient(configuration: configuration)
    }

    private func expectNoSecrets(_ error: ErrandError?, _ secrets: [String] = ["SECRETKEY", "hunter2"]) {
        let text = "\(String(describing: error?.debugDescription)) \(String(describing: error?.userMessage))"
        for secret in secrets {
            #expect(!text.contains(secret), "\(secret) appears in: \(text)")
        }
    }

    @Test func aStatusFailureMasksSetCookieAndOtherSecretResponseHeaders() async {
        let stub = StubTransport()
        stub.respond(
            to: "login", status: 401,
            headers: ["Set-Cookie": "session=hunter2; HttpOnly", "WWW-Authenticate": "Bearer"],
            body: Data("{}".utf8))
        let client = client(base: "https://api.example.com/v1", stub: stub)
        let error = await #expect(throws: ErrandError.self) { try await client.send(Request<Data>(path: "login")) }
        expectNoSecrets(error)
        guard case .unacceptableStatus(let failure)? = error else {
            Issue.record("expected unacceptableStatus, got \(String(describing: error))")
            return
        }
        #expect(failure.headers["Set-Cookie"] == Redaction.mask)
        #expect(failure.headers["WWW-Authenticate"] == "Bearer", "headers a caller acts on stay readable")
    }

    @Test func aRefusedAbsoluteURLDoesNotRepeatItsSecrets() async {
        let client = client(base: "https://api.example.com/v1", stub: StubTransport())
        let insecure = URL(string: "http://api.example.com/v2/SECRETKEY/search?api_key=hunter2")!
        let error = await #expect(throws: ErrandError.self) { try await client.send(Request<Data>(url: insecure)) }
        expectNoSecrets(error)
    }

    @Test func aRefusedBaseURLDoesNotRepeatItsSecrets() async {
        let client = client(base: "http://api.example.com/v2/SECRETKEY", stub: StubTransport())
        let error = await #expect(throws: ErrandError.self) {
            try await client.send(Request<Data>(path: "search", query: [QueryItem("api_key", "hunter2")]))
        }
        expectNoSecrets(error)
    }

    @Test func aWireFailureQuotingTheURLIsMasked() async {
        let stub = StubTransport()
        stub.fail(
            "search",
            with: .transport(
                TransportFailure(
                    kind: .cannotConnect,
                    url: URL(string: "https://api.example.com/v2/SECRETKEY/search?s=x&api_key=hunter2"),
                    underlying:
                        "could not connect to https://api.example.com/v2/SECRETKEY/search?s=x&api_key=hunter2 (refused)"
                )))
        let client = client(base: "https://api.example.com/v2/SECRETKEY", stub: stub)
        let error = await #expect(throws: ErrandError.self) {
            try await client.send(
                Request<Data>(path: "search", query: [QueryItem("s", "x"), QueryItem("api_key", "hunter2")]))
        }
        expectNoSecrets(error)
        #expect(error?.debugDescription.contains("s=x") == true, "what is not secret stays readable")
    }

    @Test func aStreamedRequestsFailureIsMaskedToo() async {
        let stub = StubTransport()
        stub.fail(
            "big",
            with: .transport(
                TransportFailure(
                    kind: .connectionLost, url: URL(string: "https://api.example.com/v2/SECRETKEY/big?api_key=hunter2"),
                    underlying: "lost https://api.example.com/v2/SECRETKEY/big?api_key=hunter2")))
        let client = client(base: "https://api.example.com/v2/SECRETKEY", stub: stub)
        let error = await #expect(throws: ErrandError.self) {
            try await client.stream(Request<Data>(path: "big", query: [QueryItem("api_key", "hunter2")]))
        }
        expectNoSecrets(error)
    }

    @Test("a redirect target that embeds the key in a segment and a query value is masked the same in URL and text")
    func redirectTargetIsMasked() async {
        let rules = Redaction(queryNames: ["api_key"], pathSegments: ["SECRETKEY"])
        let leak = URL(string: "https://other.example.com/leak/SECRETKEY.json?key=SECRETKEY&api_key=hunter2&s=1")!
        let expected = "https://other.example.com/leak/***.json?key=***&api_key=***&s=1"
        #expect(rules.redact(leak) == expected)
        #expect(rules.redact(text: "GET \(leak.absoluteString) failed") == "GET \(expected) failed")

        let transport = AnsweringTransport(response: TransportResponse(status: 500, body: Data("oops".utf8), url: leak))
        var configuration = ClientConfiguration(
            baseURL: URL(string: "https://api.example.com/v2/SECRETKEY")!, transport: transport)
        configuration.redaction = rules
        let error = await #expect(throws: ErrandError.self) {
            try await APIClient(configuration: configuration).send(Request<Data>(path: "search"))
        }
        expectNoSecrets(error)
        #expect(error?.debugDescription.contains(expected) == true, "\(String(describing: error?.debugDescription))")
    }

    @Test(
        "masks never garble: adjacent, repeated and percent-encoded secrets read as one mask each",
        arguments: [
            ("https://h/SECRETKEYSECRETKEY/x", "https://h/***/x"),
            ("https://h/a/SECRETKEY/b/SECRETKEY", "https://h/a/***/b/***"),
            ("https://h/x?api_key=SECRETKEY", "https://h/x?api_key=***"),
            ("https://h/x?q=my%20SECRETKEY%20here", "https://h/x?q=my%20***%20here"),
        ])
    func masksDoNotGarble(url: String, expected: String) {
        #expect(redaction.redact(URL(string: url)!) == expected)
        #expect(redaction.redact(text: url) == expected)
    }

    @Test("a secret containing characters that need encoding is masked in both spellings")
    func encodedSecret() {
        let rules = Redaction(pathSegments: ["k y/z"])
        #expect(rules.redact(text: "https://h/k%20y%2Fz/x and k y/z") == "https://h/***/x and ***")
    }

    @Test("user and password never appear in a reported URL")
    func userInfo() {
        #expect(Redaction().redact(URL(string: "https://me:hunter2@h.example/x")!) == "https://h.example/x")
    }

    @Test(
        "free text loses secret query values and path segments",
        arguments: [
            ("GET https://h/x?api_key=hunter2&s=1 failed", "GET https://h/x?api_key=***&s=1 failed"),
            ("url: https://h/SECRETKEY/x?API_KEY=hunter2#top", "url: https://h/***/x?API_KEY=***#top"),
            ("\"https://h/x?s=1&api%5Fkey=hunter2\"", "\"https://h/x?s=1&api%5Fkey=***\""),
            ("no secrets = here", "no secrets = here"),
        ])
    func freeTextRedaction(text: String, expected: String) {
        #expect(redaction.redact(text: text) == expected)
    }
}

/// Answers every request with one fixed response, as a transport that followed a redirect would.
private struct AnsweringTransport: Transport {
    let response: TransportResponse

    func send(_ request: TransportRequest) async throws -> TransportResponse { response }
}
