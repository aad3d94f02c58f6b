import Errand
import Foundation
import Testing
import TestSupport

/// ``ProxyBypass`` decides as the real curl does: the same host and `--noproxy` list, sent by curl through the proxy
/// that asks for credentials, is bypassed (200 from httpbin) exactly when Errand says so (else the proxy's 407).
///
/// The name ends in CurlCommand so that scripts/test runs it with the other child-process tests, one at a time.
@Suite("NO_PROXY against the curl command", .enabled(if: ConnectivityServers.isUsable))
struct NoProxyCurlCommandTests {
    static let lists = [
        "127.0.0.1", "127.0.0.1:1", "127.0.0.0/8", "127.0.0.0/0", "127.0.0.0", "localhost", "*", ".0.0.1", "0.0.1",
        ".localhost", "host", "other.example, localhost", "LOCALHOST.",
    ]

    @Test("Errand and curl agree on every list, for an address and a name", arguments: ["127.0.0.1", "localhost"])
    func agreesWithCurl(host: String) async throws {
        let port = try #require(TestServer.httpbin.url().port)
        let proxy = try ConnectivityServers.value("ERRAND_PROXY_URL")
        for list in Self.lists {
            let status = try await curlStatus(url: "http://\(host):\(port)/get", proxy: proxy, noProxy: list)
            let bypassed = ProxyBypass(list).matches(host: host)
            #expect(status == (bypassed ? "200" : "407"), "\(host) with --noproxy \"\(list)\"")
        }
    }

    /// What curl answered, run by bash with no terminal, so it waits without blocking a thread of the pool.
    private func curlStatus(url: String, proxy: String, noProxy: String) async throws -> String {
        let words = ["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-x", proxy, "--noproxy", noProxy, url]
        let outcome = try await CurlCommandShell.bash.run(words.map { "'\($0)'" }.joined(separator: " "))
        return String(decoding: outcome.output, as: UTF8.self)
    }
}
