import Errand
import Foundation
import Synchronization
import Testing
import TestSupport

@Suite("Rate limiter")
struct RateLimiterTests {
    @Test(
        "300 requests at 100/s: no 1-second window above rate + burst", .enabled(if: TestServer.fault.isUsable),
        arguments: TransportKind.allCases)
    func keepsTheRate(transport: TransportKind) async throws {
        let fault = try FaultScenario(transport)
        let limiter = RateLimiter(rate: 100, burst: 10)
        let starts = Locked<[Double]>([])
        let clock = ContinuousClock()
        let origin = clock.now
        let recordStart = RequestAdapter { _ in
            let now = (clock.now - origin).inSeconds
            starts.withLock { $0.append(now) }
        }
        let client = fault.client([
            RateLimitMiddleware(limiter: limiter), recordStart, ConcurrencyLimitMiddleware(limit: 16),
        ])
        let (_, elapsed) = try await measure {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<300 {
                    group.addTask { _ = try await client.send(Request<Data>(path: fault.path("ok"))) }
                }
                try await group.waitForAll()
            }
        }
        // Both are observed after the limiter lets a request go, and a busy machine delays some requests more than
        // others, bunching them up: starts get 10 requests of slack, server arrivals (which also wait on the server's
        // accept loop and the transport's connection pool) 30. Without the limiter all 300 arrive within 1 s.
        let started = Self.busiestWindow(starts.withLock { $0 }, seconds: 1)
        #expect(started <= 100 + 10 + 10, "\(started) requests started in one second")
        let times = try await fault.log().map(\.time)
        try #require(times.count == 300)
        let arrived = Self.busiestWindow(times, seconds: 1)
        #expect(arrived <= 100 + 10 + 30, "\(arrived) requests arrived in one second")
        // 290 requests beyond the burst at 100/s take at least 2.9 s.
        #expect(elapsed >= .milliseconds(2800), "300 requests took only \(elapsed)")
    }

    @Test("a plain bucket lets rate × t + burst start within t: 40 within the first half second at 40/s, burst 20")
    func aPlainBucketsWindowHoldsRatePlusBurst() async throws {
        let limiter = RateLimiter(rate: 40, burst: 20)
        let starts = try await Self.startTimes(of: limiter, count: 40)
        // The documented bound, with 10 ms of slack for the moments recorded just after admission.
        #expect(Self.busiestWindow(starts, seconds: 0.49) <= 40)
        // And the reason a strict mode exists: far more than `rate` seconds' worth start in the first window.
        #expect(Self.busiestWindow(starts, seconds: 0.5) > 30)
    }

    @Test("a strict limiter never lets more than its limit start in any window: the first, and after an idle pause")
    func aStrictLimiterKeepsEveryWindow() async throws {
        let limiter = RateLimiter(limit: 20, per: .milliseconds(300), burst: 20)
        #expect(limiter.strictWindow == RateWindow(limit: 20, duration: .milliseconds(300)))
        #expect(abs(limiter.rate - 20 / 0.3) < 1e-9)
        let clock = ContinuousClock()
        let origin = clock.now
        var starts = try await Self.startTimes(of: limiter, count: 50, since: origin)
        // A pause long enough to fill the bucket again: the next window starts with a whole burst.
        try await Task.sleep(for: .milliseconds(400))
        starts += try await Self.startTimes(of: limiter, count: 50, since: origin)
        // Recorded just after admission, so a window 10 ms short of the limiter's own absorbs the recording delay.
        let busiest = Self.busiestWindow(starts, seconds: 0.29)
        #expect(busiest <= 20, "\(busiest) starts within 300 ms")
        // 50 starts of 20 per window need at least two windows after the first burst.
        let firstRun = starts.prefix(50)
        let span = (firstRun.max() ?? 0) - (firstRun.min() ?? 0)
        #expect(span >= 0.59, "50 starts at 20 per 300 ms took only \(span) s")
    }

    @Test("a strict limiter paces its bucket: burst, then the average, never a second over the limit")
    func aStrictLimiterPacesBetweenWindows() async throws {
        let limiter = RateLimiter(limit: 100, per: .seconds(1), burst: 10)
        let starts = try await Self.startTimes(of: limiter, count: 150)
        #expect(Self.busiestWindow(starts, seconds: 0.99) <= 100)
        // 10 at once, then 100 per second: 140 more take at least 1.4 s.
        let span = (starts.max() ?? 0) - (starts.min() ?? 0)
        #expect(span >= 1.35 && span < 5, "150 starts took \(span) s")
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
        // 200 ms between turns: every caller is queued long before the first one passes.
        let limiter = RateLimiter(rate: 5, burst: 1)
        try await limiter.acquire()
        let order = Locked<[Int]>([])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                group.addTask {
                    try await limiter.acquire()
                    order.withLock { $0.append(index) }
                }
                // The next caller arrives only once this one is queued (or already through).
                #expect(await waitUntil { limiter.waitingCount + order.withLock { $0.count } == index + 1 })
            }
            try await group.waitForAll()
        }
        #expect(order.withLock { $0 } == Array(0..<8))
    }

    @Test func aBurstPassesAtOnceThenTheRateApplies() async throws {
        let limiter = RateLimiter(rate: 10, burst: 5)
        let (_, burst) = try await measure { for _ in 0..<5 { try await limiter.acquire() } }
        #expect(burst < .milliseconds(50))
        let (_, paced) = try await measure { for _ in 0..<3 { try await limiter.acquire() } }
        #expect(paced >= .milliseconds(250) && paced < .seconds(1), "3 starts at 10/s took \(paced)")
    }

    @Test func cancellingAWaiterEndsItsWaitWithin100ms() async throws {
        let limiter = RateLimiter(rate: 0.2, burst: 1)
        try await limiter.acquire()
        let latency = try await fastestCancellation {
            let waiter = Task<Void, any Error> { try await limiter.acquire() }
            #expect(await waitUntil { limiter.waitingCount == 1 })
            return waiter
        }
        #expect(latency < .milliseconds(100), "cancellation took \(latency)")
        #expect(limiter.waitingCount == 0)
    }

    @Test func aCancelledWaiterLeavesTheQueueAtOnce() async throws {
        let limiter = RateLimiter(rate: 0.2, burst: 1)
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
        let limiter = RateLimiter(rate: 50, burst: 5, recoveryInterval: .seconds(60))
        let client = fault.client([RateLimitMiddleware(limiter: limiter)])
        await #expect {
            _ = try await client.send(
                Request<Data>(
                    path: fault.path("fail", "1", "429"), query: [QueryItem("retry_after", "1")]))
        } throws: { ($0 as? ErrandError)?.status == 429 }
        #expect(limiter.currentRate < 26 && limiter.currentRate > 24)
        let (_, waited) = try await measure { _ = try await client.send(Request<Data>(path: fault.path("ok"))) }
        #expect(waited >= .milliseconds(900), "the next request started after \(waited), before Retry-After: 1")
        let gaps = try await fault.gaps()
        #expect(gaps.count == 1 && gaps[0] >= 0.9)
    }

    @Test(
        "per-host limiters do not share a budget", .enabled(if: TestServer.fault.isUsable),
        arguments: TransportKind.allCases)
    func perHostBudgets(transport: TransportKind) async throws {
        let base = try TestServer.fault.url()
        let port = try #require(base.port)
        let middleware = RateLimitMiddleware.perHost(rate: 1, burst: 1)
        let client = APIClient(
            configuration: ClientConfiguration(
                baseURL: base, transport: transport.make(), middleware: [middleware]))
        let key = "perhost-\(UUID().uuidString.prefix(8))"
        let started = ContinuousClock.now
        _ = try await client.send(Request<Data>(url: URL(string: "http://127.0.0.1:\(port)/ok/\(key)")!))
        _ = try await client.send(Request<Data>(url: URL(string: "http://localhost:\(port)/ok/\(key)")!))
        let twoHosts = ContinuousClock.now - started
        #expect(twoHosts < .milliseconds(800), "two hosts waited on one budget: \(twoHosts)")
        _ = try await client.send(Request<Data>(url: URL(string: "http://127.0.0.1:\(port)/ok/\(key)")!))
        let sameHost = ContinuousClock.now - started
        #expect(sameHost >= .milliseconds(950), "a second start on one host at 1/s came after only \(sameHost)")
    }

    /// When each of `count` callers, arriving together, passed the limiter, in seconds since `origin`.
    static func startTimes(
        of limiter: RateLimiter, count: Int, since origin: ContinuousClock.Instant = ContinuousClock.now
    ) async throws -> [Double] {
        let starts = Locked<[Double]>([])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<count {
                group.addTask {
                    try await limiter.acquire()
                    let now = (ContinuousClock.now - origin).inSeconds
                    starts.withLock { $0.append(now) }
                }
            }
            try await group.waitForAll()
        }
        return starts.withLock { $0 }
    }

    /// The most timestamps within any window of the given length.
    static func busiestWindow(_ times: [Double], seconds: Double) -> Int {
        let sorted = times.sorted()
        var worst = 0
        var start = 0
        for end in sorted.indices {
            while sorted[end] - sorted[start] >= seconds { start += 1 }
            worst = max(worst, end - start + 1)
        }
        return worst
    }
}
