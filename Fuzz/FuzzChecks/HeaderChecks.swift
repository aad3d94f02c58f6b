import Foundation
@testable import Errand

/// The response-header parsers' promises, checked on arbitrary field values: never a crash, and answers a cache can
/// act on (no negative lifetimes or delays, ages a response header can carry, keys that are stable).
///
/// Input: lines of `Name: value` (a line without a colon is a bare value given to every parser).
enum HeaderChecks {
    /// A fixed "now", so that a failure replays the same way.
    private static let now = Date(timeIntervalSince1970: 1_700_000_000)

    static func check(_ input: FuzzInput) -> Violations {
        let lines = input.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var headers = HTTPHeaders()
        var values: [String] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else {
                values.append(line)
                continue
            }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers.add(name: String(line[..<colon]), value: value)
            values.append(value)
        }
        var violations: Violations = []
        violations += cacheControlViolations(values)
        for value in values {
            violations += retryAfterViolations(value)
            violations += httpDateViolations(value)
        }
        violations += varyViolations(headers, values: values)
        violations += cachedResponseViolations(headers)
        for value in values { violations += cacheKeyViolations(value) }
        return violations
    }

    private static func cacheControlViolations(_ values: [String]) -> Violations {
        let control = CacheControl(values: values)
        var violations: Violations = []
        if let maxAge = control.maxAge, maxAge < 0 { violations.append("negative max-age \(maxAge)") }
        if let stale = control.staleIfError, stale < 0 { violations.append("negative stale-if-error \(stale)") }
        for value in values {
            // Directive names are ASCII tokens: lower-casing is ASCII-only, other bytes pass through as they came.
            for directive in CacheControl.directives(in: value)
            where directive.name.utf8.contains(where: { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) {
                violations.append("directive name \(directive.name) not lower-cased")
            }
        }
        return violations
    }

    private static func retryAfterViolations(_ value: String) -> Violations {
        guard let delay = RetryAfter.delay(parsing: value, now: now) else { return [] }
        return delay < .zero ? ["Retry-After \(value.debugDescription) gave a negative delay \(delay)"] : []
    }

    /// A parsed date formats back to an IMF-fixdate that parses to the same instant, and names that instant in any
    /// case of its letters.
    private static func httpDateViolations(_ value: String) -> Violations {
        guard let date = HTTPDate.parse(value) else { return [] }
        guard date.timeIntervalSince1970.isFinite else { return ["HTTP date \(value.debugDescription) is not finite"] }
        guard HTTPDate.parse(value.uppercased()) == date, HTTPDate.parse(value.lowercased()) == date else {
            return ["HTTP date \(value.debugDescription) names another instant in another case"]
        }
        let formatted = imfFixdate(date)
        guard let again = HTTPDate.parse(formatted), again == date else {
            return ["HTTP date \(value.debugDescription) → \(formatted) does not parse back to the same instant"]
        }
        return []
    }

    private static func varyViolations(_ headers: HTTPHeaders, values: [String]) -> Violations {
        var vary = HTTPHeaders()
        for value in values { vary.add(name: "Vary", value: value) }
        let names = CacheKey.varyNames(vary)
        var violations: Violations = []
        if names.contains("*") && names != ["*"] { violations.append("Vary names \(names) mix * with fields") }
        if names != names.sorted() || Set(names).count != names.count {
            violations.append("Vary names \(names) not sorted and unique")
        }
        if names.contains(where: {
            $0.isEmpty || $0 != $0.lowercased() || $0.trimmingCharacters(in: .whitespaces) != $0
        }) {
            violations.append("Vary names \(names) not trimmed lower-case")
        }
        let variant = CacheKey.variant(names: names, requestHeaders: headers)
        if variant != CacheKey.variant(names: names, requestHeaders: headers) {
            violations.append("variant not stable")
        }
        return violations
    }

    /// A stored response built from these headers has finite, non-negative freshness figures, and the `Age` the cache
    /// would serve it with is a whole number of seconds, even a year on, or for a clock set far into the past.
    private static func cachedResponseViolations(_ headers: HTTPHeaders) -> Violations {
        let entry = CachedResponse(
            url: "https://example.com/", variant: "", status: 200, headers: headers, body: Data(),
            requestTime: now.addingTimeInterval(-1), responseTime: now)
        var violations: Violations = []
        if let lifetime = entry.explicitLifetime, !(lifetime >= 0 && lifetime.isFinite) {
            violations.append("explicit lifetime \(lifetime)")
        }
        if !(entry.heuristicLifetime >= 0 && entry.heuristicLifetime.isFinite) {
            violations.append("heuristic lifetime \(entry.heuristicLifetime)")
        }
        for later in [now, now.addingTimeInterval(365 * 86_400), Date.distantPast, Date.distantFuture] {
            let age = entry.age(at: later)
            if !(age >= 0 && age.isFinite) { violations.append("age \(age) at \(later)") }
            if Int(entry.ageHeaderValue(at: later)) == nil {
                violations.append("Age header \(entry.ageHeaderValue(at: later))")
            }
        }
        return violations
    }

    /// The primary key of a URL is its own primary key (normalizing twice changes nothing).
    private static func cacheKeyViolations(_ value: String) -> Violations {
        guard let url = URL(string: value) else { return [] }
        let key = CacheKey.primary(url)
        guard let again = URL(string: key) else { return [] }
        let twice = CacheKey.primary(again)
        return twice == key ? [] : ["cache key of \(value.debugDescription) is \(key) once and \(twice) twice"]
    }

    /// Formats with the proleptic Gregorian calendar, as HTTP dates use (Foundation's switches to Julian before 1582).
    private static func imfFixdate(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let clock = seconds - days * 86_400
        // Days to civil date (the inverse of HTTPDate's days-from-civil).
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let weekday = weekdays[((days % 7) + 11) % 7]
        return "\(weekday), \(padded(day, 2)) \(months[month - 1]) \(padded(year, 4)) "
            + "\(padded(clock / 3_600, 2)):\(padded(clock % 3_600 / 60, 2)):\(padded(clock % 60, 2)) GMT"
    }
}
