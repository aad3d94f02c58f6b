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
            to: "login", status: 401, headers: ["Set-Cookie": "session=hunter2; HttpOnly", "WWW-Authenticate": "Bearer"],
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
        stub.fail("search", with: .transport(TransportFailure(
            kind: .cannotConnect, url: URL(string: "https://api.example.com/v2/SECRETKEY/search?s=x&api_key=hunter2"),
            underlying: "could not connect to https://api.example.com/v2/SECRETKEY/search?s=x&api_key=hunter2 (refused)")))
        let client = client(base: "https://api.example.com/v2/SECRETKEY", stub: stub)
        let error = await #expect(throws: ErrandError.self) {
            try await client.send(Request<Data>(path: "search", query: [QueryItem("s", "x"), QueryItem("api_key", "hunter2")]))
        }
        expectNoSecrets(error)
        #expect(error?.debugDescription.contains("s=x") == true, "what is not secret stays readable")
    }

    @Test func aStreamedRequestsFailureIsMaskedToo() async {
        let stub = StubTransport()
        stub.fail("big", with: .transport(TransportFailure(
            kind: .connectionLost, url: URL(string: "https://api.example.com/v2/SECRETKEY/big?api_key=hunter2"),
            underlying: "lost https://api.example.com/v2/SECRETKEY/big?api_key=hunter2")))
        let client = client(base: "https://api.example.com/v2/SECRETKEY", stub: stub)
        let error = await #expect(throws: ErrandError.self) {
            try await client.stream(Request<Data>(path: "big", query: [QueryItem("api_key", "hunter2")]))
        }
        expectNoSecrets(error)
    }

    @Test("free text loses secret query values and path segments", arguments: [
        ("GET https://h/x?api_key=hunter2&s=1 failed", "GET https://h/x?api_key=***&s=1 failed"),
        ("url: https://h/SECRETKEY/x?API_KEY=hunter2#top", "url: https://h/***/x?API_KEY=***#top"),
        ("\"https://h/x?s=1&api%5Fkey=hunter2\"", "\"https://h/x?s=1&api%5Fkey=***\""),
        ("no secrets = here", "no secrets = here"),
    ])
    func freeTextRedaction(text: String, expected: String) {
        #expect(redaction.redact(text: text) == expected)
    }
}
