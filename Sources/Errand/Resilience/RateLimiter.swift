import Foundation
import Synchronization

/// A token bucket, optionally strict: at most `rate` starts per second on average, with bursts of up to `burst`.
///
/// What it guarantees, exactly, for windows counted from any instant (a window [t, t + d) holds the starts at or
/// after t and before t + d):
/// - a plain bucket (``init(rate:burst:recoveryInterval:clock:)``) lets at most `rate × d + burst` callers pass
///   ``acquire()`` in any window of `d` seconds. A 1-second window can therefore hold `rate + burst` starts: 88 at
///   `rate: 80, burst: 8`, after a quiet period or at the start of a run. Use it when the average is what counts.
/// - a strict limiter (``init(limit:per:burst:recoveryInterval:clock:)``) keeps that bound and also never lets more than
///   `limit` pass in any window of its ``strictWindow``'s duration, bursts included. Use it when a server counts
///   requests per window (as The Met counts 80 per second): the number in the docs is then the number on the wire.
///
/// Both bounds concern the moments callers pass ``acquire()``; requests that the network delays unevenly can reach a
/// server closer together, so leave a margin (a slightly longer window) when the server's count is what matters.
///
/// Callers wait in arrival order (no newcomer overtakes a waiting caller); a caller whose task is cancelled leaves
/// the queue at once with ``ErrandError/cancelled``. One limiter can be shared by any number of tasks and clients:
/// share one instance to share one budget. Time is its ``clock``'s: the real monotonic clock unless it was made with
/// another (a test's manual clock), whichever clients share it.
///
/// After the server answers 429, ``slowDown(retryAfter:)`` halves the rate (to 1/16 at worst), drops the saved
/// burst and, when the server said how long, admits no one until then; the rate then doubles back every
/// ``recoveryInterval`` until it is whole again. ``RateLimitMiddleware`` does this by itself. A strict window stays
/// as it is.
///
/// ```swift
/// let average = RateLimiter(rate: 80, burst: 10)
/// let strict = RateLimiter(limit: 80, per: .seconds(1), burst: 8)   // never 81 in any second
/// try await strict.acquire()   // then start the request
/// ```
public final class RateLimiter: Sendable {
    /// The configured rate, in starts per second.
    public let rate: Double
    /// How many starts may happen at once after a quiet period (the bucket's size).
    public let burst: Int
    /// How long after a slowdown the rate takes to double back.
    public let recoveryInterval: Duration
    /// The strict limit on starts per window, or `nil` for a plain token bucket.
    public let strictWindow: RateWindow?

    private struct State {
        var tokens: Double
        var updated: Duration
        var waiters = WaiterQueue()
        var isDraining = false
        var pausedUntil: Duration?
        var slowdownFactor = 1.0
        var slowedAt: Duration?
        var log: StartLog?
    }

    private let state: Mutex<State>
    private let timeline: Timeline

    /// The clock the limiter reads and waits on.
    public var clock: any Clock<Duration> { timeline.clock }

    /// Creates a limiter with a full bucket.
    ///
    /// - Parameters:
    ///   - rate: starts per second, within ``supportedRates`` (one a day to a billion a second): a finite rate
    ///     above it counts as the highest; one below it, NaN or infinity makes ``acquire()`` throw
    ///     ``ErrandError/invalidRequest(_:)``.
    ///   - burst: the bucket's size, at least 1 (smaller values count as 1).
    ///   - recoveryInterval: how long the rate takes to double back after a 429. Default 5 seconds.
    ///   - clock: the clock it reads and waits on; a test passes a manual one. Default `ContinuousClock()`.
    public convenience init(
        rate: Double, burst: Int = 1, recoveryInterval: Duration = .seconds(5),
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.init(rate: rate, burst: burst, window: nil, recoveryInterval: recoveryInterval, clock: clock)
    }

    /// Creates a strict limiter: never more than `limit` starts in any window of `window`, on a bucket of `burst`
    /// that refills at `limit` per `window`.
    ///
    /// `RateLimiter(limit: 80, per: .seconds(1), burst: 8)` lets 8 start at once, then one every 12.5 ms, and holds
    /// back whoever would be the 81st start within one second, so a long run averages 80 per second and no second
    /// ever holds more.
    ///
    /// - Parameters:
    ///   - limit: the most starts in any one window; at least 1 (otherwise ``acquire()`` throws
    ///     ``ErrandError/invalidRequest(_:)``).
    ///   - window: how long a window is; positive and at most a day (otherwise ``acquire()`` throws).
    ///   - burst: the bucket's size, at least 1; the window caps it at `limit` in effect.
    ///   - recoveryInterval: how long the rate takes to double back after a 429. Default 5 seconds.
    ///   - clock: the clock it reads and waits on; a test passes a manual one. Default `ContinuousClock()`.
    public convenience init(
        limit: Int, per window: Duration, burst: Int = 1, recoveryInterval: Duration = .seconds(5),
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        let strict = RateWindow(limit: limit, duration: window)
        let rate = strict.problem == nil ? Double(limit) / window.seconds : 0
        self.init(rate: rate, burst: burst, window: strict, recoveryInterval: recoveryInterval, clock: clock)
    }

    /// The rates a limiter keeps, in starts per second: from one a day (a wait longer than a day is no rate limit
    /// but a stop) to a billion a second (far above what any transport starts, so the same as no limit).
    public static let supportedRates: ClosedRange<Double> = (1.0 / 86_400)...1e9

    private init(
        rate: Double, burst: Int, window: RateWindow?, recoveryInterval: Duration, clock: any Clock<Duration>
    ) {
        // A finite rate above the highest supported is the same as the highest; below the lowest, NaN or infinite,
        // acquire() refuses.
        self.rate = rate.isFinite && rate > Self.supportedRates.upperBound ? Self.supportedRates.upperBound : rate
        self.burst = max(burst, 1)
        self.recoveryInterval = recoveryInterval
        strictWindow = window
        timeline = Timeline(clock)
        var initial = State(tokens: Double(max(burst, 1)), updated: timeline.now)
        initial.log = window.map(StartLog.init)
        state = Mutex(initial)
    }

    /// The rate in force now: lower than ``rate`` for a while after a slowdown.
    public var currentRate: Double {
        let now = timeline.now
        return state.withLock { rate * factor(of: $0, at: now) }
    }

    /// How many callers are waiting for a turn.
    public var waitingCount: Int { state.withLock { $0.waiters.count } }

    /// Waits for a turn to start a request.
    ///
    /// Returns at once while the bucket has tokens, the strict window has room and nobody is waiting. Throws
    /// ``ErrandError/cancelled`` when the task is cancelled while waiting, and ``ErrandError/invalidRequest(_:)`` when
    /// the limiter's rate is not a positive number or its window cannot be kept.
    public func acquire() async throws(ErrandError) {
        if let problem = strictWindow?.problem { throw .invalidRequest(problem) }
        guard Self.supportedRates.contains(rate) else {
            throw .invalidRequest(
                "a rate limiter's rate must be a number of requests per second from one a day (1/86400) to a billion, not \(rate)."
            )
        }
        let now = timeline.now
        let ticket: UInt64? = state.withLock { state in
            refill(&state, at: now)
            if state.waiters.isEmpty, !isPaused(state, at: now), state.tokens >= 1, windowHasRoom(&state, at: now) {
                take(&state, at: now)
                return nil
            }
            return state.waiters.makeTicket()
        }
        guard let ticket else { return }
        do {
            try await wait(ticket)
        } catch {
            throw .cancelled
        }
    }

    /// Lowers the rate after the server said 429, and pauses every start until `retryAfter` has passed.
    public func slowDown(retryAfter: Duration? = nil) {
        let now = timeline.now
        state.withLock { state in
            refill(&state, at: now)
            state.slowdownFactor = max(factor(of: state, at: now) / 2, 1.0 / 16)
            state.slowedAt = now
            state.tokens = min(state.tokens, 0)
            if let retryAfter, retryAfter > .zero {
                state.pausedUntil = max(state.pausedUntil ?? now, now + retryAfter)
            }
        }
    }

    // MARK: Waiting

    private func wait(_ ticket: UInt64) async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: WaiterQueue.Continuation) in
                let startsDrain: Bool = state.withLock { state in
                    // Checked under the lock that the cancellation handler also takes: either the handler finds this
                    // waiter in the queue, or this sees the task already cancelled.
                    if Task.isCancelled {
                        continuation.resume(throwing: CancellationError())
                        return false
                    }
                    state.waiters.append(ticket, continuation)
                    guard !state.isDraining else { return false }
                    state.isDraining = true
                    return true
                }
                if startsDrain {
                    Task { await self.drain() }
                }
            }
        } onCancel: {
            state.withLock { $0.waiters.remove(ticket) }?.resume(throwing: CancellationError())
        }
    }

    /// Lets waiters through as tokens arrive, in order, until the queue is empty.
    private func drain() async {
        while true {
            let now = timeline.now
            var admitted: [WaiterQueue.Continuation] = []
            let pause: Duration? = state.withLock { state in
                refill(&state, at: now)
                if !isPaused(state, at: now) {
                    while state.tokens >= 1, windowHasRoom(&state, at: now), let waiter = state.waiters.popFirst() {
                        take(&state, at: now)
                        admitted.append(waiter)
                    }
                }
                if state.waiters.isEmpty {
                    state.isDraining = false
                    return nil
                }
                if let until = state.pausedUntil, until > now { return until - now }
                let currentRate = rate * factor(of: state, at: now)
                let forToken = Duration.seconds(max(0, 1 - state.tokens) / currentRate)
                let forWindow = (state.log?.nextOpening(at: now) ?? now) - now
                return max(forToken, forWindow)
            }
            for waiter in admitted { waiter.resume() }
            guard let pause else { return }
            // The drain is the limiter's own task, never cancelled: a sleep ends only when the time has come.
            try? await timeline.sleep(until: now + max(pause, .microseconds(100)))
        }
    }

    // MARK: The bucket

    private func refill(_ state: inout State, at now: Duration) {
        var from = state.updated
        if let until = state.pausedUntil {
            guard now >= until else {
                state.updated = now
                return
            }
            // No tokens accrue while paused.
            from = max(from, until)
            state.pausedUntil = nil
        }
        state.updated = now
        guard now > from else { return }
        let added = (now - from).seconds * rate * factor(of: state, at: now)
        state.tokens = min(state.tokens + added, Double(burst))
    }

    /// Whether the strict window, if any, lets one more start happen now.
    private func windowHasRoom(_ state: inout State, at now: Duration) -> Bool {
        // Mutated in place through the optional, so the log's array is never copied.
        (state.log?.nextOpening(at: now) ?? now) <= now
    }

    /// Spends a token on a start now and records it in the window.
    private func take(_ state: inout State, at now: Duration) {
        state.tokens -= 1
        state.log?.record(now)
    }

    private func isPaused(_ state: State, at now: Duration) -> Bool {
        state.pausedUntil.map { now < $0 } ?? false
    }

    /// The share of the rate in force: halved by each slowdown, doubling back every recovery interval.
    private func factor(of state: State, at now: Duration) -> Double {
        guard let slowedAt = state.slowedAt, state.slowdownFactor < 1 else { return 1 }
        let periods = (now - slowedAt).seconds / max(recoveryInterval.seconds, 0.001)
        return min(1, state.slowdownFactor * Double.exponentTwo(periods))
    }
}

extension Double {
    /// 2 raised to `power`.
    fileprivate static func exponentTwo(_ power: Double) -> Double {
        power > 1_000 ? .infinity : Foundation.pow(2, power)
    }
}
