import ErrandTesting
import Testing

@Suite("Manual clock")
struct ManualClockTests {
    @Test func aSleeperWakesOnlyOnceTheClockReachesItsDeadline() async throws {
        let clock = ManualClock()
        let woke = Locked<[String]>([])
        let sleeper = Task {
            try await clock.sleep(until: clock.now.advanced(by: .seconds(2)))
            woke.withLock { $0.append("sleeper") }
        }
        await clock.sleepers(1)
        clock.advance(by: .seconds(1))
        #expect(clock.sleeperCount == 1)
        #expect(woke.withLock { $0 }.isEmpty)
        clock.advance(by: .seconds(1))
        try await sleeper.value
        #expect(woke.withLock { $0 } == ["sleeper"])
        #expect(clock.now == ManualClock.Instant(offset: .seconds(2)))
    }

    @Test func sleepersWakeInDeadlineOrder() async throws {
        let clock = ManualClock()
        let (events, woke) = AsyncStream.makeStream(of: Int.self)
        for seconds in [3, 1, 2] {
            Task {
                try await Task.sleep(for: .seconds(seconds), clock: clock)
                woke.yield(seconds)
            }
        }
        await clock.sleepers(3)
        #expect(clock.nextDeadline == ManualClock.Instant(offset: .seconds(1)))
        // One advance at a time, so that each woken task runs before the next deadline comes.
        var order: [Int] = []
        var iterator = events.makeAsyncIterator()
        for _ in 0..<3 {
            clock.advanceToNextDeadline()
            if let next = await iterator.next() { order.append(next) }
        }
        #expect(order == [1, 2, 3])
        #expect(clock.sleeperCount == 0)
    }

    @Test func aDeadlineThatHasPassedReturnsAtOnce() async throws {
        let clock = ManualClock()
        clock.advance(by: .seconds(5))
        try await clock.sleep(until: ManualClock.Instant(offset: .seconds(5)))
        try await clock.sleep(for: .zero)
        #expect(clock.sleeperCount == 0)
    }

    @Test func cancellingASleeperEndsItsSleepWithCancellationError() async {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(3600)) }
        await clock.sleepers(1)
        sleeper.cancel()
        // The handler runs inside cancel(): the sleeper is gone before any other task runs.
        #expect(clock.sleeperCount == 0)
        await #expect(throws: CancellationError.self) { try await sleeper.value }
    }

    @Test func aCancelledWatcherReturnsWithoutAnySleeper() async {
        let clock = ManualClock()
        let watcher = Task { await clock.sleepers(1) }
        watcher.cancel()
        await watcher.value
        #expect(clock.sleeperCount == 0)
    }

    @Test func runMovesTheTimeWheneverTheOperationSleeps() async throws {
        let clock = ManualClock()
        let stamps = try await clock.run {
            var stamps: [Duration] = []
            for pause in [1, 2, 4] {
                try await clock.sleep(for: .seconds(pause))
                stamps.append(clock.now.offset)
            }
            return stamps
        }
        #expect(stamps == [.seconds(1), .seconds(3), .seconds(7)])
        #expect(clock.now.offset == .seconds(7))
    }

    @Test func runWaitsForWorkThatDoesNotSleepOnTheClock() async throws {
        let clock = ManualClock()
        let gate = AsyncStream.makeStream(of: Void.self)
        let run = Task {
            try await clock.run {
                for await _ in gate.stream { return 1 }; return 0
            }
        }
        // Nothing sleeps: the clock stays where it is until the operation ends by itself.
        gate.continuation.yield()
        #expect(try await run.value == 1)
        #expect(clock.now.offset == .zero)
    }
}
