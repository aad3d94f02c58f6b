import Synchronization

/// A clock that moves only when a test moves it: for testing code that waits (rate limits, backoff, reconnection,
/// debounce, cache freshness) without waiting for real.
///
/// Give it to what waits — ``/Errand/ClientConfiguration/clock``, a ``/Errand/RateLimiter``, a
/// ``/Errand/LatestWins`` — then let the code under test go to sleep on it, wait for that with
/// ``sleepers(_:)``, move the time with ``advance(by:)`` and assert what happened, in what order:
///
/// ```swift
/// let clock = ManualClock()
/// let limiter = RateLimiter(rate: 10, burst: 1, clock: clock)
/// try await limiter.acquire()                       // the burst: at once
/// let second = Task { try await limiter.acquire() }
/// await clock.sleepers(1)                           // the limiter waits for its next token
/// clock.advance(by: .milliseconds(150))             // past the next token (one every 100 ms)
/// try await second.value
/// ```
///
/// A sleep whose deadline has come returns at once; cancelling a sleeping task ends its sleep with
/// `CancellationError`, as the real clocks do. Sleepers whose deadlines an advance reaches are resumed earliest
/// deadline first. Share one clock with any number of tasks.
public final class ManualClock: Clock, Sendable {
    /// A point on a manual clock: how far it is from the moment the clock was made.
    public struct Instant: InstantProtocol, Sendable, Hashable, CustomStringConvertible {
        /// The time since the clock was made.
        public let offset: Duration

        /// An instant `offset` after the clock was made.
        public init(offset: Duration) {
            self.offset = offset
        }

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// The time from this instant to `other`.
        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        /// Whether `lhs` comes before `rhs`.
        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }

        /// The offset, as `+1.5 seconds`.
        public var description: String { "+\(offset)" }
    }

    private typealias Sleeper = CheckedContinuation<Void, any Error>
    private typealias Watcher = CheckedContinuation<Void, Never>

    private struct State {
        var schedule = ManualClockSchedule<Sleeper, Watcher>()
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())

    /// Creates a clock at instant zero, with nobody asleep.
    public init() {}

    /// The time now: where the last ``advance(by:)`` left it.
    public var now: Instant { Instant(offset: state.withLock { $0.schedule.now }) }

    /// Zero: a manual clock is exact.
    public var minimumResolution: Duration { .zero }

    /// How many tasks are asleep on this clock now.
    public var sleeperCount: Int { state.withLock { $0.schedule.sleepers.count } }

    /// When the next sleeper wakes, or `nil` when nobody sleeps.
    public var nextDeadline: Instant? { state.withLock { $0.schedule.nextDeadline }.map(Instant.init(offset:)) }

    /// Sleeps until the clock has been advanced to `deadline`; returns at once when it is there already.
    ///
    /// `tolerance` is ignored: the sleeper wakes in the advance that reaches its deadline.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = makeID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: Sleeper) in
                let outcome: ManualClockSchedule<Sleeper, Watcher>.SleepOutcome? = state.withLock { state in
                    // Checked under the lock the cancellation handler takes too: either the handler finds this
                    // sleeper, or this sees the task cancelled.
                    if Task.isCancelled { return nil }
                    return state.schedule.sleep(id: id, until: deadline.offset, continuation)
                }
                switch outcome {
                case nil: continuation.resume(throwing: CancellationError())
                case .wakeNow: continuation.resume()
                case .suspended(let watchers): for watcher in watchers { watcher.resume() }
                }
            }
        } onCancel: {
            state.withLock { $0.schedule.cancel(id: id) }?.resume(throwing: CancellationError())
        }
    }

    /// Moves the time forward by `duration` and wakes every sleeper whose deadline it reaches, earliest first.
    ///
    /// The woken tasks run after this returns; wait for what they do (their results, or ``sleepers(_:)`` when they
    /// go back to sleep) before asserting on it. A negative duration does nothing.
    public func advance(by duration: Duration) {
        advance(to: now.advanced(by: max(duration, .zero)))
    }

    /// Moves the time forward to `instant` (never back) and wakes every sleeper whose deadline it reaches.
    public func advance(to instant: Instant) {
        let due = state.withLock { $0.schedule.advance(to: instant.offset) }
        for sleeper in due { sleeper.resume() }
    }

    /// Moves the time to the next sleeper's deadline and wakes it (and any other due then); does nothing when
    /// nobody sleeps.
    public func advanceToNextDeadline() {
        guard let next = nextDeadline else { return }
        advance(to: next)
    }

    /// Returns once at least `count` tasks are asleep on this clock: the way a test knows the code under test has
    /// reached its wait, without sleeping for real.
    ///
    /// Returns at once when that many sleep already, and early when the calling task is cancelled.
    public func sleepers(_ count: Int) async {
        let id = makeID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: Watcher) in
                let ready: Watcher? = state.withLock { state in
                    if Task.isCancelled { return continuation }
                    return state.schedule.watch(id: id, forSleepers: count, continuation)
                }
                ready?.resume()
            }
        } onCancel: {
            state.withLock { $0.schedule.unwatch(id: id) }?.resume()
        }
    }

    /// Runs `operation` to its end, moving the time to the next deadline whenever something sleeps on this clock
    /// meanwhile, and returns its result: time passes only while everything is asleep, as fast as the code allows.
    ///
    /// Use it when a test cares about what happens and in what order, not about the moments in between: a retry's
    /// backoff, a limiter's queue, a reconnection. Work that is neither asleep on the clock nor finished (a request
    /// on the wire) is waited for, not skipped: the clock moves only once something sleeps on it. It suits code
    /// with one task asleep at a time (one limiter's queue, one retry loop, one event stream): with a second task
    /// asleep until later, an advance does not wait for a woken task to go back to sleep before moving on to the
    /// later deadline, so drive such code with ``advance(by:)`` and ``sleepers(_:)`` instead.
    public func run<Value: Sendable>(_ operation: @escaping @Sendable () async throws -> Value) async throws
        -> Value
    {
        let (events, wakes) = AsyncStream.makeStream(of: Bool.self)
        let work = Task {
            defer { wakes.yield(false) }
            return try await operation()
        }
        var iterator = events.makeAsyncIterator()
        while true {
            let watcher = Task {
                await sleepers(1)
                if !Task.isCancelled { wakes.yield(true) }
            }
            // Only `work` yields false, once, so this loop ends; a watcher yields true only while something sleeps.
            let somethingSleeps = await iterator.next() ?? false
            guard somethingSleeps else {
                watcher.cancel()
                return try await work.value
            }
            advanceToNextDeadline()
        }
    }

    private func makeID() -> UInt64 {
        state.withLock { state in
            state.nextID &+= 1
            return state.nextID
        }
    }
}
