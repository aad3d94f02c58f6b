import Errand

extension MetClient {
    /// The Met's published limit, in requests per second; going above it brings the bot-protection page.
    public static let publishedRateLimit = 80.0

    /// How much longer than its nominal span a budget's window is, so that requests the network delays unevenly
    /// still reach the Met within the limit.
    ///
    /// A budget counts requests as they leave the client; the Met counts them as they arrive. With windows 100 ms
    /// longer than a second, requests whose delays on the way (a transport's queue for a connection included) differ
    /// by up to 100 ms still arrive at most 80 within any second; on Linux, URLSession has been measured delaying some
    /// requests by almost that much on a busy machine. The cost is a long-run rate of 80 per 1.1 s, about 73 per
    /// second.
    public static let deliveryAllowance: Duration = .milliseconds(100)

    /// A new budget holding the Met's published limit: ``budget(rate:clock:)`` at ``publishedRateLimit``.
    ///
    /// Never more than 80 requests start in any window of 1.1 s (the first second of a run and the second after a
    /// pause included); 8 may start together, then one every 14 ms or so. A fetch of 400 objects takes about 5.4 s.
    /// `clock` is the one the budget reads and waits on (a test passes a manual one); default `ContinuousClock()`.
    public static func defaultBudget(clock: any Clock<Duration> = ContinuousClock()) -> RateLimiter {
        budget(rate: publishedRateLimit, clock: clock)
    }

    /// A new strict budget of `rate` requests per second, kept in every window, not only on average.
    ///
    /// For `rate` of at least 1: never more than ⌊rate⌋ starts in any window of ⌊rate⌋ / rate seconds plus
    /// ``deliveryAllowance`` — for a whole number, never more than `rate` in any second even as the server counts
    /// them. Below 1: never more than one start in any 1 / rate seconds (plus the allowance). A tenth of a second's
    /// worth of requests may start together (``burst(for:)``). A rate that is not a positive number makes every wait
    /// throw ``/Errand/ErrandError/invalidRequest(_:)``. The budget reads and waits on `clock`; default
    /// `ContinuousClock()`.
    public static func budget(rate: Double, clock: any Clock<Duration> = ContinuousClock()) -> RateLimiter {
        guard rate.isFinite, rate > 0 else { return RateLimiter(rate: rate, clock: clock) }
        // Capped so that the count fits an Int; no server publishes a limit anywhere near it.
        let limit = Int(min(max(rate.rounded(.down), 1), 1e9))
        let span = Duration.seconds(Double(limit) / rate) + deliveryAllowance
        return RateLimiter(limit: limit, per: span, burst: min(burst(for: rate), limit), clock: clock)
    }

    /// The burst a fetch at `rate` allows: a tenth of a second's worth of requests (at least one) may start
    /// together.
    public static func burst(for rate: Double) -> Int {
        guard rate.isFinite, rate > 0 else { return 1 }
        return Int(min(max(1, rate / 10), 1e9))
    }
}
