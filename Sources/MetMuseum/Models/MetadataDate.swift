import Foundation

/// The Met's timestamps, as `2021-04-06T04:41:04.967Z`: UTC, with one to three fractional digits (the service
/// drops trailing zeros), which `ISO8601DateFormatter` does not read reliably on every platform.
enum MetadataDate {
    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        return calendar
    }()

    /// Reads `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, every field its fixed number of ASCII digits, the year
    /// 0001–9999, the fraction one to nine digits and the offset within ±23:59; `nil` for anything else.
    static func parse(_ text: String) -> Date? {
        var scanner = DigitScanner(Array(text.utf8))
        guard let year = scanner.number(digits: 4), scanner.skip("-"), let month = scanner.number(digits: 2),
            scanner.skip("-"), let day = scanner.number(digits: 2), scanner.skip("T"),
            let hour = scanner.number(digits: 2), scanner.skip(":"), let minute = scanner.number(digits: 2),
            scanner.skip(":"), let second = scanner.number(digits: 2), year >= 1
        else { return nil }
        var fraction = 0.0
        if scanner.skip(".") {
            var scale = 0.1
            var count = 0
            while let digit = scanner.digit() {
                fraction += Double(digit) * scale
                scale /= 10
                count += 1
            }
            guard (1...9).contains(count) else { return nil }
        }
        var offset = 0
        if !scanner.skip("Z") {
            let sign = scanner.skip("+") ? 1 : scanner.skip("-") ? -1 : 0
            guard sign != 0, let hours = scanner.number(digits: 2), scanner.skip(":"),
                let minutes = scanner.number(digits: 2), hours < 24, minutes < 60
            else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        }
        guard scanner.isAtEnd else { return nil }
        let components = DateComponents(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard components.isValidDate(in: calendar), let date = calendar.date(from: components) else { return nil }
        let result = date.addingTimeInterval(fraction - Double(offset))
        // What ``format(_:)`` writes must read back: no year outside 0001–9999 once the offset and rounding apply.
        let milliseconds = (result.timeIntervalSince1970 * 1000).rounded()
        guard (firstMillisecond...lastMillisecond).contains(milliseconds) else { return nil }
        return result
    }

    /// 0001-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z in milliseconds since 1970, in ``calendar``.
    private static let firstMillisecond = milliseconds(DateComponents(year: 1, month: 1, day: 1))
    private static let lastMillisecond =
        milliseconds(DateComponents(year: 9999, month: 12, day: 31, hour: 23, minute: 59, second: 59)) + 999

    private static func milliseconds(_ components: DateComponents) -> Double {
        (calendar.date(from: components)?.timeIntervalSince1970 ?? 0) * 1000
    }

    /// Writes the Met's form with three fractional digits, as `2021-04-06T04:41:04.967Z`.
    static func format(_ date: Date) -> String {
        let milliseconds = Int((date.timeIntervalSince1970 * 1000).rounded())
        let whole = Date(timeIntervalSince1970: Double(milliseconds.floorDivided(by: 1000)))
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: whole)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0,
            parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0, milliseconds.floorModulo(1000))
    }

    /// The UTC day of a date as `YYYY-MM-DD`, the form the object list's `metadataDate` filter takes.
    static func day(_ date: Date) -> String {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }
}

/// Reads a timestamp's ASCII digits and separators from the front.
private struct DigitScanner {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { position == bytes.count }

    /// The next byte's value when it is a digit, consuming it.
    mutating func digit() -> Int? {
        guard position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) else {
            return nil
        }
        defer { position += 1 }
        return Int(bytes[position] - UInt8(ascii: "0"))
    }

    /// Exactly `digits` digits as a number, or `nil` (consuming what it read).
    mutating func number(digits: Int) -> Int? {
        var value = 0
        for _ in 0..<digits {
            guard let digit = digit() else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    /// Consumes `separator` when it comes next.
    mutating func skip(_ separator: Unicode.Scalar) -> Bool {
        guard position < bytes.count, bytes[position] == UInt8(ascii: separator) else { return false }
        position += 1
        return true
    }
}

extension Int {
    fileprivate func floorDivided(by divisor: Int) -> Int {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }

    fileprivate func floorModulo(_ divisor: Int) -> Int {
        let remainder = self % divisor
        return remainder < 0 ? remainder + divisor : remainder
    }
}
