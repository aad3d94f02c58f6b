import Foundation
import Testing

@testable import Errand

/// Hostile certificates: every one gives an error, none a trap.
@Suite("DER reader")
struct DERReaderTests {
    @Test("every truncation of a real certificate is an error", .enabled(if: TrustFixtures.isUsable))
    func truncations() throws {
        let der = try TrustFixtures.der("server.pem")
        for length in 0..<der.count {
            #expect(throws: DERError.self) { _ = try X509Certificate(der: Array(der[..<length])) }
        }
        #expect(try X509Certificate(der: der).der == der)
    }

    @Test("a byte after the certificate is an error", .enabled(if: TrustFixtures.isUsable))
    func trailingByte() throws {
        #expect(throws: DERError.trailingBytes) { _ = try X509Certificate(der: TrustFixtures.der("server.pem") + [0]) }
    }

    @Test(
        "every single-byte change of a real certificate parses or throws, and never traps",
        .enabled(if: TrustFixtures.isUsable))
    func mutations() throws {
        let der = try TrustFixtures.der("server-ec.pem")
        var generator = SplitMix(seed: 27)
        var refused = 0
        for index in der.indices {
            for _ in 0..<4 {
                var mutated = der
                mutated[index] = UInt8.random(in: .min ... .max, using: &generator)
                if (try? X509Certificate(der: mutated)) == nil { refused += 1 }
            }
        }
        // Changes to the header bytes of the outer structures must be caught; the count shows the reader looked.
        #expect(refused > 0)
    }

    @Test(
        "wrong lengths are errors: past the end, indefinite, over four bytes, not minimal",
        arguments: [
            ([0x30, 0x05, 0x02, 0x01, 0x00], DERError.truncated),
            ([0x30, 0x80, 0x02, 0x01, 0x00, 0x00, 0x00], DERError.indefiniteLength),
            ([0x30, 0x85, 0x01, 0x00, 0x00, 0x00, 0x00], DERError.lengthTooLong),
            ([0x30, 0x81, 0x03, 0x02, 0x01, 0x00], DERError.nonMinimalLength),
            ([0x30, 0x82, 0x00, 0x83], DERError.nonMinimalLength),
            ([0x30, 0x84, 0xFF, 0xFF, 0xFF, 0xFF], DERError.truncated),
            ([0x30], DERError.truncated),
            ([0x1F, 0x01, 0x00], DERError.unsupportedTag(0x1F)),
            ([0x02, 0x01, 0x00], DERError.unexpectedTag(expected: 0x30, found: 0x02)),
        ] as [([UInt8], DERError)])
    func wrongLengths(bytes: [UInt8], error: DERError) {
        #expect(throws: error) { _ = try X509Certificate(der: bytes) }
    }

    @Test("a hundred thousand nested sequences are an error, read without recursion")
    func deepNesting() {
        // Built from the inside out, so that every level's length is what the levels inside it take.
        var headers: [[UInt8]] = []
        var length = 2
        for _ in 0..<100_000 {
            let header = Self.header(length)
            headers.append(header)
            length += header.count
        }
        let der: [UInt8] = Array(headers.reversed().joined()) + [0x05, 0x00]
        #expect(der.count == length)
        #expect(throws: DERError.self) { _ = try X509Certificate(der: der) }
    }

    @Test("the smallest certificate shape reads, its key exactly the bytes of its SubjectPublicKeyInfo")
    func skeleton() throws {
        // The fuzz-numbers seed `certificate-skeleton`: empty names and algorithms, a one-byte key.
        let key: [UInt8] = [0x30, 0x05, 0x30, 0x00, 0x03, 0x01, 0x00]
        let tbs: [UInt8] =
            [0x30, 0x17, 0xA0, 0x03, 0x02, 0x01, 0x02, 0x02, 0x01, 0x01] + [0x30, 0x00, 0x30, 0x00]
            + [0x30, 0x00, 0x30, 0x00] + key
        let der: [UInt8] = [0x30, 0x1E] + tbs + [0x30, 0x00, 0x03, 0x01, 0x00]
        #expect(try X509Certificate(der: der).subjectPublicKeyInfo == key)
        // Without the optional version it reads the same.
        let fields: [UInt8] = Array(tbs[7...])
        let signature: [UInt8] = [0x30, 0x00, 0x03, 0x01, 0x00]
        let unversioned: [UInt8] = [0x30, 0x19, 0x30, 0x12] + fields + signature
        #expect(try X509Certificate(der: unversioned).subjectPublicKeyInfo == key)
    }

    @Test("random bytes never trap")
    func randomBytes() {
        var generator = SplitMix(seed: 6)
        for _ in 0..<20_000 {
            let count = Int.random(in: 0..<64, using: &generator)
            var bytes = (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            if !bytes.isEmpty { bytes[0] = 0x30 }
            _ = try? X509Certificate(der: bytes)
        }
    }

    private static func header(_ count: Int) -> [UInt8] {
        let length: [UInt8] =
            count < 0x80
            ? [UInt8(count)]
            : count < 0x100
                ? [0x81, UInt8(count)]
                : count < 0x10000
                    ? [0x82, UInt8(count >> 8), UInt8(count & 0xFF)]
                    : [0x83, UInt8(count >> 16), UInt8((count >> 8) & 0xFF), UInt8(count & 0xFF)]
        return [0x30] + length
    }
}
