import Errand
import ErrandTesting
import Foundation
import Synchronization
import Testing
import TestSupport

// Every limiter here runs on a manual clock: the tests assert when each start happens on it, exactly, and take no
// real time however long the waits they check.
@Suite("Rate limiter")
struct RateLimiterTests {
    @Test(
        "300 requests at 100/s to a real server: all arrive, none before its token, in 2.9 s of the limiter's clock",
        .enabled(if: TestServer.fault.isUsable), arguments: TransportKind.allCases)
    func keepsTheRate(transport: TransportKind) async throws {
        let fault = try FaultScenario(transport)
        let clock = ManualClock()
        let limiter = RateLimiter(rate: 100, burst: 10, clock: clock)
        let starts = Locked<[Duration]>([])
        let recordStart = RequestAdapter { _ in
            let now = clock.now.offset
            starts.withLock { $0.append(now) }
        }
        let client = fault.client([
            RateLimitMiddleware(limiter: limiter), recordStart, ConcurrencyLimitMiddleware(limit: 16),
        ])
        try await clock.run {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<300 {
                    group.addTask { _ = try await client.send(Request<Data>(path: fault.path("ok"))) }
                }
                try await group.waitForAll()
            }
        }
        // A start is recorded just after the limiter lets it go, never before: so the k-th start recorded comes no
        // earlier than the k-th token, 10 at once and then one every 10 ms.
        let recorded = starts.withLock { $0 }.sorted()
        try #require(recorded.count == 300)
        for (index, start) in recorded.enumerated() where index >= 10 {
            #expect(start >= .milliseconds(10 * (index - 9)), "start \(index) at \(start)")
        }
        #expect(clock.now.offset >= .milliseconds(2_900) && clock.now.offset < .milliseconds(2_902))
        #expect(try await fault.log().count == 300)
    }

    @Test("a plain bucket lets rate × t + burst start within t: 40 within the first half second at 40/s, burst 20")
    func aPlainBucketsWindowHoldsRatePlusBurst() async throws {
        let clock = ManualClock()
        let limiter = RateLimiter(rate: 40, burst: 20, clock: clock)
        let starts = try await Self.startTimes(of: limiter, on: clock, count: 41)
        // 20 at once, then one every 25 ms.
        for (index, start) in starts.enumerated() {
            #expect(abs(start - 0.025 * Double(max(0, index - 19))) < 0.000_2, "start \(index) at \(start) s")
        }
        // The documented bound holds (40 in the half second from the start, the 41st after it)...
        #expect(Self.busiestWindow(starts, seconds: 0.5) <= 40)
        // ...and it is why a strict mode exists: far more than `rate` seconds' worth start in the first window.
        #expect(Self.busiestWindow(starts, seconds: 0.5) > 30)
    }

    @Test("a strict limiter never lets more than its limit start in any window: the first, and after an idle pause")
    func aStrictLimiterKeepsEveryWindow() async throws {
        let clock = ManualClock()
        let limiter = RateLimiter(limit: 20, per: .milliseconds(300), burst: 20, clock: clock)
        #expect(limiter.strictWindow == RateWindow(limit: 20, duration: .milliseconds(300)))
        #expect(abs(limiter.rate - 20 / 0.3) < 1e-9)
        var starts = try await Self.startTimes(of: limiter, on: clock, count: 50)
        // 20 at once, 20 when the first leave the window, then the last 10 a window later.
        #expect(starts.filter { $0 < 0.3 }.count == 20)
        #expect(abs((starts.max() ?? 0) - 0.6) < 0.000_2, "the 50th start at \(starts.max() ?? 0) s")
        // A pause long enough to fill the bucket again: the next window starts with a whole burst.
        clock.advance(by: .milliseconds(400))
        starts += try await Self.startTimes(of: limiter, on: clock, count: 50)
        let busiest = Self.busiestWindow(starts, seconds: 0.3)
        #expect(busiest == 20, "\(busiest) starts within 300 ms")
    }

    @Test("a strict limiter paces its bucket: burst, then the average, never a second over the limit")
    func aStrictLimiterPacesBetweenWindows() async throws {
        let clock = ManualClock()
        let limiter = RateLimiter(limit: 100, per: .seconds(1), burst: 10, clock: clock)
        let starts = try await Self.startTimes(of: limiter, on: clock, count: 150)
        #expect(Self.busiestWindow(starts, seconds: 1) <= 100)
        // 10 at once, then 100 per second: 140 more take at least 1.4 s.
        let span = (starts.max() ?? 0) - (starts.min() ?? 0)
        #expect(span >= 1.4 - 0.000_2 && span < 2, "150 starts took \(span) s")
    }

    @Test func anImpossibleWindowIsAClearError() async {
        for (limit, window) in [(0, Duration.seconds(1)), (-3, .seconds(1)), (5, .zero), (5, .milliseconds(-1))] {
            await #expect {
                try await RateLimiter(limit: limit, per: window).acquire()
            } throws: { error in
                guard case .invalidRequest(let reason) = error as? ErrandError else { return false }
                return reason.contains("window")
            }
        }
    }

    @Test func waitersAreAdmittedInArrivalOrder() async throws {
        let clock = ManualClock()
        let limiter = RateLimiter(rate: 5, burst: 1, clock: clock)
        try await limiter.acquire()
        let order = Locked<[Int]>([])
        var waiters: [Task<Void, any Error>] = []
        for index in 0..<8 {
            waiters.append(
                Task {
                    try await limiter.acquire()
                    order.withLock { $0.append(index) }
                })
            // The next caller arrives only once this one is queued; the clock stands still, so nobody passes yet.
            #expect(await waitUntil { limiter.waitingCount == index + 1 })
        }
        let queued = waiters
        try await clock.run { for waiter in queued { try await waiter.value } }
        #expect(order.withLock { $0 } == Array(0..<8))
        // One turn every 200 ms.
        #expect(clock.now.offset >= .milliseconds(1_600) && clock.now.offset < .milliseconds(1_601))
    }

    @Test func aBurstPassesAtOnceThenTheRateApplies() async throws {
        let clock = ManualClock()
        let limiter = RateLimiter(rate: 10, burst: 5, clock: clock)
        for _ in 0..<5 { try await limiter.acquire() }
        // The burst never waited: nothing slept, no time passed.
        #expect(clock.sleeperCount == 0 && clock.now.offset == .zero)
        let paced = try await Self.startTimes(of: limiter, on: clock, count: 3)
        for (index, start) in paced.enumerated() {
            #expect(abs(start - 0.1 * Double(index + 1)) < 0.000_2, "paced start \(index) at \(start) s")
        }
    }

    @Test func cancellingAWaiterEndsItsWaitWhileTheClockStandsStill() async throws {
        let clock = ManualClock()
        let limiter = RateLimiter(rate: 0.2, burst: 1, clock: clock)
        try await limiter.acquire()
        for _ in 0..<3 {
            let waiter = Task { try await limiter.acquire() }
            #expect(await waitUntil { limiter.waitingCount == 1 })
            waiter.cancel()
            // Only the cancellation can end this wait: the clock never moves.
            await #expect {
                try await waiter.value
            } throws: { ($0 as? ErrandError).map { if case .cancelled = $0 { true } else { false } } ?? false }
            #expect(limiter.waitingCount == 0)
        }
        #expect(clock.now.offset == .zero)
    }

    @Test func aCancelledWaiterLeavesTheQueueAtOnce() async throws {
        let clock = ManualClock()
        let limiter = RateLimiter(rate: 0.2, burst: 1, clock: clock)
        try await limiter.acquire()
        let waiter = Task { try await limiter.acquire() }
        #expect(await waitUntil { limiter.waitingCount == 1 })
        waiter.cancel()
        // The cancellation handler runs inside cancel(): the place is free before any other task runs.
        #expect(limiter.waitingCount == 0)
        await #expect(throws: ErrandError.self) { try await waiter.value }
    }

    @Test func anInvalidRateIsAClearError() async {
        for rate in [0, -1, Double.nan, .infinity] {
            await #expect {
                try await RateLimiter(rate: rate).acquire()
            } throws: { error in
                guard case .invalidRequest(let reason) = error as? ErrandError else { return false }
                return reason.contains("rate")
            }
        }
    }

    @Test(
        "a 429 halves the rate and its Retry-After pauses every start", .enabled(if: TestServer.fault.isUsable),
        arguments: TransportKind.allCases)
    func slowsDownAfter429(transport: TransportKind) async throws {
        let fault = try FaultScenario(transport)
        let clock = ManualClock()
        let limiter = RateLimiter(rate: 50, burst: 5, recoveryInterval: .seconds(60), clock: clock)
        let client = fault.client([RateLimitMiddleware(limiter: limiter)], clock: clock)
        await #expect {
            _ = try await client.send(
                Request<Data>(
                    path: fault.path("fail", "1", "429"), query: [QueryItem("retry_after", "1")]))
        } throws: { ($0 as? ErrandError)?.status == 429 }
        #expect(limiter.currentRate == 25)
        let next = Task { try await client.send(Request<Data>(path: fault.path("ok"))) }
        await clock.sleepers(1)
        clock.advance(by: .milliseconds(999))
        // Retry-After: 1 holds every start for a whole second, tokens or not.
        #expect(limiter.waitingCount == 1)
        #expect(try await fault.log().count == 1)
        // Then the halved rate: the pause left no token, so the next comes one token (40 ms at 25/s, a little less as
        // the rate recovers meanwhile) later.
        _ = try await clock.run { try await next.value }
        #expect(
            clock.now.offset > .milliseconds(1_035) && clock.now.offset <= .milliseconds(1_040), "at \(clock.now)")
        #expect(try await fault.log().count == 2)
    }

    @Test(
        "per-host limiters do not share a budget", .enabled(if: TestServer.fault.isUsable),
        arguments: TransportKind.allCases)
    func perHostBudgets(transport: TransportKind) async throws {
        let base = try TestServer.fault.url()
        let port = try #require(base.port)
        let clock = ManualClock()
        let middleware = RateLimitMiddleware.perHost(rate: 1, burst: 1)
        let client = APIClient(
            configuration: ClientConfiguration(
                baseURL: base, transport: transport.make(), middleware: [middleware], clock: clock))
        let key = "perhost-\(UUID().uuidString.prefix(8))"
        _ = try await client.send(Request<Data>(url: URL(string: "http://127.0.0.1:\(port)/ok/\(key)")!))
        _ = try await client.send(Request<Data>(url: URL(string: "http://localhost:\(port)/ok/\(key)")!))
        // Two hosts, one start each: neither waited on the other's budget.
        #expect(clock.sleeperCount == 0 && clock.now.offset == .zero)
        let again = Task {
            try await client.send(Request<Data>(url: URL(string: "http://127.0.0.1:\(port)/ok/\(key)")!))
        }
        await clock.sleepers(1)
        clock.advance(by: .milliseconds(999))
        #expect(clock.sleeperCount == 1, "a second start on one host at 1/s came before a second had passed")
        _ = try await clock.run { try await again.value }
        #expect(clock.now.offset >= .seconds(1) && clock.now.offset < .milliseconds(1_001))
    }

    /// When each of `count` callers, one after another, passed the limiter, in seconds on its manual clock.
    ///
    /// One caller at a time, so each start is read on the clock at the very moment the limiter let it go (the clock
    /// moves only while that caller waits), which is when that caller would have passed in a crowd.
    static func startTimes(of limiter: RateLimiter, on clock: ManualClock, count: Int) async throws -> [Double] {
        var starts: [Double] = []
        for _ in 0..<count {
            try await clock.run { try await limiter.acquire() }
            starts.append(clock.now.offset.inSeconds)
        }
        return starts
    }

    /// The most timestamps within any window of the given length (a window [t, t + seconds) holds a start at t, not
    /// one at t + seconds).
    static func busiestWindow(_ times: [Double], seconds: Double) -> Int {
        let sorted = times.sorted()
        var worst = 0
        var start = 0
        for end in sorted.indices {
            // A microsecond of slack for starts that land on a window's edge in floating point.
            while sorted[end] - sorted[start] >= seconds - 0.000_001 { start += 1 }
            worst = max(worst, end - start + 1)
        }
        return worst
    }
}
