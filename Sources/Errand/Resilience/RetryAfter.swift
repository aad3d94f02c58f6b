import Foundation

/// The `Retry-After` response header (RFC 9110 §10.2.3): a number of seconds, or an HTTP-date.
///
/// Whatever the server writes, the delay is between zero and ``longest``: a number of any length, or a date centuries
/// ahead, counts as ``longest``, so that no waiter adds a server's number to a clock and overflows.
public enum RetryAfter {
    /// The longest delay a `Retry-After` can ask for: a week (``Timeouts/longest``). A longer one counts as a week.
    public static let longest: Duration = Timeouts.longest

    /// How long the header asks to wait, counted from `now`; `nil` when absent or unreadable. A date in the past
    /// means no wait.
    public static func delay(in headers: HTTPHeaders, now: Date = Date()) -> Duration? {
        guard let value = headers["Retry-After"] else { return nil }
        return delay(parsing: value, now: now)
    }

    /// How long a `Retry-After` value asks to wait, counted from `now`, at most ``longest``; `nil` when it is
    /// neither form (delay-seconds is ASCII digits only: no sign, no fraction).
    public static func delay(parsing value: String, now: Date = Date()) -> Duration? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        let longestSeconds = longest.components.seconds
        if let seconds = ServerNumber.digits(trimmed.utf8, clampedTo: longestSeconds) {
            return .seconds(seconds)
        }
        guard let date = HTTPDate.parse(trimmed) else { return nil }
        let interval = date.timeIntervalSince(now)
        // `now` is the caller's clock (a manual one in tests): a NaN or an interval past the bound stays in range.
        guard interval > 0 else { return .zero }
        guard interval < Double(longestSeconds) else { return longest }
        return .milliseconds(Int64((interval * 1000).rounded(.up)))
    }
}
