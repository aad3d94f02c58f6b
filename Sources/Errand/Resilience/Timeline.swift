import Foundation

/// The clock that Errand waits on and reads, seen as time since an origin, with the wall-clock date it implies.
///
/// Everything that waits or reads the time (rate limits, backoff, reconnection, debounce, cache freshness) goes
/// through one of these, so that a test can hand in a manual clock. Its instants are offsets from the moment the
/// timeline was made, which lets one value hold any `Clock` whose durations are `Duration` without being generic.
///
/// The date: the real clocks (`ContinuousClock`, `SuspendingClock`) read the system's date, as HTTP dates must be
/// compared with it; any other clock tells the system's date when the timeline was made, moved on by as much as that
/// clock has advanced since, so a test that advances its clock by an hour sees cached entries an hour older.
struct Timeline: Sendable {
    /// The clock, as it was given.
    let clock: any Clock<Duration>
    private let elapsed: @Sendable () -> Duration
    private let sleeper: @Sendable (Duration) async throws -> Void
    private let dater: @Sendable () -> Date

    /// A timeline on `clock`, starting now.
    init(_ clock: any Clock<Duration>) {
        self = Self.opening(clock)
    }

    private static func opening<C: Clock<Duration>>(_ clock: C) -> Timeline {
        Timeline(clock: clock)
    }

    private init<C: Clock<Duration>>(clock: C) {
        let origin = clock.now
        self.clock = clock
        elapsed = { origin.duration(to: clock.now) }
        sleeper = { offset in try await clock.sleep(until: origin.advanced(by: offset), tolerance: nil) }
        if clock is ContinuousClock || clock is SuspendingClock {
            dater = { Date() }
        } else {
            let anchor = Date()
            dater = { anchor.addingTimeInterval(origin.duration(to: clock.now).seconds) }
        }
    }

    /// The time since the timeline was made.
    var now: Duration { elapsed() }

    /// The wall-clock date now (see the type's description for clocks that are not the real ones).
    var date: Date { dater() }

    /// Sleeps until `offset` after the timeline was made; returns at once when that has passed. Throws
    /// `CancellationError` when the task is cancelled while asleep.
    func sleep(until offset: Duration) async throws {
        try await sleeper(offset)
    }

    /// Sleeps for `duration`. Throws `CancellationError` when the task is cancelled while asleep.
    func sleep(for duration: Duration) async throws {
        try await sleeper(elapsed() + duration)
    }
}
