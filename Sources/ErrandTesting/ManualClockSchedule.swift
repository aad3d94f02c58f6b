/// What a ``ManualClock`` knows: its time, who sleeps until when, and who waits for sleepers to arrive.
///
/// Pure transitions, each returning whom to resume, so that the clock resumes them after releasing its lock and the
/// rules can be tested without tasks. `Sleeper` and `Watcher` are continuations in the clock, anything in a test.
struct ManualClockSchedule<Sleeper, Watcher> {
    /// A suspended sleeper, woken once the time reaches its deadline.
    struct Sleeping {
        let id: UInt64
        let deadline: Duration
        let sleeper: Sleeper
    }

    /// A watcher waiting until at least `count` sleepers are suspended.
    struct Watching {
        let id: UInt64
        let count: Int
        let watcher: Watcher
    }

    /// How far the clock has moved since it was made.
    private(set) var now: Duration = .zero
    /// Sleepers in the order they wake: by deadline, then by arrival.
    private(set) var sleepers: [Sleeping] = []
    private var watchers: [Watching] = []

    /// The deadline of the next sleeper to wake, if any sleeps.
    var nextDeadline: Duration? { sleepers.first?.deadline }

    /// What happens to a new sleeper.
    enum SleepOutcome {
        /// Its deadline has come already: resume it at once.
        case wakeNow
        /// It sleeps; these watchers have now seen enough sleepers and resume.
        case suspended(watchersToResume: [Watcher])
    }

    /// A sleeper arrives with a deadline.
    mutating func sleep(id: UInt64, until deadline: Duration, _ sleeper: Sleeper) -> SleepOutcome {
        guard deadline > now else { return .wakeNow }
        let index = sleepers.firstIndex { $0.deadline > deadline } ?? sleepers.endIndex
        sleepers.insert(Sleeping(id: id, deadline: deadline, sleeper: sleeper), at: index)
        return .suspended(watchersToResume: releaseWatchers())
    }

    /// Moves the time forward (never back) and returns the sleepers whose deadline has come, earliest first.
    mutating func advance(to instant: Duration) -> [Sleeper] {
        now = max(now, instant)
        let due = sleepers.prefix { $0.deadline <= now }
        sleepers.removeFirst(due.count)
        return due.map(\.sleeper)
    }

    /// Removes a sleeper whose task was cancelled; `nil` when it already woke.
    mutating func cancel(id: UInt64) -> Sleeper? {
        guard let index = sleepers.firstIndex(where: { $0.id == id }) else { return nil }
        return sleepers.remove(at: index).sleeper
    }

    /// A watcher arrives; returns it back when enough sleepers are suspended already.
    mutating func watch(id: UInt64, forSleepers count: Int, _ watcher: Watcher) -> Watcher? {
        guard sleepers.count < count else { return watcher }
        watchers.append(Watching(id: id, count: count, watcher: watcher))
        return nil
    }

    /// Removes a watcher whose task was cancelled; `nil` when it was already released.
    mutating func unwatch(id: UInt64) -> Watcher? {
        guard let index = watchers.firstIndex(where: { $0.id == id }) else { return nil }
        return watchers.remove(at: index).watcher
    }

    /// Removes every watcher whose count has been reached.
    private mutating func releaseWatchers() -> [Watcher] {
        var released: [Watcher] = []
        watchers.removeAll { watching in
            guard watching.count <= sleepers.count else { return false }
            released.append(watching.watcher)
            return true
        }
        return released
    }
}
