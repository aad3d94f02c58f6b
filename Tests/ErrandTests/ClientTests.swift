import Errand
import ErrandTesting
import Foundation
import Testing

/// The client's own rules, with a stub transport: no wire involved.
@Suite("Client")
struct ClientTests {
    struct Meal: Codable, Sendable, Equatable { var idMeal: String; var strMeal: String }
    struct MealList: Codable, Sendable { var meals: [Meal]? }

    func client(
        base: String = "https://api.example.com/v1", stub: StubTransport,
        configure: (inout ClientConfiguration) -> Void = { _ in }
    ) -> APIClient {
        var configuration = ClientConfiguration(baseURL: URL(string: base)!, transport: stub)
        configure(&configuration)
        return APIClient(configuration: configuration)
    }

    @Test func decodesJSONAndCarriesResponseDetails() async throws {
        let stub = StubTransport()
        stub.respond(to: "search.php", json: #"{"meals":[{"idMeal":"1","strMeal":"Pasta"}]}"#)
        let response = try await client(stub: stub).send(
            Request<MealList>(path: "search.php", query: [QueryItem("s", "a+b")]))
        #expect(response.value.meals == [Meal(idMeal: "1", strMeal: "Pasta")])
        #expect(response.status == 200)
        #expect(stub.requests.first?.url.absoluteString == "https://api.example.com/v1/search.php?s=a%2Bb")
    }

    @Test func sendsDefaultHeadersAndLetsRequestsOverrideThem() async throws {
        let stub = StubTransport()
        stub.respond(to: "x", json: "{}")
        let client = client(stub: stub) { $0.headers["X-Client"] = "default" }
        _ = try await client.send(Request<Data>(path: "x", headers: ["X-Client": "override", "Accept": "text/plain"]))
        let headers = try #require(stub.requests.first?.headers)
        #expect(
            headers["User-Agent"] == "Errand/\(ClientConfiguration.libraryVersion) (Linux)"
                || headers["User-Agent"]?.hasPrefix("Errand/") == true)
        #expect(headers.values(for: "X-Client") == ["override"])
        #expect(headers["Accept"] == "text/plain")
    }

    @Test("plain http is refused for a non-loopback host, before any request")
    func refusesInsecureHTTP() async {
        let stub = StubTransport()
        let client = client(base: "http://api.example.com", stub: stub)
        let error = await #expect(throws: ErrandError.self) { try await client.send(Request<Data>(path: "x")) }
        guard case .insecureURL(let url) = error else {
            Issue.record("expected insecureURL, got \(String(describing: error))")
            return
        }
        #expect(url.host == "api.example.com")
        #expect(error?.userMessage.contains("https is required") == true)
        #expect(stub.requests.isEmpty)
    }

    @Test(
        "plain http is allowed to loopback hosts",
        arguments: [
            "http://127.0.0.1:8080", "http://127.1.2.3", "http://localhost:1234", "http://[::1]:80",
        ])
    func allowsLoopbackHTTP(base: String) async throws {
        let stub = StubTransport()
        stub.respond(to: "x", json: "{}")
        _ = try await client(base: base, stub: stub).send(Request<Data>(path: "x"))
        #expect(stub.requests.count == 1)
    }

    @Test func allowsInsecureHTTPWhenOptedIn() async throws {
        let stub = StubTransport()
        stub.respond(to: "x", json: "{}")
        _ = try await client(base: "http://api.example.com", stub: stub) { $0.allowsInsecureHTTP = true }
            .send(Request<Data>(path: "x"))
        #expect(stub.requests.count == 1)
    }

    @Test(
        "hosts that only look like loopback are not loopback",
        arguments: [
            "http://127.0.0.1.example.com", "http://128.0.0.1", "http://localhost.example.com", "http://127.0.0.256",
        ])
    func lookalikeHostsAreNotLoopback(base: String) async {
        let stub = StubTransport()
        await #expect(throws: ErrandError.self) {
            try await client(base: base, stub: stub).send(Request<Data>(path: "x"))
        }
        #expect(stub.requests.isEmpty)
    }

    @Test(
        "CR or LF in a header is rejected",
        arguments: [
            ("X-Name", "value\r\nInjected: yes"), ("X-Name", "value\nx"), ("Bad Name", "v"), ("X-Na\r\nme", "v"),
            ("", "v"),
        ])
    func rejectsHeaderInjection(name: String, value: String) async {
        let stub = StubTransport()
        let error = await #expect(throws: ErrandError.self) {
            try await client(stub: stub).send(
                Request<Data>(path: "x", headers: HTTPHeaders([.init(name: name, value: value)])))
        }
        guard case .invalidRequest = error else {
            Issue.record("expected invalidRequest, got \(String(describing: error))")
            return
        }
        #expect(stub.requests.isEmpty)
    }

    @Test func schemesOtherThanHTTPAreRefused() async {
        let stub = StubTransport()
        let request = Request<Data>(url: URL(string: "ftp://example.com/file")!)
        let error = await #expect(throws: ErrandError.self) { try await client(stub: stub).send(request) }
        guard case .invalidURL = error else {
            Issue.record("expected invalidURL, got \(String(describing: error))")
            return
        }
    }

    @Test func absoluteURLsKeepTheirQueryAndAppendMore() async throws {
        let stub = StubTransport()
        stub.respond(to: "img.png", json: "{}")
        let request = Request<Data>(
            url: URL(string: "https://cdn.example.com/a/img.png?v=1")!, query: [QueryItem("w", "a b")])
        _ = try await client(stub: stub).send(request)
        #expect(stub.requests.first?.url.absoluteString == "https://cdn.example.com/a/img.png?v=1&w=a%20b")
    }

    @Test func statusFailureKeepsHeadersAndTheFirstKilobyte() async {
        let stub = StubTransport()
        let body = String(repeating: "x", count: 5000)
        stub.respond(to: "x", status: 502, headers: ["Retry-After": "3"], body: Data(body.utf8))
        let error = await #expect(throws: ErrandError.self) {
            try await client(stub: stub).send(Request<Data>(path: "x"))
        }
        guard case .unacceptableStatus(let failure) = error else {
            Issue.record("expected unacceptableStatus, got \(String(describing: error))")
            return
        }
        #expect(failure.status == 502)
        #expect(failure.headers["Retry-After"] == "3")
        #expect(failure.bodyExcerpt.count == 1024)
        #expect(error?.userMessage == "The server had a problem answering (HTTP 502).")
        #expect(error?.debugDescription.contains("HTTP 502") == true)
    }

    @Test("a 403 with an HTML page is reported as blocked")
    func blockedPage() async {
        let stub = StubTransport()
        stub.respond(
            to: "x", status: 403, headers: ["Content-Type": "text/html"],
            body: Data("<!DOCTYPE html><html><body>Access denied</body></html>".utf8))
        let error = await #expect(throws: ErrandError.self) {
            try await client(stub: stub).send(Request<Data>(path: "x"))
        }
        guard case .blocked(let failure) = error else {
            Issue.record("expected blocked, got \(String(describing: error))")
            return
        }
        #expect(failure.status == 403)
        #expect(error?.userMessage.contains("wait") == true)
    }

    @Test func aJSON403IsAnOrdinaryStatusFailure() async {
        let stub = StubTransport()
        stub.respond(to: "x", status: 403, json: #"{"message":"forbidden"}"#)
        let error = await #expect(throws: ErrandError.self) {
            try await client(stub: stub).send(Request<Data>(path: "x"))
        }
        guard case .unacceptableStatus = error else {
            Issue.record("expected unacceptableStatus, got \(String(describing: error))")
            return
        }
    }

    @Test func decodingFailureNamesTypePathAndExcerpt() async {
        let stub = StubTransport()
        stub.respond(to: "x", json: #"{"meals":[{"idMeal":1,"strMeal":"Pasta"}]}"#)
        let error = await #expect(throws: ErrandError.self) {
            try await client(stub: stub).send(Request<MealList>(path: "x"))
        }
        guard case .decoding(let failure) = error else {
            Issue.record("expected decoding, got \(String(describing: error))")
            return
        }
        #expect(failure.targetType.contains("MealList"))
        #expect(failure.codingPath == "meals[0].idMeal")
        #expect(failure.bodyExcerpt.hasPrefix(#"{"meals""#))
        #expect(!failure.isHTML)
        #expect(error?.userMessage == "The server's response was not in the expected format.")
    }

    @Test func textAndVoidResponses() async throws {
        let stub = StubTransport()
        stub.respond(
            to: "latin", headers: ["Content-Type": "text/plain; charset=ISO-8859-1"],
            body: Data([0x43, 0x72, 0xE8, 0x6D, 0x65]))
        stub.respond(to: "utf8", headers: ["Content-Type": "text/plain"], body: Data("Crème".utf8))
        stub.respond(to: "empty", status: 204, body: Data())
        let client = client(stub: stub)
        #expect(try await client.send(Request<String>(path: "latin")).value == "Crème")
        #expect(try await client.send(Request<String>(path: "utf8")).value == "Crème")
        #expect(try await client.send(Request<Void>(path: "empty")).status == 204)
    }

    @Test func transportErrorsPassThroughAndCancellationIsCancellation() async {
        let stub = StubTransport()
        stub.fail("down", with: .transport(TransportFailure(kind: .connectionLost, underlying: "reset by peer")))
        let client = client(stub: stub)
        let error = await #expect(throws: ErrandError.self) { try await client.send(Request<Data>(path: "down")) }
        #expect(error?.isTransport(.connectionLost) == true)
        #expect(error?.userMessage == "The connection to the server was lost.")

        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await client.send(Request<Data>(path: "down"))
        }
        let result = await task.result
        guard case .failure(let failure) = result, case .cancelled = failure as? ErrandError else {
            Issue.record("expected cancelled, got \(result)")
            return
        }
    }

    @Test func everyErrorKindHasASentenceAndDetails() {
        let url = URL(string: "https://h.example/x")!
        let errors: [ErrandError] =
            [
                .invalidURL("bad"), .insecureURL(url), .invalidRequest("no"), .bodyTooLarge(limit: 10),
                .notCached(url), .cancelled,
                .unacceptableStatus(StatusFailure(status: 429, headers: [:], body: Data(), url: url)),
                .decoding(
                    DecodingFailure(targetType: "T", codingPath: "a", reason: "r", body: Data(), contentType: nil)),
            ] + TransportFailure.Kind.allCases.map { .transport(TransportFailure(kind: $0, url: url, underlying: "u")) }
        for error in errors {
            #expect(error.userMessage.hasSuffix(".") || error.userMessage.hasSuffix(")."), "\(error.debugDescription)")
            #expect(!error.userMessage.contains("ErrandError"))
            #expect(error.debugDescription.hasPrefix("ErrandError."))
        }
        #expect(Set(errors.map(\.userMessage)).count == errors.count)
    }

    @Test func observersSeeEveryExchangeWithSecretsRedacted() async throws {
        let stub = StubTransport()
        stub.respond(to: "search.php", json: "{}")
        stub.respond(to: "broken", status: 500, json: "{}")
        let recorder = ExchangeRecorder()
        let client = client(base: "https://api.example.com/api/json/v2/SECRETKEY", stub: stub) {
            $0.observers = [recorder]
            $0.redaction = Redaction(queryNames: ["api_key"], pathSegments: ["SECRETKEY"])
        }
        _ = try await client.send(
            Request<Data>(
                path: "search.php", query: [QueryItem("s", "x"), QueryItem("api_key", "hunter2")],
                headers: ["Authorization": "Bearer token", "Cookie": "sid=1"]))
        await #expect(throws: ErrandError.self) { try await client.send(Request<Data>(path: "broken")) }

        let events = recorder.events
        #expect(events.count == 2)
        let first = try #require(events.first)
        #expect(first.url == "https://api.example.com/api/json/v2/***/search.php?s=x&api_key=***")
        #expect(first.requestHeaders["Authorization"] == "***")
        #expect(first.requestHeaders["Cookie"] == "***")
        #expect(first.status == 200)
        #expect(first.method == .get)
        #expect(events[1].status == 500)
        for event in events {
            let text = "\(event.url) \(event.requestHeaders) \(event.summary)"
            #expect(!text.contains("SECRETKEY") && !text.contains("hunter2") && !text.contains("token"))
        }
    }

    @Test func errorsDoNotLeakSecretPathSegments() async {
        let stub = StubTransport()
        stub.fail(
            "x",
            with: .transport(
                TransportFailure(
                    kind: .cannotConnect, url: URL(string: "https://h.example/v2/SECRETKEY/x")!,
                    underlying: "could not connect to https://h.example/v2/SECRETKEY/x")))
        let client = client(base: "https://h.example/v2/SECRETKEY", stub: stub) {
            $0.redaction = Redaction(pathSegments: ["SECRETKEY"])
        }
        let error = await #expect(throws: ErrandError.self) { try await client.send(Request<Data>(path: "x")) }
        #expect(error?.debugDescription.contains("SECRETKEY") == false)
        #expect(error?.userMessage.contains("SECRETKEY") == false)
    }

    @Test func timeoutsAndLimitsReachTheTransport() async throws {
        let stub = StubTransport()
        stub.respond(to: "x", json: "{}")
        let client = client(stub: stub) { $0.maxResponseBodySize = 1234 }
        _ = try await client.send(Request<Data>(path: "x", timeout: .milliseconds(300)))
        let request = try #require(stub.requests.first)
        #expect(request.timeouts.total == .milliseconds(300))
        #expect(request.maxResponseBodySize == 1234)
    }

    @Test func middlewareRunsInOrderAroundTheTransport() async throws {
        let stub = StubTransport()
        stub.respond(to: "x", json: "{}")
        let client = client(stub: stub) {
            $0.middleware = [
                ClosureMiddleware { request, _, next in
                    var request = request
                    request.headers.add(name: "X-Order", value: "outer")
                    return try await next(request)
                },
                ClosureMiddleware { request, _, next in
                    var request = request
                    request.headers.add(name: "X-Order", value: "inner")
                    var response = try await next(request)
                    response.headers["X-Seen"] = "inner"
                    return response
                },
            ]
        }
        let response = try await client.send(Request<Data>(path: "x"))
        #expect(stub.requests.first?.headers.values(for: "X-Order") == ["outer", "inner"])
        #expect(response.headers["X-Seen"] == "inner")
    }
}

@Suite("Headers")
struct HTTPHeadersTests {
    @Test func lookupIgnoresCaseAndAssignmentReplacesAll() {
        var headers: HTTPHeaders = ["Set-Cookie": "a", "Accept": "x"]
        headers.add(name: "set-cookie", value: "b")
        #expect(headers.values(for: "SET-COOKIE") == ["a", "b"])
        headers["set-cookie"] = "c"
        #expect(headers.values(for: "Set-Cookie") == ["c"])
        #expect(headers.fields.map(\.name) == ["Set-Cookie", "Accept"])
        headers["accept"] = nil
        #expect(!headers.contains("Accept"))
    }
}
