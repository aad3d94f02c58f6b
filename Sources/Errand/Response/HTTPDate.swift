import Foundation

/// Parses HTTP dates (RFC 9110 §5.6.7): IMF-fixdate, and the obsolete RFC 850 and asctime forms recipients must accept.
///
/// Written by hand rather than with a date formatter: it runs for every stored response, must not depend on locale,
/// and must answer `nil` (never crash) on garbage.
enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// The date a field value names, or `nil` when it is not an HTTP date.
    static func parse(_ text: String) -> Date? {
        if let date = parseFixdate(text) { return date }
        let tokens = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "-" }).map(String.init)
        // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT  → [Sun, 06, Nov, 1994, 08:49:37, GMT]
        // RFC 850:     Sunday, 06-Nov-94 08:49:37 GMT → [Sunday, 06, Nov, 94, 08:49:37, GMT]
        // asctime:     Sun Nov  6 08:49:37 1994       → [Sun, Nov, 6, 08:49:37, 1994]
        if tokens.count == 6, tokens[5].uppercased() == "GMT" {
            guard var year = Int(tokens[3]) else { return nil }
            if tokens[3].count == 2 { year += year < 70 ? 2000 : 1900 }
            return make(year: year, month: tokens[2], day: tokens[1], time: tokens[4])
        }
        if tokens.count == 5, let year = Int(tokens[4]) {
            return make(year: year, month: tokens[1], day: tokens[2], time: tokens[3])
        }
        return nil
    }

    /// The common case, IMF-fixdate, read at fixed offsets: `Sun, 06 Nov 1994 08:49:37 GMT`.
    private static func parseFixdate(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 29, bytes[3] == UInt8(ascii: ","), bytes[26...28].elementsEqual("GMT".utf8) else {
            return nil
        }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        let month = String(decoding: bytes[8..<11], as: UTF8.self)
        guard let year = number(12..<16), let day = number(5..<7), let hour = number(17..<19),
            let minute = number(20..<22), let second = number(23..<25)
        else { return nil }
        return make(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    /// The slow path's fields: day and `hh:mm:ss` still as text.
    private static func make(year: Int, month: String, day: String, time: String) -> Date? {
        let parts = time.split(separator: ":").map { Int($0) }
        guard let day = Int(day), parts.count == 3, let hour = parts[0], let minute = parts[1], let second = parts[2]
        else { return nil }
        return make(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    private static func make(year: Int, month: String, day: Int, hour: Int, minute: Int, second: Int) -> Date? {
        guard let monthIndex = months.firstIndex(of: month.lowercased()), (1...31).contains(day),
            (1...9999).contains(year),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        let days = daysSinceEpoch(year: year, month: monthIndex + 1, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3_600 + minute * 60 + second))
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
}
