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
