import Foundation

/// The `Retry-After` response header (RFC 9110 §10.2.3): a number of seconds, or an HTTP-date.
public enum RetryAfter {
    /// How long the header asks to wait, counted from `now`; `nil` when absent or unreadable. A date in the past
    /// means no wait.
    public static func delay(in headers: HTTPHeaders, now: Date = Date()) -> Duration? {
        guard let value = headers["Retry-After"] else { return nil }
        return delay(parsing: value, now: now)
    }

    /// How long a `Retry-After` value asks to wait, counted from `now`; `nil` when it is neither form.
    public static func delay(parsing value: String, now: Date = Date()) -> Duration? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(trimmed) {
            return seconds >= 0 ? .seconds(seconds) : nil
        }
        guard let date = HTTPDate.parse(trimmed) else { return nil }
        let interval = date.timeIntervalSince(now)
        return interval > 0 ? .milliseconds(Int64((interval * 1000).rounded(.up))) : .zero
    }
}

/// Parses the three date forms HTTP allows (RFC 9110 §5.6.7): IMF-fixdate, RFC 850 and asctime. All are GMT.
enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    static func parse(_ text: String) -> Date? {
        let tokens = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "-" }).map(String.init)
        let day: Int?, month: Int?, year: Int?, time: String
        switch tokens.count {
        case 6 where tokens[5].uppercased() == "GMT":
            // "Sun, 06 Nov 1994 08:49:37 GMT" or "Sunday, 06-Nov-94 08:49:37 GMT"
            day = Int(tokens[1])
            month = monthNumber(tokens[2])
            year = Int(tokens[3]).map { tokens[3].count == 2 ? ($0 < 70 ? 2000 + $0 : 1900 + $0) : $0 }
            time = tokens[4]
        case 5:
            // "Sun Nov  6 08:49:37 1994"
            month = monthNumber(tokens[1])
            day = Int(tokens[2])
            year = Int(tokens[4])
            time = tokens[3]
        default:
            return nil
        }
        let clock = time.split(separator: ":").compactMap { Int($0) }
        guard let day, let month, let year, clock.count == 3, (1...31).contains(day), (0...23).contains(clock[0]),
            (0...59).contains(clock[1]), (0...60).contains(clock[2])
        else { return nil }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + clock[0] * 3_600 + clock[1] * 60 + clock[2]
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    private static func monthNumber(_ name: String) -> Int? {
        months.firstIndex(of: name.lowercased()).map { $0 + 1 }
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar, counting years from March so that the
    /// leap day falls at the end of a year.
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let monthFromMarch = (month + 9) % 12
        let dayOfYear = (153 * monthFromMarch + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
