@testable import Errand
import Foundation
import Testing

/// Numbers a server writes reach no arithmetic that traps: each is clamped where it is parsed.
@Suite("Security: server-controlled numbers are clamped where they are parsed")
struct ServerNumberTests {
    @Test(
        "digits of any length saturate at the bound; signs, spaces, fractions and nothing are no number",
        arguments: [
            ("0", 0), ("42", 42), ("1000", 1_000), ("1001", 1_000), ("9223372036854775807", 1_000),
            (String(repeating: "9", count: 1_000), 1_000), ("00000000000000000000000000042", 42),
        ] as [(String, Int64?)])
    func saturates(text: String, expected: Int64?) {
        #expect(ServerNumber.digits(text.utf8, clampedTo: 1_000) == expected)
    }

    @Test("anything but ASCII digits is no number", arguments: ["", "+5", "-5", " 5", "5 ", "1.5", "1e3", "٣", "0x10"])
    func refuses(text: String) {
        #expect(ServerNumber.digits(text.utf8, clampedTo: .max) == nil)
    }

    @Test("the bound itself and the largest Int64 are reached exactly, without overflow")
    func bounds() {
        #expect(ServerNumber.digits("9223372036854775807".utf8, clampedTo: .max) == .max)
        #expect(ServerNumber.digits("9223372036854775808".utf8, clampedTo: .max) == .max)
        #expect(ServerNumber.digits("99999999999999999999".utf8, clampedTo: .max) == .max)
        #expect(ServerNumber.digits("5".utf8, clampedTo: -1) == 0)
    }

    @Test(
        "Retry-After: seconds of any length and dates centuries ahead count as a week at most",
        arguments: [
            ("9223372036854775807", RetryAfter.longest), (String(repeating: "9", count: 300), RetryAfter.longest),
            ("604801", RetryAfter.longest), ("120", .seconds(120)), ("0", .zero),
            ("Fri, 31 Dec 9999 23:59:59 GMT", RetryAfter.longest),
        ] as [(String, Duration?)])
    func retryAfterIsClamped(value: String, expected: Duration?) {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(RetryAfter.delay(parsing: value, now: now) == expected)
        #expect(RetryAfter.longest == .seconds(7 * 86_400))
    }

    @Test("Retry-After: a sign, a fraction or a clock that is not a number is no delay or no wait, never a trap")
    func retryAfterOddities() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(RetryAfter.delay(parsing: "+5", now: now) == nil)
        #expect(RetryAfter.delay(parsing: "-5", now: now) == nil)
        #expect(RetryAfter.delay(parsing: "1.5", now: now) == nil)
        #expect(
            RetryAfter.delay(parsing: "Fri, 31 Dec 9999 23:59:59 GMT", now: Date(timeIntervalSince1970: .nan)) == .zero)
        #expect(
            RetryAfter.delay(parsing: "Fri, 31 Dec 9999 23:59:59 GMT", now: .distantPast) == RetryAfter.longest)
    }
}
