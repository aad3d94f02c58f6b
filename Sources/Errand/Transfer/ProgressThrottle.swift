/// When a ``TransferProgressStream`` yields: at most one update per interval, and an update held back by the interval
/// yielded when the interval has passed, even if no report follows it (a transfer that stalls after a burst must not
/// show the counts from before the burst for the whole stall).
///
/// Times are offsets on the stream's ``Timeline``. The machine decides; the stream keeps the counts, yields, and runs
/// the one timer a held-back update needs.
struct ProgressThrottle: Sendable, Equatable {
    enum State: Sendable, Equatable {
        /// Nothing was yielded yet: the first change goes out at once.
        case fresh
        /// The last update went out at `lastYield`, and nothing is held back.
        case quiet(lastYield: Duration)
        /// A change arrived within the interval after `lastYield`; the timer yields it at `lastYield + interval`.
        case holding(lastYield: Duration)
        /// The sequence ended; nothing more goes out.
        case finished
    }

    enum Action: Sendable, Equatable {
        case none
        /// Yield the latest counts.
        case yield
        /// Hold the latest counts back, and start the timer that calls ``flushDue(at:)`` at `deadline`.
        case scheduleFlush(deadline: Duration)
        /// Yield the latest counts as the last element and end the sequence; stop the timer if `cancelsFlush`.
        case yieldLast(cancelsFlush: Bool)
    }

    let interval: Duration
    private(set) var state: State = .fresh

    init(interval: Duration) {
        self.interval = interval
    }

    /// The counts changed at `now`.
    mutating func changed(at now: Duration) -> Action {
        switch state {
        case .fresh:
            state = .quiet(lastYield: now)
            return .yield
        case .quiet(let lastYield):
            if now - lastYield >= interval {
                state = .quiet(lastYield: now)
                return .yield
            }
            state = .holding(lastYield: lastYield)
            return .scheduleFlush(deadline: lastYield + interval)
        case .holding, .finished:
            // The timer already carries the newest counts out when it fires.
            return .none
        }
    }

    /// The timer started by ``Action/scheduleFlush(deadline:)`` fired at `now`.
    mutating func flushDue(at now: Duration) -> Action {
        guard case .holding = state else { return .none }
        state = .quiet(lastYield: now)
        return .yield
    }

    /// The transfer ended.
    mutating func finish() -> Action {
        switch state {
        case .finished:
            return .none
        case .holding:
            state = .finished
            return .yieldLast(cancelsFlush: true)
        case .fresh, .quiet:
            state = .finished
            return .yieldLast(cancelsFlush: false)
        }
    }
}
