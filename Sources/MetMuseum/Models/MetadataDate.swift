import Foundation

/// The Met's timestamps, as `2021-04-06T04:41:04.967Z`: UTC, with one to three fractional digits (the service
/// drops trailing zeros), which `ISO8601DateFormatter` does not read reliably on every platform.
enum MetadataDate {
    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        return calendar
    }()

    /// Reads `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`; `nil` for anything else.
    static func parse(_ text: String) -> Date? {
        let parts = text.split(separator: "T", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        let day = parts[0].split(separator: "-").compactMap { Int($0) }
        guard day.count == 3 else { return nil }
        var clock = Substring(parts[1])
        var offset = 0
        if clock.hasSuffix("Z") {
            clock = clock.dropLast()
        } else if let sign = clock.lastIndex(where: { $0 == "+" || $0 == "-" }) {
            let zone = clock[clock.index(after: sign)...].split(separator: ":").compactMap { Int($0) }
            guard zone.count == 2 else { return nil }
            offset = (zone[0] * 3600 + zone[1] * 60) * (clock[sign] == "-" ? -1 : 1)
            clock = clock[..<sign]
        }
        let secondsParts = clock.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let time = secondsParts[0].split(separator: ":").compactMap { Int($0) }
        guard time.count == 3 else { return nil }
        var fraction = 0.0
        if secondsParts.count == 2 {
            guard !secondsParts[1].isEmpty, secondsParts[1].allSatisfy(\.isASCII),
                let value = Double("0." + secondsParts[1])
            else { return nil }
            fraction = value
        }
        let components = DateComponents(
            year: day[0], month: day[1], day: day[2], hour: time[0], minute: time[1], second: time[2])
        guard components.isValidDate(in: calendar), let date = calendar.date(from: components) else { return nil }
        return date.addingTimeInterval(fraction - Double(offset))
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
