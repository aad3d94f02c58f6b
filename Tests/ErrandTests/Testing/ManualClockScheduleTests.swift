import Testing

@testable import ErrandTesting

@Suite("Manual clock schedule")
struct ManualClockScheduleTests {
    typealias Schedule = ManualClockSchedule<String, String>

    @Test func aSleepWhoseDeadlineHasComeWakesAtOnce() {
        var schedule = Schedule()
        _ = schedule.advance(to: .seconds(2))
        guard case .wakeNow = schedule.sleep(id: 1, until: .seconds(2), "a") else {
            Issue.record("a deadline at now must not suspend")
            return
        }
        #expect(schedule.sleepers.isEmpty)
    }

    @Test func anAdvanceWakesTheDueSleepersEarliestFirstAndKeepsTheRest() {
        var schedule = Schedule()
        for (id, name, deadline) in [(1, "late", 3), (2, "early", 1), (3, "tie", 1), (4, "later", 5)] {
            _ = schedule.sleep(id: UInt64(id), until: .seconds(deadline), name)
        }
        #expect(schedule.nextDeadline == .seconds(1))
        #expect(schedule.advance(to: .seconds(3)) == ["early", "tie", "late"])
        #expect(schedule.now == .seconds(3))
        #expect(schedule.sleepers.map(\.sleeper) == ["later"])
        #expect(schedule.advance(to: .milliseconds(4_999)).isEmpty)
        #expect(schedule.advance(to: .seconds(5)) == ["later"])
    }

    @Test func timeNeverMovesBack() {
        var schedule = Schedule()
        _ = schedule.advance(to: .seconds(10))
        _ = schedule.advance(to: .seconds(4))
        #expect(schedule.now == .seconds(10))
    }

    @Test func aCancelledSleeperLeavesAndIsNotWokenLater() {
        var schedule = Schedule()
        _ = schedule.sleep(id: 1, until: .seconds(1), "a")
        _ = schedule.sleep(id: 2, until: .seconds(1), "b")
        #expect(schedule.cancel(id: 1) == "a")
        #expect(schedule.cancel(id: 1) == nil)
        #expect(schedule.advance(to: .seconds(1)) == ["b"])
        #expect(schedule.cancel(id: 2) == nil)
    }

    @Test func aWatcherIsReleasedByTheSleeperThatMakesItsCount() {
        var schedule = Schedule()
        #expect(schedule.watch(id: 10, forSleepers: 2, "two") == nil)
        #expect(schedule.watch(id: 11, forSleepers: 1, "one") == nil)
        guard case .suspended(let first) = schedule.sleep(id: 1, until: .seconds(1), "a") else {
            Issue.record("expected a suspended sleeper")
            return
        }
        #expect(first == ["one"])
        guard case .suspended(let second) = schedule.sleep(id: 2, until: .seconds(1), "b") else {
            Issue.record("expected a suspended sleeper")
            return
        }
        #expect(second == ["two"])
        // Enough sleepers already: a new watcher comes straight back.
        #expect(schedule.watch(id: 12, forSleepers: 2, "now") == "now")
    }

    @Test func aCancelledWatcherIsNotReleasedLater() {
        var schedule = Schedule()
        #expect(schedule.watch(id: 10, forSleepers: 1, "w") == nil)
        #expect(schedule.unwatch(id: 10) == "w")
        #expect(schedule.unwatch(id: 10) == nil)
        guard case .suspended(let released) = schedule.sleep(id: 1, until: .seconds(1), "a") else {
            Issue.record("expected a suspended sleeper")
            return
        }
        #expect(released.isEmpty)
    }
}
