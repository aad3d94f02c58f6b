import Foundation
import Testing
import TestSupport

@testable import Errand

/// Pins computed from the harness's certificates by the DER reader and SHA-256 here, against openssl's.
@Suite("Public-key pins", .enabled(if: TrustFixtures.isUsable))
struct PublicKeyPinTests {
    @Test(
        "the pin of an RSA or EC certificate is the one openssl's pipeline computes",
        arguments: ["server.pem", "server-ec.pem", "ca.pem", "client.pem", "other.pem"])
    func matchesOpenSSL(file: String) async throws {
        let certificate = try X509Certificate(der: TrustFixtures.der(file))
        let expected = try await TrustFixtures.opensslPin(file)
        #expect(certificate.publicKeyPin.description == expected)
        #expect(try PublicKeyPin(expected) == certificate.publicKeyPin)
    }

    @Test("the server's pin is the one the harness hands libcurl, and the other key's is not")
    func matchesTheHarnessPin() throws {
        let pin = try X509Certificate(der: TrustFixtures.der("server.pem")).publicKeyPin
        #expect(pin.description == TestServer.environment("ERRAND_TEST_PIN"))
        #expect(pin.description != TestServer.environment("ERRAND_TEST_WRONG_PIN"))
    }

    @Test("an EC key's SubjectPublicKeyInfo is the 91 bytes of a P-256 key, an RSA 2048 one's 294")
    func keySizes() throws {
        #expect(try X509Certificate(der: TrustFixtures.der("server-ec.pem")).subjectPublicKeyInfo.count == 91)
        #expect(try X509Certificate(der: TrustFixtures.der("server.pem")).subjectPublicKeyInfo.count == 294)
    }

    @Test("anchors read from PEM: one from the CA file, two from two certificates, none from a key")
    func anchorsFromPEM() throws {
        let ca = try Data(contentsOf: TrustFixtures.file("ca.pem"))
        let server = try Data(contentsOf: TrustFixtures.file("server.pem"))
        #expect(try ServerTrust.Anchor.certificates(pem: ca).count == 1)
        let both = try ServerTrust.Anchor.certificates(pem: ca + server)
        let expected = [try TrustFixtures.der("ca.pem"), try TrustFixtures.der("server.pem")]
        #expect(both.map { [UInt8]($0.der) } == expected)
        #expect(throws: ErrandError.self) {
            _ = try ServerTrust.Anchor.certificates(pem: Data(contentsOf: TrustFixtures.file("server.key")))
        }
    }

    @Test("an anchor written back as PEM reads as the same certificate")
    func pemRoundTrip() throws {
        let anchor = try ServerTrust.Anchor(der: Data(TrustFixtures.der("ca.pem")))
        #expect(try ServerTrust.Anchor.certificates(pem: Data(anchor.pem.utf8)) == [anchor])
    }
}

@Suite("Public-key pin text")
struct PublicKeyPinTextTests {
    static let valid = "sha256//" + Data(repeating: 7, count: 32).base64EncodedString()

    @Test("sha256// and the base64 of 32 bytes reads, and writes back the same")
    func valid() throws {
        let pin = try PublicKeyPin(Self.valid)
        #expect(pin.sha256 == [UInt8](repeating: 7, count: 32))
        #expect(pin.description == Self.valid)
    }

    @Test(
        "anything else is refused",
        arguments: [
            "", "sha256//", "sha256//not base64!", "sha1//" + Data(repeating: 7, count: 32).base64EncodedString(),
            "sha256//" + Data(repeating: 7, count: 31).base64EncodedString(),
            "sha256//" + Data(repeating: 7, count: 33).base64EncodedString(),
        ])
    func refused(text: String) {
        #expect(throws: ErrandError.self) { _ = try PublicKeyPin(text) }
    }

    @Test("a ;-separated list reads pin by pin, and an empty member fails the list")
    func list() throws {
        #expect(try PublicKeyPin.list(Self.valid + ";" + Self.valid).count == 2)
        #expect(throws: ErrandError.self) { _ = try PublicKeyPin.list(Self.valid + ";") }
    }
}
