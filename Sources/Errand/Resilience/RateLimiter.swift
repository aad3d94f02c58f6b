import Foundation
import Synchronization

/// A token bucket: at most `rate` starts per second on average, with bursts of up to `burst`.
///
/// In any window of `t` seconds, no more than `rate × t + burst` callers pass ``acquire()``. Callers wait in arrival
/// order (no newcomer overtakes a waiting caller); a caller whose task is cancelled leaves the queue at once with
/// ``ErrandError/cancelled``. One limiter can be shared by any number of tasks and clients: share one instance to
/// share one budget.
///
/// After the server answers 429, ``slowDown(retryAfter:)`` halves the rate (to 1/16 at worst), drops the saved
/// burst and, when the server said how long, admits no one until then; the rate then doubles back every
/// ``recoveryInterval`` until it is whole again. ``RateLimitMiddleware`` does this by itself.
///
/// ```swift
/// let limiter = RateLimiter(rate: 80, burst: 10)
/// try await limiter.acquire()   // then start the request
/// ```
public final class RateLimiter: Sendable {
    /// The configured rate, in starts per second.
    public let rate: Double
    /// How many starts may happen at once after a quiet period (the bucket's size).
    public let burst: Int
    /// How long after a slowdown the rate takes to double back.
    public let recoveryInterval: Duration

    private struct State {
        var tokens: Double
        var updated: ContinuousClock.Instant
        var waiters = WaiterQueue()
        var isDraining = false
        var pausedUntil: ContinuousClock.Instant?
        var slowdownFactor = 1.0
        var slowedAt: ContinuousClock.Instant?
    }

    private let state: Mutex<State>
    private let clock = ContinuousClock()

    /// Creates a limiter with a full bucket.
    ///
    /// - Parameters:
    ///   - rate: starts per second; must be greater than zero (otherwise ``acquire()`` throws
    ///     ``ErrandError/invalidRequest(_:)``).
    ///   - burst: the bucket's size, at least 1 (smaller values count as 1).
    ///   - recoveryInterval: how long the rate takes to double back after a 429. Default 5 seconds.
    public init(rate: Double, burst: Int = 1, recoveryInterval: Duration = .seconds(5)) {
        self.rate = rate
        self.burst = max(burst, 1)
        self.recoveryInterval = recoveryInterval
        state = Mutex(State(tokens: Double(max(burst, 1)), updated: ContinuousClock.now))
    }

    /// The rate in force now: lower than ``rate`` for a while after a slowdown.
    public var currentRate: Double {
        let now = clock.now
        return state.withLock { rate * factor(of: $0, at: now) }
    }

    /// How many callers are waiting for a turn.
    public var waitingCount: Int { state.withLock { $0.waiters.count } }

    /// Waits for a turn to start a request.
    ///
    /// Returns at once while the bucket has tokens and nobody is waiting. Throws ``ErrandError/cancelled`` when the
    /// task is cancelled while waiting, and ``ErrandError/invalidRequest(_:)`` when the limiter's rate is not a
    /// positive number.
    public func acquire() async throws(ErrandError) {
        guard rate > 0, rate.isFinite else {
            throw .invalidRequest("a rate limiter's rate must be a positive number of requests per second, not \(rate).")
        }
        let now = clock.now
        let ticket: UInt64? = state.withLock { state in
            refill(&state, at: now)
            if state.waiters.isEmpty, !isPaused(state, at: now), state.tokens >= 1 {
                state.tokens -= 1
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
        let now = clock.now
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
            let now = clock.now
            var admitted: [WaiterQueue.Continuation] = []
            let pause: Duration? = state.withLock { state in
                refill(&state, at: now)
                if !isPaused(state, at: now) {
                    while state.tokens >= 1, let waiter = state.waiters.popFirst() {
                        state.tokens -= 1
                        admitted.append(waiter)
                    }
                }
                if state.waiters.isEmpty {
                    state.isDraining = false
                    return nil
                }
                if let until = state.pausedUntil, until > now { return until - now }
                let currentRate = rate * factor(of: state, at: now)
                return .seconds((1 - state.tokens) / currentRate)
            }
            for waiter in admitted { waiter.resume() }
            guard let pause else { return }
            try? await Task.sleep(for: max(pause, .microseconds(100)))
        }
    }

    // MARK: The bucket

    private func refill(_ state: inout State, at now: ContinuousClock.Instant) {
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

    private func isPaused(_ state: State, at now: ContinuousClock.Instant) -> Bool {
        state.pausedUntil.map { now < $0 } ?? false
    }

    /// The share of the rate in force: halved by each slowdown, doubling back every recovery interval.
    private func factor(of state: State, at now: ContinuousClock.Instant) -> Double {
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
