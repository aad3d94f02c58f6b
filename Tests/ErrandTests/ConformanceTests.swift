import Errand
import Foundation
import TestSupport
import Testing

/// The behaviour every transport must show, against httpbin and nginx on loopback. Runs once per ``TransportKind``.
@Suite("Transport conformance", .enabled(if: TestServer.httpbin.isUsable))
struct ConformanceTests {
    /// httpbin's echo of a request.
    struct Echo: Decodable, Sendable {
        var args: [String: String]
        var headers: [String: String]
        var url: String
        var method: String?
        var json: [String: String]?
        var form: [String: String]?
        var data: String?
    }

    func client(
        _ kind: TransportKind, _ server: TestServer = .httpbin,
        configure: (inout ClientConfiguration) -> Void = { _ in }
    )
        throws -> APIClient
    {
        var configuration = ClientConfiguration(baseURL: try server.url(), transport: kind.make())
        configuration.timeout = .seconds(20)
        configure(&configuration)
        return APIClient(configuration: configuration)
    }

    @Test(
        "every method reaches the server", arguments: TransportKind.allCases,
        [
            HTTPMethod.get, .post, .put, .patch, .delete,
        ])
    func methods(kind: TransportKind, method: HTTPMethod) async throws {
        let echo = try await client(kind).send(Request<Echo>(method: method, path: "anything")).value
        #expect(echo.method == method.rawValue)
    }

    @Test("HEAD and OPTIONS answer without a body", arguments: TransportKind.allCases)
    func headAndOptions(kind: TransportKind) async throws {
        let head = try await client(kind).send(Request<Data>(method: .head, path: "get"))
        #expect(head.status == 200)
        #expect(head.value.isEmpty)
        let options = try await client(kind).send(Request<Void>(method: .options, path: "get"))
        #expect(options.status == 200)
        #expect(options.headers["Allow"]?.contains("GET") == true)
    }

    @Test("query values arrive exactly as given", arguments: TransportKind.allCases)
    func queryEncoding(kind: TransportKind) async throws {
        let values = ["a+b&c", "x=y|z", "mac and cheese", "Crème brûlée", "#;,/?", "100%", "日本"]
        let query = values.enumerated().map { QueryItem("v\($0.offset)", $0.element) }
        let echo = try await client(kind).send(Request<Echo>(path: "get", query: query)).value
        for (index, value) in values.enumerated() {
            #expect(echo.args["v\(index)"] == value)
        }
    }

    @Test("headers, JSON and form bodies are echoed", arguments: TransportKind.allCases)
    func bodiesAndHeaders(kind: TransportKind) async throws {
        struct Payload: Encodable, Sendable { var name: String; var note: String }
        let client = try client(kind)
        let json = try await client.send(
            Request<Echo>(
                method: .post, path: "anything", headers: ["X-Trace": "t-1"],
                body: .json(Payload(name: "Crème", note: "a+b&c")))
        ).value
        #expect(json.json == ["name": "Crème", "note": "a+b&c"])
        #expect(json.headers["X-Trace"] == "t-1")
        #expect(json.headers["Content-Type"] == "application/json")
        #expect(json.headers["User-Agent"] == ClientConfiguration.defaultUserAgent)

        let form = try await client.send(
            Request<Echo>(
                method: .post, path: "anything", body: .form([QueryItem("s", "a b+c&d"), QueryItem("t", "é")]))
        ).value
        #expect(form.form == ["s": "a b+c&d", "t": "é"])

        let raw = try await client.send(
            Request<Echo>(
                method: .put, path: "anything", body: .data(Data("plain bytes".utf8), contentType: "text/plain"))
        ).value
        #expect(raw.data == "plain bytes")
    }

    @Test("accepted statuses succeed", arguments: TransportKind.allCases, [200, 201, 204])
    func successStatuses(kind: TransportKind, status: Int) async throws {
        let response = try await client(kind).send(Request<Data>(path: "status/\(status)"))
        #expect(response.status == status)
    }

    @Test("other statuses fail with the status", arguments: TransportKind.allCases, [404, 418, 500, 503])
    func failureStatuses(kind: TransportKind, status: Int) async throws {
        let error = await #expect(throws: ErrandError.self) {
            try await client(kind).send(Request<Data>(path: "status/\(status)"))
        }
        guard case .unacceptableStatus(let failure) = error else {
            Issue.record("expected unacceptableStatus, got \(String(describing: error))")
            return
        }
        #expect(failure.status == status)
        if status == 418 { #expect(failure.bodyExcerpt.contains("teapot")) }
    }

    @Test("a request can accept a non-2xx status", arguments: TransportKind.allCases)
    func acceptedNon2xx(kind: TransportKind) async throws {
        var request = Request<Data>(path: "status/404")
        request.acceptedStatusCodes.insert(404)
        #expect(try await client(kind).send(request).status == 404)
    }

    @Test("301, 302 and 307 are followed to the final URL", arguments: TransportKind.allCases, [301, 302, 307])
    func redirectsFollowed(kind: TransportKind, status: Int) async throws {
        let response = try await client(kind).send(Request<Echo>(path: "status/\(status)"))
        #expect(response.status == 200)
        #expect(response.url.path == "/get")
    }

    @Test("a chain of redirects is followed", arguments: TransportKind.allCases)
    func redirectChain(kind: TransportKind) async throws {
        let response = try await client(kind).send(Request<Echo>(path: "redirect/3"))
        #expect(response.url.path == "/get")
    }

    @Test("307 keeps the method and the body", arguments: TransportKind.allCases)
    func redirect307KeepsBody(kind: TransportKind) async throws {
        let request = Request<Echo>(
            method: .post, path: "redirect-to",
            query: [QueryItem("url", "/anything"), QueryItem("status_code", "307")],
            body: .text("kept body"))
        let echo = try await client(kind).send(request).value
        #expect(echo.method == "POST")
        #expect(echo.data == "kept body")
    }

    @Test("more redirects than allowed fail", arguments: TransportKind.allCases)
    func redirectLimit(kind: TransportKind) async throws {
        let client = try client(kind) { $0.redirects = RedirectPolicy(maxRedirects: 2) }
        let error = await #expect(throws: ErrandError.self) { try await client.send(Request<Data>(path: "redirect/5")) }
        #expect(error?.isTransport(.tooManyRedirects) == true)
    }

    @Test("a redirect loop fails", .enabled(if: TestServer.nginxHTTP.isUsable), arguments: TransportKind.allCases)
    func redirectLoop(kind: TransportKind) async throws {
        let client = try client(kind, .nginxHTTP)
        let error = await #expect(throws: ErrandError.self) {
            try await client.send(Request<Data>(path: "redirect/loop"))
        }
        #expect(error?.isTransport(.tooManyRedirects) == true)
    }

    @Test("gzip and deflate bodies are decoded", arguments: TransportKind.allCases)
    func contentDecoding(kind: TransportKind) async throws {
        struct Flags: Decodable, Sendable { var gzipped: Bool?; var deflated: Bool? }
        // Asked for by name: URLSession on Linux otherwise asks for identity and refuses a compressed answer
        // (HostileAnswerTests), because FoundationNetworking cannot tell a cut-off compressed body from a whole one.
        let client = try client(kind)
        let headers: HTTPHeaders = ["Accept-Encoding": "gzip, deflate"]
        #expect(try await client.send(Request<Flags>(path: "gzip", headers: headers)).value.gzipped == true)
        #expect(try await client.send(Request<Flags>(path: "deflate", headers: headers)).value.deflated == true)
    }

    @Test("basic auth passes with credentials and fails without", arguments: TransportKind.allCases)
    func basicAuth(kind: TransportKind) async throws {
        struct Auth: Decodable, Sendable { var authenticated: Bool }
        let credentials = Data("user:secret".utf8).base64EncodedString()
        let client = try client(kind)
        let ok = try await client.send(
            Request<Auth>(
                path: "basic-auth/user/secret", headers: ["Authorization": "Basic \(credentials)"]))
        #expect(ok.value.authenticated)
        let error = await #expect(throws: ErrandError.self) {
            try await client.send(Request<Auth>(path: "basic-auth/user/secret"))
        }
        #expect(error?.status == 401, "\(String(reflecting: error))")
    }

    // Measures real time: the transport's own timer has to fire, so the bound is on the wall clock, and generous.
    @Test("a response slower than the timeout fails as timed out (real time)", arguments: TransportKind.allCases)
    func timeoutRealTime(kind: TransportKind) async throws {
        let started = ContinuousClock.now
        let error = await #expect(throws: ErrandError.self) {
            try await client(kind).send(Request<Data>(path: "delay/5", timeout: .milliseconds(500)))
        }
        #expect(error?.isTransport(.timedOut) == true)
        #expect(ContinuousClock.now - started < .seconds(4))
    }

    @Test("a body over the limit fails", arguments: TransportKind.allCases, ["bytes/60000", "stream-bytes/60000"])
    func bodyLimit(kind: TransportKind, path: String) async throws {
        let client = try client(kind) { $0.maxResponseBodySize = 10_000 }
        let error = await #expect(throws: ErrandError.self) { try await client.send(Request<Data>(path: path)) }
        guard case .bodyTooLarge(let limit) = error else {
            Issue.record("expected bodyTooLarge, got \(String(describing: error))")
            return
        }
        #expect(limit == 10_000)
        // Under the limit the same request succeeds.
        let small = try await client.send(Request<Data>(path: path.replacingOccurrences(of: "60000", with: "5000")))
        #expect(small.value.count == 5000)
    }

    // Measures real time: cancelling must reach the transport's transfer, on the wire, well before the server's
    // 8 s answer; the bound is generous.
    @Test(
        "cancelling the task cancels a slow response promptly (real time)", .enabled(if: TestServer.fault.isUsable),
        arguments: TransportKind.allCases)
    func cancellationRealTime(kind: TransportKind) async throws {
        let fault = try FaultScenario(kind)
        let client = fault.client()
        let task = Task {
            try await client.send(Request<Data>(path: fault.path("slow"), query: [QueryItem("ms", "8000")]))
        }
        // The transfer is under way once the server has the request.
        #expect(await waitUntil { (try? await fault.stats().count) == 1 })
        let cancelled = ContinuousClock.now
        task.cancel()
        let result = await task.result
        #expect(ContinuousClock.now - cancelled < .seconds(1))
        guard case .failure(let error) = result, case .cancelled = error as? ErrandError else {
            Issue.record("expected cancellation, got \(result)")
            return
        }
    }

    @Test("a refused connection fails as cannot connect", arguments: TransportKind.allCases)
    func connectionRefused(kind: TransportKind) async throws {
        let client = APIClient(
            configuration: ClientConfiguration(
                baseURL: URL(string: "http://127.0.0.1:9")!, transport: kind.make()))
        let error = await #expect(throws: ErrandError.self) { try await client.send(Request<Data>(path: "x")) }
        #expect(error?.isTransport(.cannotConnect) == true)
    }

    @Test("HTML where JSON was expected is a decoding failure with an excerpt", arguments: TransportKind.allCases)
    func htmlInsteadOfJSON(kind: TransportKind) async throws {
        let error = await #expect(throws: ErrandError.self) { try await client(kind).send(Request<Echo>(path: "html")) }
        guard case .decoding(let failure) = error else {
            Issue.record("expected decoding, got \(String(describing: error))")
            return
        }
        #expect(failure.isHTML)
        #expect(failure.bodyExcerpt.contains("<html"))
        #expect(failure.targetType.contains("Echo"))
        #expect(error?.userMessage == "The server sent a web page instead of the expected data.")
    }

    @Test("text, metrics and final URL come with the response", arguments: TransportKind.allCases)
    func responseDetails(kind: TransportKind) async throws {
        let text = "Crème brûlée ∮ E⋅da = Q"
        let encoded = Data(text.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        let response = try await client(kind).send(Request<String>(path: "base64/\(encoded)"))
        #expect(response.value == text)
        #expect(response.metrics.bytesReceived == response.data.count)
        #expect(response.metrics.total > .zero)
        #expect(response.url.path.hasPrefix("/base64/"))
        #expect(response.headers["Content-Type"] != nil)
    }
}
