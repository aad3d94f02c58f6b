#if canImport(CCurl)
import Errand
import Foundation
import Testing
import TestSupport

/// CurlTransport under a ServerTrust, against nginx's certificate from the harness's CA.
@Suite("Curl: server trust", .enabled(if: TestServer.nginxHTTPS.isUsable && TrustFixtures.isUsable))
struct CurlServerTrustTests {
    func send(_ trust: ServerTrust) async throws -> Int {
        var configuration = CurlTransport.Configuration()
        configuration.trust = trust
        let client = APIClient(
            configuration: ClientConfiguration(
                baseURL: try TestServer.nginxHTTPS.url(), transport: CurlTransport(configuration: configuration)))
        return try await client.send(Request<Data>(path: "small.json")).status
    }

    func anchors(_ file: String) throws -> [ServerTrust.Anchor] {
        try ServerTrust.Anchor.certificates(pem: Data(contentsOf: TrustFixtures.file(file)))
    }

    func pin(_ file: String) async throws -> PublicKeyPin {
        try PublicKeyPin(await TrustFixtures.opensslPin(file))
    }

    func expectTLSFailure(_ trust: ServerTrust, _ comment: Comment) async {
        let error = await #expect(throws: ErrandError.self, comment) { _ = try await send(trust) }
        guard case .transport(let failure) = error else {
            Issue.record("expected a TLS failure, got \(String(describing: error))")
            return
        }
        #expect(failure.kind == .tls, comment)
    }

    @Test("the harness's CA as the only anchor is trusted, as the only one or beside the system's")
    func anchorsTrusted() async throws {
        #expect(try await send(ServerTrust(anchors: anchors("ca.pem"))) == 200)
        #expect(try await send(ServerTrust(anchors: anchors("ca.pem"), anchorsOnly: false)) == 200)
    }

    @Test("an anchor that did not sign the server's certificate is refused as TLS; so is the system's store alone")
    func otherAnchorRefused() async throws {
        await expectTLSFailure(ServerTrust(anchors: try anchors("other.pem")), "an unrelated anchor")
        await expectTLSFailure(ServerTrust(), "the system's trust")
    }

    @Test("the server's pin, made by openssl, is accepted; an unrelated key's pin is refused as TLS")
    func pins() async throws {
        let anchors = try anchors("ca.pem")
        #expect(try await send(ServerTrust(anchors: anchors, pins: [pin("other.pem"), pin("server.pem")])) == 200)
        await expectTLSFailure(ServerTrust(anchors: anchors, pins: [try await pin("other.pem")]), "the other pin")
    }

    @Test("a trust replaces caBundle and pinnedPublicKey: a wrong legacy pin no longer counts")
    func replacesLegacyOptions() async throws {
        var configuration = CurlTransport.Configuration(
            caBundle: TestServer.certificateAuthority,
            pinnedPublicKey: TestServer.environment("ERRAND_TEST_WRONG_PIN"))
        configuration.trust = ServerTrust(anchors: try anchors("ca.pem"), pins: [try await pin("server.pem")])
        let client = APIClient(
            configuration: ClientConfiguration(
                baseURL: try TestServer.nginxHTTPS.url(), transport: CurlTransport(configuration: configuration)))
        #expect(try await client.send(Request<Data>(path: "small.json")).status == 200)
    }
}
#endif
