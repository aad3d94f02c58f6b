import ErrandTesting
import Foundation
import Testing
@testable import Errand

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Values from an API are data, not addresses to trust: plain http to a service on the user's machine is for clients
/// configured for loopback, and every redirect hop obeys the rule the first request did, on both transports.
@Suite("Security: plain http only where the client was configured for it")
struct PlainHTTPTests {
    @Test(
        "the policy follows the base URL and the opt-in",
        arguments: [
            ("https://api.example.com/v1", false, PlainHTTPPolicy.never),
            ("http://127.0.0.1:8080", false, .loopback),
            ("https://localhost:8443", false, .loopback),
            ("http://[::1]:80", false, .loopback),
            ("https://api.example.com/v1", true, .anywhere),
            ("https://x.localhost", false, .never),
        ])
    func policy(base: String, allowsInsecureHTTP: Bool, expected: PlainHTTPPolicy) {
        #expect(PlainHTTPPolicy(baseURL: URL(string: base)!, allowsInsecureHTTP: allowsInsecureHTTP) == expected)
    }

    @Test(
        "*.localhost, leading zeros and look-alikes are not loopback; the plain forms are",
        arguments: [
            ("localhost", true), ("127.0.0.1", true), ("127.255.0.9", true), ("::1", true), ("[::1]", true),
            ("api.localhost", false), ("127.0.0.01", false), ("0177.0.0.1", false), ("127.0.0.1.example.com", false),
            ("10.0.0.1", false), ("169.254.169.254", false),
        ])
    func loopback(host: String, expected: Bool) {
        #expect(PlainHTTPPolicy.isLoopback(host) == expected)
    }

    @Test("an https client refuses an absolute http URL to loopback that an answer handed out, before sending it")
    func remoteClientRefusesLoopbackHTTP() async {
        let stub = StubTransport()
        let client = APIClient(
            configuration: ClientConfiguration(
                baseURL: URL(string: "https://collectionapi.metmuseum.org/public/collection/v1")!, transport: stub))
        for text in [
            "http://127.0.0.1:6379/", "http://localhost:8080/admin", "http://[::1]:9000/x", "http://x.localhost/y",
        ] {
            let error = await #expect(throws: ErrandError.self) {
                try await client.send(Request<Data>(url: URL(string: text)!))
            }
            guard case .insecureURL? = error else {
                Issue.record("\(text): expected insecureURL, got \(String(describing: error))")
                continue
            }
        }
        #expect(stub.requests.isEmpty, "nothing was sent")
    }

    @Test("a loopback client may use plain http to loopback, and an opted-in client anywhere")
    func loopbackAndOptInClients() async throws {
        let stub = StubTransport()
        stub.respond(to: "x", json: "{}")
        let local = APIClient(
            configuration: ClientConfiguration(baseURL: URL(string: "http://127.0.0.1:8080")!, transport: stub))
        _ = try await local.send(Request<Data>(url: URL(string: "http://localhost:9/x")!))
        await #expect(throws: ErrandError.self) {
            try await local.send(Request<Data>(url: URL(string: "http://example.com/x")!))
        }

        var configuration = ClientConfiguration(baseURL: URL(string: "https://api.example.com")!, transport: stub)
        configuration.allowsInsecureHTTP = true
        _ = try await APIClient(configuration: configuration).send(
            Request<Data>(url: URL(string: "http://example.com/x")!))
        #expect(stub.requests.count == 2)
        #expect(stub.requests.allSatisfy { $0.redirects.plainHTTP != .never }, "the rule travels with the request")
    }

    /// The hops a loopback server may try to send a loopback client to.
    static let hops: [(from: String, to: String, policy: PlainHTTPPolicy, followed: Bool)] = [
        ("http://127.0.0.1:8080/a", "http://169.254.169.254/latest/meta-data", .loopback, false),
        ("http://127.0.0.1:8080/a", "http://10.1.2.3/internal", .loopback, false),
        ("http://127.0.0.1:8080/a", "http://x.localhost/", .loopback, false),
        ("http://127.0.0.1:8080/a", "http://127.0.0.1:9090/b", .loopback, true),
        ("http://127.0.0.1:8080/a", "https://api.example.com/b", .loopback, true),
        ("https://api.example.com/a", "http://127.0.0.1:6379/", .never, false),
        ("https://api.example.com/a", "http://api.example.com/b", .anywhere, false),
        ("http://api.example.com/a", "http://other.example.com/b", .anywhere, true),
        ("http://api.example.com/a", "http://other.example.com/b", .never, false),
        ("https://api.example.com/a", "file:///etc/passwd", .anywhere, false),
    ]

    @Test("every redirect hop obeys the client's rule", arguments: hops)
    func followerHops(from: String, to: String, policy: PlainHTTPPolicy, followed: Bool) {
        let request = TransportRequest(url: URL(string: from)!, redirects: RedirectPolicy(plainHTTP: policy))
        switch request.redirects.decision(status: 302, headers: ["Location": to], for: request, followed: 0) {
        case .follow: #expect(followed, "\(from) → \(to) was followed")
        case .refuse(let failure):
            #expect(!followed, "\(from) → \(to) was refused: \(failure)")
            #expect(failure.kind == .insecureRedirect)
        case .deliver: Issue.record("\(from) → \(to) was delivered as the response")
        }
    }

    @Test("the URLSession transport follows no hop, allowed or not: the 3xx goes up to the one policy", arguments: hops)
    func urlSessionHops(from: String, to: String, policy: PlainHTTPPolicy, followed: Bool) async throws {
        let session = URLSession(configuration: .ephemeral)
        let task = session.dataTask(with: URL(string: from)!)
        let response = try #require(
            HTTPURLResponse(
                url: task.originalRequest!.url!, statusCode: 302, httpVersion: "HTTP/1.1",
                headerFields: ["Location": to]))
        let next = await withCheckedContinuation { continuation in
            SessionDelegate().urlSession(
                session, task: task, willPerformHTTPRedirection: response, newRequest: URLRequest(url: URL(string: to)!)
            ) { continuation.resume(returning: $0) }
        }
        #expect(next == nil, "\(from) → \(to) was followed by URLSession")
    }

    @Test(
        "credentials stay behind when the scheme, host or port changes, and only then",
        arguments: [
            ("https://api.example.com/a", "https://api.example.com/b", true),
            ("https://api.example.com/a", "https://api.example.com:443/b", true),
            ("https://API.example.com/a", "https://api.example.com/b", true),
            ("https://api.example.com/a", "https://api.example.com:8443/b", false),
            ("https://api.example.com/a", "https://cdn.example.com/b", false),
            ("http://127.0.0.1:80/a", "https://127.0.0.1:80/b", false),
        ])
    func credentialRule(from: String, to: String, kept: Bool) {
        let headers: HTTPHeaders = [
            "Authorization": "Bearer t", "Proxy-Authorization": "Basic x", "Cookie": "s=1", "X-Trace": "kept",
        ]
        let request = TransportRequest(url: URL(string: from)!, headers: headers)
        let next = RedirectPolicy.hop(after: 307, from: request, to: URL(string: to)!).headers
        #expect(next["X-Trace"] == "kept")
        for name in ["Authorization", "Proxy-Authorization", "Cookie"] {
            #expect((next[name] != nil) == kept, "\(name): \(from) → \(to)")
        }
    }
}
