import Errand
import Foundation
import MetMuseum
import Testing
import TestSupport

/// The bulk fetch against the replica: order, skipped objects, rate, cancellation — measured from the server's log.
@Suite("Met bulk fetch on the replica", .enabled(if: TestServer.replica.isUsable))
struct BulkFetchTests {
    @Test(
        "objects come back in the IDs' order; missing and not-valid ones are skipped and reported",
        arguments: TransportKind.allCases)
    func orderAndSkipped(transport: TransportKind) async throws {
        let replica = try ReplicaClient(transport: transport)
        let ids = [7030, ReplicaIDs.missing, 7002, 7001, ReplicaIDs.notValid, 7046, 7002]
        var events: [ObjectFetchEvent] = []
        for try await event in replica.met.objects(ids: ids) { events.append(event) }

        guard case .started(let planned, let matches)? = events.first else {
            Issue.record("the first event is not .started")
            return
        }
        #expect(planned == ids && matches == ids.count)
        guard case .finished(let result)? = events.last else {
            Issue.record("the last event is not .finished")
            return
        }
        #expect(result.objects.map(\.id) == [7030, 7002, 7001, 7046, 7002])
        #expect(result.skipped.map(\.id) == [ReplicaIDs.missing, ReplicaIDs.notValid])
        #expect(result.skipped.map(\.index) == [1, 4])
        guard case .notFound = result.skipped[0].reason, case .notAvailable = result.skipped[1].reason else {
            Issue.record("skipped for the wrong reasons: \(result.skipped.map(\.reason))")
            return
        }
        let progress = events.compactMap(\.progress)
        #expect(progress.map(\.completed) == Array(1...ids.count))
        #expect(progress.last == FanOutProgress(completed: 7, failed: 2, total: 7))
        var fetchedIndices: [Int] = []
        for case .fetched(let object, let index, _) in events {
            #expect(object.id == ids[index])
            fetchedIndices.append(index)
        }
        #expect(fetchedIndices.sorted() == [0, 2, 3, 5, 6])
        #expect(try await replica.requests().count == ids.count)
    }

    @Test("search and fetch the first N objects as one call, meeting the IDs the Met does not serve")
    func searchAndFetch() async throws {
        let replica = try ReplicaClient()
        let result = try await replica.met.searchObjects(SearchQuery("sunflowers"), limit: 10).result()
        #expect(result.matches == 24)
        #expect(result.objects.map(\.id) == [7001, 7002, 7003, 7004, 7005, 7006, 7007, 7008])
        #expect(result.skipped.map(\.id) == [ReplicaIDs.missing, ReplicaIDs.notValid])
        let sent = try await replica.requests()
        #expect(sent.count == 11)
        #expect(sent.first?.path == "/public/collection/v1/search" && sent.first?.query == "q=sunflowers")
    }

    @Test("no IDs finish at once with nothing")
    func noIDs() async throws {
        let replica = try ReplicaClient()
        let result = try await replica.met.objects(ids: []).result()
        #expect(result.objects.isEmpty && result.skipped.isEmpty && result.matches == 0)
        #expect(try await replica.requests().isEmpty)
    }

    @Test("an empty search finishes with no objects and fetches nothing")
    func emptySearch() async throws {
        let replica = try ReplicaClient()
        let result = try await replica.met.searchObjects(SearchQuery("")).result()
        #expect(result.objects.isEmpty && result.skipped.isEmpty && result.matches == 0)
        #expect(try await replica.requests().count == 1)
    }

    @Test("a 403 or a lasting 503 stops the fetch with that error")
    func serviceFailuresStopTheFetch() async throws {
        let replica = try ReplicaClient()
        let ids = [7001, ReplicaIDs.unavailable] + Array(7002...7020)
        await #expect {
            try await replica.met.objects(ids: ids, rate: 20, concurrency: 1).result()
        } throws: { error in
            if case .serviceUnavailable = error as? MetError { return true }
            return false
        }
        // The fetch stopped: not every ID was requested.
        let sent = try await replica.requests()
        #expect(sent.count < ids.count + 2)
        #expect(sent.filter { $0.path.hasSuffix("/\(ReplicaIDs.unavailable)") }.count == 3)
    }

    @Test("a new search on the same client leaves the previous one running: cancelling is the app's choice")
    func searchesAreIndependent() async throws {
        let replica = try ReplicaClient()
        let first = replica.met.searchObjects(SearchQuery("cat"), limit: 4)
        var iterator = first.makeAsyncIterator()
        guard case .started? = try await iterator.next() else {
            Issue.record("the first search did not start")
            return
        }
        let second = replica.met.searchObjects(SearchQuery("cat"), limit: 4)
        var finished: FetchedObjects?
        while let event = try await iterator.next() {
            if case .finished(let result) = event { finished = result }
        }
        #expect(finished?.objects.map(\.id) == [7012, 7013])
        let result = try await second.result()
        #expect(result.objects.map(\.id) == [7012, 7013])
        #expect(result.skipped.map(\.id) == [7412, 7411])
    }

    @Test("bad fetch parameters are reported, not crashed on")
    func invalidParameters() async throws {
        let met = try ReplicaClient().met
        for fetch in [
            met.objects(ids: [7001], rate: 0), met.objects(ids: [7001], concurrency: 0),
            met.searchObjects(SearchQuery("x"), limit: -1),
        ] {
            await #expect {
                try await fetch.result()
            } throws: { error in
                if case .invalidQuery = error as? MetError { return true }
                return false
            }
        }
    }
}

/// The fetch's timing, measured from the server's log; serialized so that the tests do not disturb each other's timing.
@Suite("Met bulk fetch timing on the replica", .serialized, .enabled(if: TestServer.replica.isUsable))
struct BulkFetchTimingTests {
    @Test(
        "at 30 per second, 60 objects take at least 1.7 s and no second holds more than 30",
        arguments: TransportKind.allCases)
    func rateAdherence(transport: TransportKind) async throws {
        let replica = try ReplicaClient(transport: transport)
        let ids = ReplicaIDs.served + ReplicaIDs.served.prefix(14)
        let result = try await replica.met.objects(ids: ids, rate: 30).result()
        #expect(result.objects.count == 60)
        let times = try await replica.requests().map(\.time).sorted()
        try #require(times.count == 60)
        let span = times[59] - times[0]
        #expect(span >= 1.7, "60 requests in \(span) s")
        // The budget's windows are 100 ms longer than a second, so delivery jitter below that cannot put a 31st
        // request into any second at the server.
        let busiest = Self.busiestWindow(times)
        #expect(busiest <= 30, "\(busiest) requests within one second at the server")
        let sentBusiest = Self.busiestWindow(replica.starts.sorted)
        #expect(sentBusiest <= 30, "\(sentBusiest) requests started within one second")
    }

    @Test(
        "the default budget: 400 objects, no second above 80 at the server, within 5.6 s",
        arguments: TransportKind.allCases)
    func defaultBudgetHoldsInEverySecond(transport: TransportKind) async throws {
        let replica = try ReplicaClient(transport: transport)
        let ids = (0..<400).map { ReplicaIDs.served[$0 % ReplicaIDs.served.count] }
        let started = ContinuousClock.now
        let result = try await replica.met.objects(ids: ids).result()
        let elapsed = ContinuousClock.now - started
        #expect(result.objects.map(\.id) == ids)
        let times = try await replica.requests().map(\.time).sorted()
        try #require(times.count == 400)
        let busiest = Self.busiestWindow(times)
        print("400 objects over \(transport): \(elapsed), at most \(busiest) requests in any second at the server")
        #expect(busiest <= 80, "\(busiest) requests within one second at the server")
        #expect(elapsed <= .milliseconds(5_600), "400 objects took \(elapsed)")
    }

    @Test("at the default rate, a fetch stays within a server limit of 80 per second")
    func defaultRateIsPolite() async throws {
        let replica = try ReplicaClient(headers: ["X-Replica-Rate-Limit": "80"])
        let result = try await replica.met.objects(ids: ReplicaIDs.served + ReplicaIDs.served + ReplicaIDs.served)
            .result()
        #expect(result.objects.count == 138)
    }

    @Test("a client's single calls and retries spend its budget as its bulk fetches do")
    func singleCallsAndRetriesSpendTheBudget() async throws {
        let replica = try ReplicaClient()
        let met = MetClient(
            baseURL: replica.base, headers: ["X-Test-ID": replica.testID], retry: ReplicaClient.quickRetry,
            rateLimiter: RateLimiter(limit: 5, per: .milliseconds(250), burst: 5))
        // 10 calls in a row at 5 per 250 ms need one full window after the first 5.
        for id in ReplicaIDs.served.prefix(10) { _ = try await met.object(id: id) }
        let times = try await replica.requests().map(\.time).sorted()
        try #require(times.count == 10)
        #expect(times[9] - times[0] >= 0.24, "10 calls in \(times[9] - times[0]) s")
        #expect(Self.busiestWindow(times, seconds: 0.24) <= 5)

        // Two 503s, then the answer: each retry waits for a turn too, so the third attempt comes a window later.
        let retried = try ReplicaClient()
        let strict = MetClient(
            baseURL: retried.base,
            headers: ["X-Test-ID": retried.testID, "X-Replica-Fault": "503; count=2; key=\(retried.testID)"],
            retry: ReplicaClient.quickRetry, rateLimiter: RateLimiter(limit: 2, per: .milliseconds(300), burst: 2))
        _ = try await strict.object(id: 7001)
        let attempts = try await retried.requests().map(\.time).sorted()
        try #require(attempts.count == 3)
        #expect(
            attempts[2] - attempts[0] >= 0.29, "the third attempt came \(attempts[2] - attempts[0]) s after the first")
    }

    /// The most of the sorted times within any window of `seconds`.
    static func busiestWindow(_ times: [Double], seconds: Double = 1) -> Int {
        times.indices.map { start in times[start...].prefix { $0 < times[start] + seconds }.count }.max() ?? 0
    }

    @Test("going faster than the server allows brings the block page, which stops the fetch")
    func tooFastIsBlocked() async throws {
        let replica = try ReplicaClient(headers: ["X-Replica-Rate-Limit": "20"])
        let fetch = replica.met.objects(ids: ReplicaIDs.served, rate: 1000, concurrency: 8)
        await #expect {
            try await fetch.result()
        } throws: { error in
            if case .blocked = error as? MetError { return true }
            return false
        }
    }

    @Test("cancelling a bulk fetch stops its requests within 100 ms", arguments: TransportKind.allCases)
    func cancellation(transport: TransportKind) async throws {
        let replica = try ReplicaClient(transport: transport)
        let ids = ReplicaIDs.served + ReplicaIDs.served.prefix(14)
        let fetch = replica.met.objects(ids: ids, rate: 30)
        var fetched = 0
        var cancelledAt = 0.0
        do {
            for try await event in fetch {
                guard case .fetched = event else { continue }
                fetched += 1
                if fetched == 10 {
                    cancelledAt = Date().timeIntervalSince1970
                    fetch.cancel()
                }
            }
            Issue.record("the fetch finished although it was cancelled")
        } catch {
            #expect(error.isCancellation)
        }
        // Give any straggler time to reach the server before reading its log.
        try await Task.sleep(for: .milliseconds(400))
        let times = try await replica.requests().map(\.time)
        #expect(times.count < ids.count)
        let late = times.filter { $0 > cancelledAt + 0.1 }
        #expect(late.isEmpty, "\(late.count) requests more than 100 ms after cancelling")
    }

    @Test("a consumer that stops iterating stops the fetch")
    func consumerLeaves() async throws {
        let replica = try ReplicaClient()
        let ids = ReplicaIDs.served
        let fetch = replica.met.objects(ids: ids, rate: 20)
        for try await event in fetch {
            if case .fetched = event { break }
        }
        let stoppedAt = Date().timeIntervalSince1970
        try await Task.sleep(for: .milliseconds(400))
        let times = try await replica.requests().map(\.time)
        #expect(times.count < ids.count)
        #expect(times.allSatisfy { $0 <= stoppedAt + 0.1 })
    }
}
