/// A strict limit on starts: never more than `limit` in any span of time `duration` long.
///
/// A ``RateLimiter`` made with ``RateLimiter/init(limit:per:burst:recoveryInterval:clock:)`` keeps it, whatever its burst:
/// a window is counted from any instant, not from the top of a second, so the first second of a run and the second
/// after an idle pause hold no more than any other.
public struct RateWindow: Sendable, Hashable {
    /// The most starts in any one window.
    public let limit: Int
    /// How long a window is.
    public let duration: Duration

    /// Creates a window; a `limit` below 1, or a `duration` that is not positive or is longer than a day, makes the
    /// limiter refuse every caller with ``ErrandError/invalidRequest(_:)``.
    public init(limit: Int, duration: Duration) {
        self.limit = limit
        self.duration = duration
    }

    /// Why this window cannot be kept, or `nil` when it can.
    var problem: String? {
        if limit < 1 { return "a rate window must allow at least one start, not \(limit)." }
        if duration <= .zero { return "a rate window must last longer than zero, not \(duration)." }
        if duration > .seconds(86_400) { return "a rate window must last at most a day, not \(duration)." }
        return nil
    }
}

/// The starts of the last window, oldest first: what a strict ``RateLimiter`` checks before letting anyone start.
///
/// Holds at most `limit` instants (older ones are dropped as they leave the window), however long the run.
struct StartLog {
    let window: RateWindow
    private var starts: [Duration] = []
    private var head = 0

    init(window: RateWindow) {
        self.window = window
    }

    /// When the next start may happen: `now` while the last window holds fewer than `limit` starts, else the moment
    /// its oldest start leaves it.
    mutating func nextOpening(at now: Duration) -> Duration {
        // A start at `s` counts in every window [t, t + duration) with t ≤ s; it is out of the window ending now once
        // s + duration ≤ now.
        while head < starts.count, starts[head] + window.duration <= now { head += 1 }
        compact()
        guard starts.count - head >= window.limit else { return now }
        return starts[head] + window.duration
    }

    /// Records a start; the caller has checked ``nextOpening(at:)`` first.
    mutating func record(_ instant: Duration) {
        starts.append(instant)
    }

    /// Drops the instants already left behind now and then, so the array stays near `limit` long.
    private mutating func compact() {
        guard head > 64, head * 2 > starts.count else { return }
        starts.removeFirst(head)
        head = 0
    }
}
