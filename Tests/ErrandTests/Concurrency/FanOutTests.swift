import Errand
import ErrandTesting
import Foundation
import Synchronization
import Testing
import TestSupport

@Suite("Fan-out")
struct FanOutTests {
    struct Echo: Decodable, Sendable {
        struct Query: Decodable, Sendable { var id: String }
        var query: Query
    }

    @Test(
        "200 ids with 5% failures: 200 results in input order, progress to the end",
        .enabled(if: TestServer.fault.isUsable), arguments: TransportKind.allCases)
    func everyIdGetsOneResultInOrder(transport: TransportKind) async throws {
        let fault = try FaultScenario(transport)
        let client = fault.client()
        let ids = Array(1...200)
        let limiter = RateLimiter(rate: 2_000, burst: 20)
        let fanOut = FanOut(ids, maxConcurrent: 8, rateLimiter: limiter) { id -> Int in
            let path = id % 20 == 0 ? fault.path("status", "404") : fault.path("ok")
            let echo = try await client.send(Request<Echo>(path: path, query: [QueryItem("id", String(id))])).value
            return Int(echo.query.id) ?? -1
        }
        let run = fanOut.start()
        let reports = Task { await run.progress.reduce(into: [FanOutProgress]()) { $0.append($1) } }
        let results = await run.results()

        #expect(results.map(\.id) == ids)
        for item in results {
            if item.id % 20 == 0 {
                #expect(item.error?.status == 404, "id \(item.id): \(item.result)")
            } else {
                #expect(item.value == item.id)
            }
        }
        let progress = await reports.value
        #expect(progress.last == FanOutProgress(completed: 200, failed: 10, total: 200))
        #expect(progress.map(\.completed) == Array(0...200))
        #expect(try await fault.log().count == 200)
    }

    @Test(
        "no more than maxConcurrent fetches at once", .enabled(if: TestServer.fault.isUsable),
        arguments: TransportKind.allCases)
    func respectsMaxConcurrent(transport: TransportKind) async throws {
        let fault = try FaultScenario(transport)
        let client = fault.client()
        let results = await FanOut(Array(0..<24), maxConcurrent: 4) { _ in
            try await client.send(Request<Data>(path: fault.path("slow"), query: [QueryItem("ms", "30")])).status
        }.results()
        #expect(results.allSatisfy { $0.value == 200 })
        let stats = try await fault.stats()
        #expect(stats.maxInFlight <= 4)
    }

    @Test func duplicateIdsEachGetTheirOwnResult() async {
        let results = await FanOut([3, 1, 3, 2], maxConcurrent: 2) { id in id * 10 }.results()
        #expect(results.map(\.id) == [3, 1, 3, 2])
        #expect(results.map(\.value) == [30, 10, 30, 20])
    }

    @Test func cancellationStillGivesEveryIdAnOutcome() async throws {
        let clock = ManualClock()
        let fanOut = FanOut(Array(0..<50), maxConcurrent: 2) { id -> Int in
            try await clock.sleep(for: .seconds(30))
            return id
        }
        let run = fanOut.start()
        await clock.sleepers(2)
        run.cancel()
        // Only the cancellation can end the operations' 30 s: the clock never moves.
        let results = await run.results()
        #expect(clock.now.offset == .zero && clock.sleeperCount == 0)
        #expect(results.map(\.id) == Array(0..<50))
        #expect(results.allSatisfy { if case .cancelled? = $0.error { true } else { false } })
    }
}
