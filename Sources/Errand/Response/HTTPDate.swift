import Foundation

/// Parses HTTP dates (RFC 9110 §5.6.7): IMF-fixdate, and the two obsolete forms a recipient must accept, RFC 850
/// and asctime, each byte for byte as the grammar has it except for the case of the letters.
///
/// The day name, the month and `GMT` are read in any case (`THU`, `aug`, `gMT`), as every browser's cache reads
/// them: the letters still have to name a day, a month and GMT, so case decides no date the grammar leaves open.
/// Anything else is not a date: a two-digit year in IMF-fixdate, a missing comma, extra spaces, dashes where spaces
/// belong, a one-digit hour, dots in the time, a zone other than GMT (`UTC`), a 31st of April. A cache must treat an
/// `Expires` that does not parse as already expired, so leniency here would serve stale responses as fresh.
///
/// Written by hand rather than with a date formatter: it runs for every stored response, must not depend on locale,
/// and must answer `nil` (never crash) on garbage. The day name is checked to be one, not to match the date (the
/// RFC asks no more of a recipient).
enum HTTPDate {
    private static let months: [[UInt8]] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ].map { Array($0.utf8) }
    private static let shortDays: [[UInt8]] = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"].map { Array($0.utf8) }
    private static let longDays: [[UInt8]] = [
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
    ].map { Array($0.utf8) }

    /// The date a field value names, or `nil` when it is not an HTTP date.
    ///
    /// `now` settles the century of an RFC 850 date's two-digit year: a year more than 50 years ahead of `now` is
    /// the most recent past year with those digits (RFC 9110 §5.6.7).
    static func parse(_ text: String, now: Date = Date()) -> Date? {
        // Letters compared in one case: the grammar's letters are all ASCII, and a non-ASCII byte stays what it is.
        let bytes = text.utf8.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 | 0x20 : $0 }
        switch bytes.count {
        case 29: return fixdate(bytes)
        case 24: return asctime(bytes)
        default: return rfc850(bytes, now: now)
        }
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT`
    private static func fixdate(_ bytes: [UInt8]) -> Date? {
        guard shortDays.contains(where: { bytes[0..<3].elementsEqual($0) }), bytes[3] == comma, bytes[4] == space,
            bytes[7] == space, bytes[11] == space, bytes[16] == space, bytes[25] == space,
            bytes[26...28].elementsEqual("gmt".utf8),
            let day = digits(bytes[5..<7]), let month = month(bytes[8..<11]), let year = digits(bytes[12..<16]),
            let time = time(bytes[17..<25])
        else { return nil }
        return make(year: year, month: month, day: day, time: time)
    }

    /// `Sun Nov  6 08:49:37 1994` (the day is two digits, or a space and one digit)
    private static func asctime(_ bytes: [UInt8]) -> Date? {
        guard shortDays.contains(where: { bytes[0..<3].elementsEqual($0) }), bytes[3] == space, bytes[7] == space,
            bytes[10] == space, bytes[19] == space, let month = month(bytes[4..<7]),
            let day = bytes[8] == space ? digits(bytes[9..<10]) : digits(bytes[8..<10]),
            let time = time(bytes[11..<19]), let year = digits(bytes[20..<24])
        else { return nil }
        return make(year: year, month: month, day: day, time: time)
    }

    /// `Sunday, 06-Nov-94 08:49:37 GMT`
    private static func rfc850(_ bytes: [UInt8], now: Date) -> Date? {
        guard let name = longDays.first(where: { bytes.starts(with: $0) }) else { return nil }
        let rest = bytes[name.count...]
        let start = rest.startIndex
        guard rest.count == 24, rest[start] == comma, rest[start + 1] == space, rest[start + 4] == dash,
            rest[start + 8] == dash, rest[start + 11] == space, rest[start + 20] == space,
            rest[(start + 21)...].elementsEqual("gmt".utf8),
            let day = digits(rest[(start + 2)..<(start + 4)]), let month = month(rest[(start + 5)..<(start + 8)]),
            let twoDigits = digits(rest[(start + 9)..<(start + 11)]), let time = time(rest[(start + 12)..<(start + 20)])
        else { return nil }
        let currentYear = year(of: now)
        var year = currentYear - currentYear % 100 + twoDigits
        if year > currentYear + 50 { year -= 100 }
        return make(year: year, month: month, day: day, time: time)
    }

    /// The Gregorian year a date falls in, in UTC (the days-to-civil method, year part only).
    private static func year(of date: Date) -> Int {
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite, abs(seconds) < 1e15 else { return 2000 }
        let days = Int((seconds / 86_400).rounded(.down)) + 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        return yearOfEra + era * 400 + (monthIndex >= 10 ? 1 : 0)
    }

    /// `hh:mm:ss`, two digits each.
    private static func time(_ bytes: ArraySlice<UInt8>) -> (hour: Int, minute: Int, second: Int)? {
        let start = bytes.startIndex
        guard bytes[start + 2] == colon, bytes[start + 5] == colon, let hour = digits(bytes[start..<(start + 2)]),
            let minute = digits(bytes[(start + 3)..<(start + 5)]), let second = digits(bytes[(start + 6)..<(start + 8)])
        else { return nil }
        return (hour, minute, second)
    }

    /// 1 to 12 for a month's three letters, lower-cased.
    private static func month(_ bytes: ArraySlice<UInt8>) -> Int? {
        months.firstIndex { bytes.elementsEqual($0) }.map { $0 + 1 }
    }

    /// A run of ASCII digits as a number (at most four, so it cannot overflow).
    private static func digits(_ bytes: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for byte in bytes {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static func make(year: Int, month: Int, day: Int, time: (hour: Int, minute: Int, second: Int)) -> Date? {
        guard (1...9999).contains(year), (1...daysIn(month: month, year: year)).contains(day),
            (0...23).contains(time.hour), (0...59).contains(time.minute), (0...60).contains(time.second)
        else { return nil }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        return Date(
            timeIntervalSince1970: TimeInterval(days * 86_400 + time.hour * 3_600 + time.minute * 60 + time.second))
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (the civil-from-days method, inverted).
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static let space = UInt8(ascii: " ")
    private static let comma = UInt8(ascii: ",")
    private static let dash = UInt8(ascii: "-")
    private static let colon = UInt8(ascii: ":")
}
