import Foundation
import Testing

@testable import Errand

/// The verdict URLSessionTransport's server-trust challenge acts on, from real chains of the harness's CA.
@Suite("Server trust decision", .enabled(if: TrustFixtures.isUsable))
struct ServerTrustDecisionTests {
    func chain() throws -> [[UInt8]] { [try TrustFixtures.der("server.pem"), try TrustFixtures.der("ca.pem")] }
    func pin(_ file: String) throws -> PublicKeyPin { try X509Certificate(der: TrustFixtures.der(file)).publicKeyPin }

    @Test("a chain the platform trusts is accepted when nothing is pinned")
    func noPins() throws {
        #expect(ServerTrustDecision(ServerTrust(), chain: try chain(), evaluationFailure: nil) == .accept)
    }

    @Test("a chain the platform refuses is refused, whatever the pins say")
    func platformRefusal() throws {
        let trust = ServerTrust(pins: [try pin("server.pem")])
        let decision = ServerTrustDecision(trust, chain: try chain(), evaluationFailure: "untrusted root")
        #expect(decision == .reject("the server's certificate is not trusted: untrusted root"))
    }

    @Test("the leaf's key among the pins is accepted, RSA or EC, and among others too")
    func matchingPin() throws {
        let trust = ServerTrust(pins: [try pin("other.pem"), try pin("server.pem"), try pin("server-ec.pem")])
        #expect(ServerTrustDecision(trust, chain: try chain(), evaluationFailure: nil) == .accept)
        let ecChain = [try TrustFixtures.der("server-ec.pem"), try TrustFixtures.der("ca.pem")]
        #expect(ServerTrustDecision(trust, chain: ecChain, evaluationFailure: nil) == .accept)
    }

    @Test("a leaf whose key is not pinned is refused, and naming its pin says which key it was")
    func otherPin() throws {
        let decision = ServerTrustDecision(
            ServerTrust(pins: [try pin("other.pem")]), chain: try chain(), evaluationFailure: nil)
        guard case .reject(let reason) = decision else {
            Issue.record("accepted a key that is not pinned")
            return
        }
        #expect(reason.contains(try pin("server.pem").description))
    }

    @Test("a pin of the CA's key does not accept its server: pins name the leaf's key, as libcurl's do")
    func leafOnly() throws {
        let decision = ServerTrustDecision(
            ServerTrust(pins: [try pin("ca.pem")]), chain: try chain(), evaluationFailure: nil)
        #expect(decision != .accept)
    }

    @Test("with pins, an empty chain or an unreadable leaf is refused")
    func unreadable() throws {
        let trust = ServerTrust(pins: [try pin("server.pem")])
        #expect(ServerTrustDecision(trust, chain: [], evaluationFailure: nil) != .accept)
        var damaged = try TrustFixtures.der("server.pem")
        damaged.removeLast()
        #expect(ServerTrustDecision(trust, chain: [damaged], evaluationFailure: nil) != .accept)
    }
}
