import Foundation
import Testing

@testable import Errand

@Suite("SHA-256")
struct SHA256Tests {
    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test(
        "the FIPS 180-4 examples and NIST's short messages",
        arguments: [
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
            ),
            (
                "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
                "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
            ),
        ])
    func vectors(message: String, digest: String) {
        #expect(Self.hex(SHA256.digest(Array(message.utf8))) == digest)
    }

    @Test("a million 'a's (FIPS 180-4's long example)")
    func millionA() {
        let digest = SHA256.digest([UInt8](repeating: 0x61, count: 1_000_000))
        #expect(Self.hex(digest) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test(
        "agrees with openssl dgst on every length across the padding boundaries", .enabled(if: TrustFixtures.isUsable))
    func agreesWithOpenSSL() async throws {
        var generator = SystemRandomNumberGenerator()
        for length in [1, 31, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1000, 4096 + 7] {
            let bytes = (0..<length).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            let ours = SHA256.digest(bytes)
            let theirs = try await TrustFixtures.opensslSHA256(bytes)
            #expect(ours == theirs, "length \(length)")
        }
    }
}
