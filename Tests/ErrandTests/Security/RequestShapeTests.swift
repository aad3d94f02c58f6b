import Foundation
import Testing
@testable import Errand

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a request may look like on the wire: paths stay below the base URL, and a redirect is refused before it
/// could downgrade to plain http, whatever the transport.
@Suite("Security: request shape")
struct RequestShapeTests {
    @Test(
        "dot segments cannot lead a request outside the base path",
        arguments: [
            ["..", "admin"], [".", "x"], ["objects", ".."],
        ])
    func dotSegmentsAreRefused(segments: [String]) {
        let base = URL(string: "https://api.example.com/public/v1")!
        #expect(throws: ErrandError.self) { try URLBuilder.url(base: base, segments: segments) }
        #expect(throws: ErrandError.self) { try URLBuilder.url(base: base, path: segments.joined(separator: "/")) }
    }

    @Test("dots inside a segment are ordinary characters")
    func dotsInsideASegment() throws {
        let url = try URLBuilder.url(base: URL(string: "https://h.example/v1")!, segments: ["a..b", "...", ".hidden"])
        #expect(url.absoluteString == "https://h.example/v1/a..b/.../.hidden")
    }

    @Test(
        "the URLSession transport follows no redirect itself, https → http and to other schemes included",
        arguments: [
            "http://api.example.com/next", "ftp://api.example.com/next", "file:///etc/passwd",
        ])
    func urlSessionRefusesDowngrade(target: String) async throws {
        let session = URLSession(configuration: .ephemeral)
        let url = URL(string: "https://api.example.com/start")!
        let task = session.dataTask(with: url)
        let response = try #require(
            HTTPURLResponse(url: url, statusCode: 302, httpVersion: "HTTP/1.1", headerFields: ["Location": target]))
        let next = await withCheckedContinuation { continuation in
            SessionDelegate().urlSession(
                session, task: task, willPerformHTTPRedirection: response,
                newRequest: URLRequest(url: URL(string: target)!)
            ) { continuation.resume(returning: $0) }
        }
        #expect(next == nil)
    }

    #if canImport(CCurl)
    @Test(
        "the curl transport refuses https → http and https → other schemes",
        arguments: [
            "http://api.example.com/next", "ftp://api.example.com/next", "file:///etc/passwd",
        ])
    func curlRefusesDowngrade(target: String) throws {
        let hop = CurlHop(TransportRequest(url: URL(string: "https://api.example.com/start")!))
        guard case .failure(.transport(let failure)) = hop.following(status: 302, to: URL(string: target)!) else {
            Issue.record("the redirect to \(target) was followed")
            return
        }
        #expect(failure.kind == .insecureRedirect)
    }
    #endif
}
