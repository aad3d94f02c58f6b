#if canImport(CCurl)
import Errand
import Foundation
import Testing

/// Answers that are not HTTP a client can read are bad responses (the CLIs' exit 6), not network failures.
@Suite("Curl transport: malformed answers are bad responses")
struct CurlMalformedAnswerTests {
    @Test("an HTTP/0.9 answer, a status line of an unknown version, garbage and a 1 MB header line", arguments: [
        "just some bytes, no status line\n",
        "HTTP/7.1 200 OK\r\nContent-Length: 0\r\n\r\n",
        "HTTP/1.1 2000000 OK\r\nContent-Length: 0\r\n\r\n",
        "HTTP/1.1 200 OK\r\nX-Long: " + String(repeating: "a", count: 1_000_000) + "\r\nContent-Length: 0\r\n\r\n",
    ])
    func malformed(answer: String) async throws {
        let server = try HostileServer(response: Array(answer.utf8))
        let request = TransportRequest(url: server.url(), timeouts: Timeouts(total: .seconds(10)))
        let error = await #expect(throws: ErrandError.self) { try await CurlTest.transport().send(request) }
        #expect(error.flatMap(CurlTest.failureKind) == .badResponse, "\(String(describing: error?.debugDescription))")
    }
}
#endif
