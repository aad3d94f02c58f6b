import Foundation
@testable import Errand

/// The parsers of numbers a server writes (`Content-Length`, `Retry-After`, digits in general), checked on arbitrary
/// values: never a crash, never a number outside the reader's bound, and the exact value whenever it fits.
///
/// Input: NUL-separated field values, each given to every parser; the whole input also goes to the certificate reader.
enum NumberChecks {
    /// Fixed "now"s, so that a failure replays the same way: the epoch, a recent instant, and the far past and future.
    private static let nows = [
        Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1_700_000_000), .distantPast, .distantFuture,
    ]
    private static let limits: [Int64] = [0, 1, 999, 86_400_000, 1 << 62, .max]

    static func check(_ input: FuzzInput) -> Violations {
        var violations: Violations = []
        for value in input.fields {
            violations += digitViolations(value)
            violations += retryAfterViolations(value)
            violations += contentLengthViolations(value)
            violations += contentRangeViolations(value)
            violations += deltaSecondsViolations(value)
        }
        violations += derViolations(input.bytes)
        return violations
    }

    /// DER lengths are numbers a server writes too: the whole input as a certificate gives an error or a key that lies
    /// inside it and reads again as a certificate's key does.
    private static func derViolations(_ bytes: [UInt8]) -> Violations {
        guard let certificate = try? X509Certificate(der: bytes) else { return [] }
        let key = certificate.subjectPublicKeyInfo
        var reader = DERReader(key)
        guard let element = try? reader.next(DERReader.sequence), element.encoding == key.indices, reader.isAtEnd else {
            return ["the SubjectPublicKeyInfo of \(bytes.count) bytes is not one whole DER sequence"]
        }
        return key.count <= bytes.count ? [] : ["a SubjectPublicKeyInfo longer than its certificate"]
    }

    private static func digitViolations(_ value: String) -> Violations {
        let isDigits = !value.isEmpty && value.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        var violations: Violations = []
        for limit in limits {
            let parsed = ServerNumber.digits(value.utf8, clampedTo: limit)
            guard let parsed else {
                if isDigits { violations.append("\(value.debugDescription) is digits but gave no number") }
                continue
            }
            if !isDigits { violations.append("\(value.debugDescription) is not digits but gave \(parsed)") }
            if parsed < 0 || parsed > limit {
                violations.append("\(value.debugDescription) gave \(parsed) past \(limit)")
            }
            if let exact = Int64(value), parsed != min(exact, limit) {
                violations.append("\(value.debugDescription) gave \(parsed), not \(min(exact, limit)) (bound \(limit))")
            }
            if isDigits, Int64(value) == nil, parsed != limit {
                violations.append("\(value.debugDescription) overflows Int64 but gave \(parsed) below \(limit)")
            }
        }
        return violations
    }

    private static func retryAfterViolations(_ value: String) -> Violations {
        var violations: Violations = []
        for now in nows {
            guard let delay = RetryAfter.delay(parsing: value, now: now) else { continue }
            if delay < .zero || delay > RetryAfter.longest {
                violations.append("Retry-After \(value.debugDescription) at \(now) gave \(delay)")
            }
            // Whatever it says, a waiter can add it to a clock a week from its start without overflow.
            _ = Duration.seconds(Int64.max / 2) + delay
        }
        return violations
    }

    /// A download's `Content-Range`: whatever the text, positions in order, inside the total, within the bound.
    private static func contentRangeViolations(_ value: String) -> Violations {
        var violations: Violations = []
        for text in [value, "bytes " + value, "bytes \(value)-\(value)/\(value)", "bytes 0-\(value)/*"] {
            guard let range = ContentRange(text) else { continue }
            let numbers = [range.start, range.end, range.total].compactMap { $0 }
            if numbers.contains(where: { $0 < 0 || $0 > ContentRange.largestNumber }) {
                violations.append("Content-Range \(text.debugDescription) gave \(numbers) out of bounds")
            }
            if let start = range.start, let end = range.end, start > end {
                violations.append("Content-Range \(text.debugDescription) gave start \(start) after end \(end)")
            }
            if let end = range.end, let total = range.total, end >= total {
                violations.append("Content-Range \(text.debugDescription) gave end \(end) past total \(total)")
            }
            if (range.start == nil) != (range.end == nil) || (range.start == nil && range.total == nil) {
                violations.append("Content-Range \(text.debugDescription) gave a half range \(range)")
            }
        }
        return violations
    }

    /// The cache's delta-seconds (`Age`, `max-age`, `max-stale`…): digits only, saturating at the RFC's bound.
    private static func deltaSecondsViolations(_ value: String) -> Violations {
        let isDigits = !value.isEmpty && value.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        guard let seconds = CacheControl.deltaSeconds(value) else {
            return isDigits ? ["delta-seconds \(value.debugDescription) is digits but gave none"] : []
        }
        var violations: Violations = []
        if !isDigits { violations.append("delta-seconds \(value.debugDescription) is not digits but gave \(seconds)") }
        if seconds < 0 || seconds > CacheControl.largestDeltaSeconds {
            violations.append("delta-seconds \(value.debugDescription) gave \(seconds)")
        }
        if let exact = Int(value), exact <= CacheControl.largestDeltaSeconds, seconds != exact {
            violations.append("delta-seconds \(value.debugDescription) gave \(seconds), not \(exact)")
        }
        return violations
    }

    private static func contentLengthViolations(_ value: String) -> Violations {
        #if canImport(CCurl)
        var head = ResponseHead()
        let line = Array("Content-Length: \(value)\r\n".utf8)
        guard !line.dropLast(2).contains(where: { $0 == 0x0A || $0 == 0x0D }) else { return [] }
        _ = line.withUnsafeBytes { head.take(line: $0) }
        guard let length = head.contentLength else { return [] }
        if length < 0 || length > ResponseHead.largestContentLength {
            return ["Content-Length \(value.debugDescription) gave \(length)"]
        }
        #endif
        return []
    }
}
