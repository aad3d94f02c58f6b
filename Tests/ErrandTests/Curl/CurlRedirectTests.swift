#if canImport(CCurl)
import Errand
import Foundation
import TestSupport
import Testing

@Suite("Curl transport: redirects")
struct CurlRedirectTests {
    private func redirect(to target: String, status: Int) -> String {
        let encoded = target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? target
        return "/redirect-to?url=\(encoded)&status_code=\(status)"
    }

    @Test(
        "307 and 308 repeat the method and the body", .enabled(if: TestServer.httpbin.isUsable),
        arguments: [307, 308])
    func keepsMethodAndBody(status: Int) async throws {
        let transport = CurlTest.transport()
        let request = try CurlTest.request(
            .httpbin, redirect(to: "/anything", status: status), method: .put,
            headers: ["Content-Type": "text/plain"], body: .data(Data("kept body".utf8)))
        let response = try await transport.send(request)
        let echo = try CurlTest.json(response.body)
        #expect(response.status == 200)
        #expect(echo["method"] as? String == "PUT")
        #expect(echo["data"] as? String == "kept body")
        #expect(response.metrics.redirectCount == 1)
    }

    @Test("303 turns POST into a GET without body", .enabled(if: TestServer.httpbin.isUsable))
    func seeOtherBecomesGet() async throws {
        let transport = CurlTest.transport()
        let request = try CurlTest.request(
            .httpbin, redirect(to: "/anything", status: 303), method: .post, body: .data(Data("dropped".utf8)))
        let echo = try CurlTest.json(try await transport.send(request).body)
        #expect(echo["method"] as? String == "GET")
        #expect(echo["data"] as? String == "")
    }

    @Test("a file body is sent again after a 307", .enabled(if: TestServer.httpbin.isUsable))
    func fileBodyRepeated() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("errand-curl-\(UUID()).txt")
        try Data(repeating: UInt8(ascii: "x"), count: 100_000).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let request = try CurlTest.request(
            .httpbin, redirect(to: "/post", status: 307), method: .post, headers: ["Content-Type": "text/plain"],
            body: .file(file))
        let response = try await CurlTest.transport().send(request)
        let echo = try CurlTest.json(response.body)
        #expect((echo["data"] as? String)?.count == 100_000)
        #expect(response.metrics.bytesSent >= 100_000)
    }

    @Test(
        "Authorization is dropped when the host changes and kept when it does not",
        .enabled(if: TestServer.httpbin.isUsable))
    func authorizationOnlyToSameHost() async throws {
        let transport = CurlTest.transport()
        let base = try TestServer.httpbin.url()
        var other = try #require(URLComponents(url: base, resolvingAgainstBaseURL: false))
        other.host = "localhost"
        other.path = "/headers"
        let otherHost = try #require(other.url).absoluteString
        let headers: HTTPHeaders = ["Authorization": "Bearer secret", "Cookie": "session=1"]

        let away = try await transport.send(
            CurlTest.request(.httpbin, redirect(to: otherHost, status: 302), headers: headers))
        let awayHeaders = try #require(CurlTest.json(away.body)["headers"] as? [String: Any])
        #expect(awayHeaders["Authorization"] == nil)
        #expect(awayHeaders["Cookie"] == nil)

        let same = try await transport.send(
            CurlTest.request(.httpbin, redirect(to: "/headers", status: 302), headers: headers))
        let sameHeaders = try #require(CurlTest.json(same.body)["headers"] as? [String: Any])
        #expect(sameHeaders["Authorization"] as? String == "Bearer secret")
    }

    @Test("more redirects than allowed fail with tooManyRedirects", .enabled(if: TestServer.httpbin.isUsable))
    func tooManyRedirects() async throws {
        let request = try CurlTest.request(.httpbin, "/redirect/3", redirects: RedirectPolicy(maxRedirects: 2))
        let transport = CurlTest.transport()
        let error = await #expect(throws: ErrandError.self) { try await transport.send(request) }
        #expect(error.flatMap(CurlTest.failureKind) == .tooManyRedirects)
    }

    @Test("a policy of zero redirects returns the 3xx itself", .enabled(if: TestServer.httpbin.isUsable))
    func zeroRedirectsReturnsRedirect() async throws {
        let request = try CurlTest.request(.httpbin, "/redirect/1", redirects: RedirectPolicy(maxRedirects: 0))
        let response = try await CurlTest.transport().send(request)
        #expect(response.status == 302)
        #expect(response.headers["Location"] != nil)
    }
}
#endif
