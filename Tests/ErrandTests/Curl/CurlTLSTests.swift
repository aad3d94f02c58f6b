#if canImport(CCurl)
import Errand
import Foundation
import TestSupport
import Testing

@Suite("Curl transport: TLS and HTTP/2")
struct CurlTLSTests {
    @Test("trusts the throwaway CA it is given and negotiates HTTP/2", .enabled(if: TestServer.nginxHTTPS.isUsable))
    func trustsCustomCA() async throws {
        let response = try await CurlTest.transport().send(CurlTest.request(.nginxHTTPS, "/small.json"))
        #expect(response.status == 200)
        #expect(try CurlTest.json(response.body)["meals"] != nil)
        #expect(response.metrics.httpVersion == "2")
        #expect(response.metrics.tls != nil)
        #expect(response.metrics.bytesReceived == response.body.count)
    }

    @Test("refuses the test server under system trust alone", .enabled(if: TestServer.nginxHTTPS.isUsable))
    func systemTrustRejectsUnknownCA() async throws {
        let transport = CurlTest.transport(trustsTestCA: false)
        let error = await #expect(throws: ErrandError.self) {
            try await transport.send(CurlTest.request(.nginxHTTPS, "/small.json"))
        }
        #expect(error.flatMap(CurlTest.failureKind) == .tls)
    }

    @Test("accepts the server's pinned key", .enabled(if: TestServer.nginxHTTPS.isUsable))
    func matchingPin() async throws {
        let pin = try #require(TestServer.environment("ERRAND_TEST_PIN"))
        let response = try await CurlTest.transport(pinnedPublicKey: pin).send(
            CurlTest.request(.nginxHTTPS, "/small.json"))
        #expect(response.status == 200)
    }

    @Test("fails with a TLS error when the pinned key does not match", .enabled(if: TestServer.nginxHTTPS.isUsable))
    func mismatchedPin() async throws {
        let pin = try #require(TestServer.environment("ERRAND_TEST_WRONG_PIN"))
        let transport = CurlTest.transport(pinnedPublicKey: pin)
        let error = await #expect(throws: ErrandError.self) {
            try await transport.send(CurlTest.request(.nginxHTTPS, "/small.json"))
        }
        guard case .transport(let failure) = error else { return }
        #expect(failure.kind == .tls)
        #expect(failure.underlying.lowercased().contains("pinned"))
    }

    @Test(
        "multiplexes many concurrent requests over one HTTP/2 connection", .enabled(if: TestServer.nginxHTTPS.isUsable))
    func multiplexesOverOneConnection() async throws {
        let transport = CurlTest.transport()
        let request = try CurlTest.request(.nginxHTTPS, "/big.json")
        let metrics = try await withThrowingTaskGroup(of: TransferMetrics.self) { group in
            for _ in 0..<24 {
                group.addTask { try await transport.send(request).metrics }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(metrics.count == 24)
        #expect(metrics.allSatisfy { $0.httpVersion == "2" })
        #expect(metrics.filter { $0.connectionReused == false }.count == 1)
    }

    /// A client of the TLS server over curl, trusting the test CA.
    private func client() throws -> APIClient {
        APIClient(
            configuration: ClientConfiguration(
                baseURL: try TestServer.nginxHTTPS.url(), transport: CurlTest.transport()))
    }

    @Test("refuses a redirect from https to http", .enabled(if: TestServer.nginxHTTPS.isUsable))
    func refusesDowngrade() async throws {
        let client = try client()
        let error = await #expect(throws: ErrandError.self) {
            try await client.send(Request<Data>(path: "redirect/to-http"))
        }
        #expect(error.flatMap(CurlTest.failureKind) == .insecureRedirect)
    }

    @Test("follows a redirect that stays on https", .enabled(if: TestServer.nginxHTTPS.isUsable))
    func followsHTTPSRedirect() async throws {
        let response = try await client().send(Request<Data>(path: "redirect/to-https"))
        #expect(response.status == 200)
        #expect(response.url.path == "/small.json")
        #expect(response.metrics.redirectCount == 1)
    }

    @Test("the transport itself hands the 3xx up as it came", .enabled(if: TestServer.nginxHTTPS.isUsable))
    func handsRedirectsUp() async throws {
        let response = try await CurlTest.transport().send(CurlTest.request(.nginxHTTPS, "/redirect/to-http"))
        #expect((300..<400).contains(response.status))
        #expect(response.headers["Location"]?.hasPrefix("http://") == true)
    }
}
#endif
