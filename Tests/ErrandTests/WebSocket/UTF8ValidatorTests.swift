import Foundation
import Testing

@testable import Errand

@Suite("UTF-8 validation across fragments")
struct UTF8ValidatorTests {
    @Test(
        "invalid sequences are refused",
        arguments: [
            [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xF0, 0x80, 0x80, 0xAF],  // overlong
            [0xED, 0xA0, 0x80],  // a surrogate
            [0xF4, 0x90, 0x80, 0x80],  // past U+10FFFF
            [0xFF], [0x80], [0xCE, 0x41],
        ] as [[UInt8]])
    func refuses(bytes: [UInt8]) {
        var validator = UTF8Validator()
        let accepted = validator.consume(bytes)
        #expect(!accepted)
    }

    @Test("a character cut between fragments is valid once whole, and incomplete before")
    func splitCharacter() {
        var validator = UTF8Validator()
        let first = validator.consume([0xCE, 0xBA, 0xE1, 0xBD])
        #expect(first)
        #expect(!validator.isComplete)
        let second = validator.consume([0xB9])
        #expect(second)
        #expect(validator.isComplete)
    }

    @Test("agrees with the standard library on random bytes cut at random places")
    func agreesWithStandardLibrary() {
        var generator = SplitMix(seed: 6455)
        for _ in 0..<5_000 {
            let count = Int.random(in: 0...12, using: &generator)
            // Bias toward UTF-8's lead and continuation bytes, where the edge cases are.
            let bytes = (0..<count).map { _ in
                [
                    UInt8.random(in: 0x80...0xBF, using: &generator), UInt8.random(in: 0xC0...0xFF, using: &generator),
                    UInt8.random(in: 0...0x7F, using: &generator),
                ].randomElement(using: &generator)!
            }
            let cut = Int.random(in: 0...count, using: &generator)
            var validator = UTF8Validator()
            validator.consume(bytes[..<cut])
            validator.consume(bytes[cut...])
            let expected = String(validating: bytes, as: UTF8.self) != nil
            #expect(validator.isComplete == expected, "\(bytes.map { String($0, radix: 16) })")
        }
    }
}

/// A seeded generator, so that a failure repeats.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
