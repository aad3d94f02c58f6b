import Errand
import Foundation
import Synchronization
import Testing
import TestSupport

@Suite("Concurrency limiter")
struct ConcurrencyLimiterTests {
    @Test(
        "never more than N in flight at the server", .enabled(if: TestServer.fault.isUsable),
        arguments: TransportKind.allCases)
    func neverAboveTheLimit(transport: TransportKind) async throws {
        let fault = try FaultScenario(transport)
        let limiter = ConcurrencyLimiter(limit: 3)
        let client = fault.client([ConcurrencyLimitMiddleware(limiter: limiter)])
        let peak = Locked(0)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<30 {
                group.addTask {
                    _ = try await client.send(Request<Data>(path: fault.path("slow"), query: [QueryItem("ms", "40")]))
                    peak.withLock { $0 = max($0, limiter.running) }
                }
            }
            try await group.waitForAll()
        }
        let stats = try await fault.stats()
        #expect(stats.count == 30)
        #expect(stats.maxInFlight <= 3 && stats.maxInFlight >= 2, "server saw \(stats.maxInFlight) at once")
        #expect(peak.withLock { $0 } <= 3)
        #expect(limiter.running == 0)
    }

    @Test func aCancelledWaiterGivesUpItsPlace() async throws {
        let limiter = ConcurrencyLimiter(limit: 1)
        try await limiter.acquire()
        let order = Locked<[String]>([])
        func waiter(_ name: String) -> Task<Void, any Error> {
            Task {
                try await limiter.acquire()
                order.withLock { $0.append(name) }
                limiter.release()
            }
        }
        let first = waiter("first")
        #expect(await waitUntil { limiter.waitingCount == 1 })
        let second = waiter("second")
        #expect(await waitUntil { limiter.waitingCount == 2 })
        let third = waiter("third")
        #expect(await waitUntil { limiter.waitingCount == 3 })
        second.cancel()
        await #expect(throws: ErrandError.self) { try await second.value }
        #expect(limiter.waitingCount == 2)
        limiter.release()
        try await first.value
        try await third.value
        #expect(order.withLock { $0 } == ["first", "third"])
        #expect(limiter.running == 0)
    }

    @Test func cancellingAWaiterEndsItsWaitWhileTheSlotStaysTaken() async throws {
        let limiter = ConcurrencyLimiter(limit: 1)
        try await limiter.acquire()
        for _ in 0..<3 {
            let waiter = Task { try await limiter.acquire() }
            #expect(await waitUntil { limiter.waitingCount == 1 })
            waiter.cancel()
            // The handler runs inside cancel(): the place is free before any other task runs.
            #expect(limiter.waitingCount == 0)
            // Only the cancellation can end this wait: the slot is never released meanwhile.
            await #expect {
                try await waiter.value
            } throws: { ($0 as? ErrandError).map { if case .cancelled = $0 { true } else { false } } ?? false }
        }
        #expect(limiter.running == 1)
        limiter.release()
        #expect(limiter.running == 0)
    }

    @Test func withSlotReleasesOnFailure() async throws {
        let limiter = ConcurrencyLimiter(limit: 2)
        struct Failure: Error {}
        await #expect(throws: Failure.self) { try await limiter.withSlot { throw Failure() } }
        #expect(limiter.running == 0)
    }

    @Test func anInvalidLimitIsAClearError() async {
        await #expect {
            try await ConcurrencyLimiter(limit: 0).acquire()
        } throws: { error in
            guard case .invalidRequest = error as? ErrandError else { return false }
            return true
        }
    }
}
