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
        "the redirect follower refuses https → http and https → other schemes",
        arguments: [
            "http://api.example.com/next", "ftp://api.example.com/next", "file:///etc/passwd",
        ])
    func followerRefusesDowngrade(target: String) throws {
        let request = TransportRequest(url: URL(string: "https://api.example.com/start")!)
        let decision = request.redirects.decision(
            status: 302, headers: ["Location": target], for: request, followed: 0)
        guard case .refuse(let failure) = decision else {
            Issue.record("the redirect to \(target) was followed")
            return
        }
        #expect(failure.kind == .insecureRedirect)
    }
}
