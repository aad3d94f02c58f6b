/// Whole numbers a server writes as ASCII digits (`Content-Length`, `Retry-After`, an event stream's `retry:`), read
/// so that none can reach arithmetic that traps.
///
/// Each is clamped where it is parsed, to a bound its reader names: a number of any length saturates at the bound
/// instead of overflowing, or of being read as "absent" and so taking another code path than a large one.
enum ServerNumber {
    /// `1*DIGIT` as a number within `0...limit` (larger values, of any length, are `limit`); `nil` when `digits` is
    /// empty or holds anything but ASCII digits (no sign, no space, no fraction). A negative `limit` counts as zero.
    static func digits<Digits: Sequence<UInt8>>(_ digits: Digits, clampedTo limit: Int64) -> Int64? {
        let limit = max(limit, 0)
        var value: Int64 = 0
        var count = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            count += 1
            // Once at the limit, the rest only has to be digits.
            guard value < limit else { continue }
            let digit = Int64(byte - UInt8(ascii: "0"))
            let (shifted, overflowed) = value.multipliedReportingOverflow(by: 10)
            value = overflowed || shifted > limit - digit ? limit : shifted + digit
        }
        return count > 0 ? value : nil
    }
}
