import Errand
import Foundation
import Testing
import TestSupport

/// Certificate verification has no off switch, and every way of misconfiguring trust fails closed: a request to a
/// server the configuration does not trust fails with a TLS error rather than going through unverified.
@Suite("Security: TLS verification fails closed", .serialized)
struct TLSVerificationTests {
    private func failureKind(_ transport: any Transport) async throws -> TransportFailure.Kind? {
        let client = APIClient(
            configuration: ClientConfiguration(
                baseURL: try TestServer.nginxHTTPS.url(), transport: transport, timeout: .seconds(10)))
        do {
            _ = try await client.send(Request<Data>(path: "small.json"))
            return nil
        } catch {
            if case .transport(let failure) = error { return failure.kind }
            return .other
        }
    }

    @Test(
        "URLSession refuses a certificate the system store does not trust", .enabled(if: TestServer.nginxHTTPS.isUsable)
    )
    func urlSessionRefusesUntrusted() async throws {
        #expect(try await failureKind(URLSessionTransport()) == .tls)
    }

    #if canImport(CCurl)
    @Test(
        "a CA bundle that does not exist is not a reason to skip verification",
        .enabled(if: TestServer.nginxHTTPS.isUsable))
    func missingCABundle() async throws {
        let transport = CurlTransport(configuration: .init(caBundle: URL(fileURLWithPath: "/nonexistent/ca.pem")))
        #expect(try await failureKind(transport) == .tls)
    }

    @Test(
        "an empty or malformed pin refuses the server instead of pinning nothing",
        .enabled(if: TestServer.nginxHTTPS.isUsable), arguments: ["", "sha256//", "sha256//not-base64!"])
    func malformedPin(pin: String) async throws {
        let transport = CurlTransport(
            configuration: .init(caBundle: TestServer.certificateAuthority, pinnedPublicKey: pin))
        #expect(try await failureKind(transport) == .tls)
    }
    #endif
}
