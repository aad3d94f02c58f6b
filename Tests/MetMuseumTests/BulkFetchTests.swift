import Errand
import ErrandTesting
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
        #expect(result.objects.map(\.objectID) == [7030, 7002, 7001, 7046, 7002])
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
            #expect(object.objectID == ids[index])
            fetchedIndices.append(index)
        }
        #expect(fetchedIndices.sorted() == [0, 2, 3, 5, 6])
        #expect(try await replica.requests().count == ids.count)
    }

    @Test("search and fetch the first N objects as one call, the IDs the Met does not serve replaced by the next")
    func searchAndFetch() async throws {
        let search = try await ReplicaClient().met.search(SearchQuery("sunflowers"))
        let served = search.ids.filter { $0 != ReplicaIDs.missing && $0 != ReplicaIDs.notValid }
        let replica = try ReplicaClient()
        let result = try await replica.met.searchObjects(SearchQuery("sunflowers"), limit: 10).result()
        #expect(result.matches == 24)
        #expect(result.objects.map(\.objectID) == Array(served.prefix(10)))
        #expect(result.skipped.map(\.id) == [ReplicaIDs.missing, ReplicaIDs.notValid])
        let sent = try await replica.requests()
        #expect(sent.count == 1 + 12)
        #expect(sent.first?.path == "/public/collection/v1/search" && sent.first?.query == "q=sunflowers")
        // The replacements are the next IDs in search order, each fetched once.
        let fetched = sent.dropFirst().compactMap { Int($0.path.split(separator: "/").last ?? "") }
        #expect(fetched.sorted() == Array(search.ids.prefix(12)).sorted())
    }

    @Test("a search delivers the limit when it has that many objects to serve, and every one when it has fewer")
    func searchDeliversTheLimit() async throws {
        let replica = try ReplicaClient()
        let search = try await replica.met.search(SearchQuery("sunflowers"))
        let served = search.ids.filter { $0 != ReplicaIDs.missing && $0 != ReplicaIDs.notValid }
        #expect(served.count == 22)

        let twenty = try await replica.met.searchObjects(SearchQuery("sunflowers"), limit: 20).result()
        #expect(twenty.objects.count == 20)
        #expect(twenty.objects.map(\.objectID) == Array(served.prefix(20)))

        var events: [ObjectFetchEvent] = []
        for try await event in replica.met.searchObjects(SearchQuery("sunflowers"), limit: 30) { events.append(event) }
        guard case .started(let planned, _)? = events.first, case .finished(let all)? = events.last else {
            Issue.record("the events do not start with .started and end with .finished")
            return
        }
        #expect(planned == search.ids)
        #expect(all.objects.map(\.objectID) == served)
        #expect(events.compactMap(\.progress).last == FanOutProgress(completed: 24, failed: 2, total: 24))
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
        // Two of the first four IDs are not served: the next two matches take their places.
        #expect(finished?.objects.map(\.objectID) == [7012, 7013, 7014, 7015])
        let result = try await second.result()
        #expect(result.objects.map(\.objectID) == [7012, 7013, 7014, 7015])
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

/// The fetch's pace on a manual clock (exact, and in no real time), and what the server sees in real time.
///
/// Serialized, so that the real-time tests' requests do not share the replica with one another.
@Suite("Met bulk fetch timing on the replica", .serialized, .enabled(if: TestServer.replica.isUsable))
struct BulkFetchTimingTests {
    @Test(
        "at 30 per second, 60 objects take 1.7 to 2.5 s of the fetch's clock, and all reach the server",
        arguments: TransportKind.allCases)
    func rateAdherence(transport: TransportKind) async throws {
        let clock = ManualClock()
        let replica = try ReplicaClient(transport: transport, clock: clock)
        let ids = ReplicaIDs.served + ReplicaIDs.served.prefix(14)
        let met = replica.met
        let result = try await clock.run { try await met.objects(ids: ids, rate: 30).result() }
        #expect(result.objects.count == 60)
        try #require(try await replica.requests().count == 60)
        // The clock moves only while the budget holds a request back, so it stops at the last start: 30 in the
        // first window of 1.1 s, the other 30 in the next.
        let span = clock.now.offset
        #expect(span >= .milliseconds(1_700) && span < .milliseconds(2_500), "60 starts took \(span)")
    }

    @Test(
        "the default budget: 400 objects take 5 to 5.6 s of the fetch's clock", arguments: TransportKind.allCases)
    func defaultBudgetPace(transport: TransportKind) async throws {
        let clock = ManualClock()
        let replica = try ReplicaClient(transport: transport, clock: clock)
        let ids = (0..<400).map { ReplicaIDs.served[$0 % ReplicaIDs.served.count] }
        let met = replica.met
        let result = try await clock.run { try await met.objects(ids: ids).result() }
        #expect(result.objects.map(\.objectID) == ids)
        #expect(try await replica.requests().count == 400)
        let span = clock.now.offset
        #expect(span >= .seconds(5) && span <= .milliseconds(5_600), "400 objects took \(span) on the clock")
    }

    // Measures real time: what counts is when the requests reach the server, jitter of the network and the machine
    // included; that is what the budget's 100 ms allowance is for.
    @Test(
        "the default budget: 400 objects, no second above 80 at the server (real time)",
        arguments: TransportKind.allCases)
    func defaultBudgetHoldsInEverySecondRealTime(transport: TransportKind) async throws {
        let replica = try ReplicaClient(transport: transport)
        let ids = (0..<400).map { ReplicaIDs.served[$0 % ReplicaIDs.served.count] }
        let result = try await replica.met.objects(ids: ids).result()
        #expect(result.objects.map(\.objectID) == ids)
        let times = try await replica.requests().map(\.time).sorted()
        try #require(times.count == 400)
        let busiest = Self.busiestWindow(times)
        #expect(busiest <= 80, "\(busiest) requests within one second at the server")
    }

    // Measures real time: the replica counts requests per second of its own clock.
    @Test("at the default rate, a fetch stays within a server limit of 80 per second (real time)")
    func defaultRateIsPoliteRealTime() async throws {
        let replica = try ReplicaClient(headers: ["X-Replica-Rate-Limit": "80"])
        let result = try await replica.met.objects(ids: ReplicaIDs.served + ReplicaIDs.served + ReplicaIDs.served)
            .result()
        #expect(result.objects.count == 138)
    }

    @Test("a client's single calls and retries spend its budget as its bulk fetches do")
    func singleCallsAndRetriesSpendTheBudget() async throws {
        let clock = ManualClock()
        let replica = try ReplicaClient(
            rateLimiter: RateLimiter(limit: 5, per: .milliseconds(250), burst: 5, clock: clock), clock: clock)
        // 10 calls in a row at 5 per 250 ms: five at once, five when the first leave the window.
        var starts: [Duration] = []
        for id in ReplicaIDs.served.prefix(10) {
            _ = try await clock.run { try await replica.met.object(id: id) }
            starts.append(clock.now.offset)
        }
        #expect(starts == Array(repeating: .zero, count: 5) + Array(repeating: .milliseconds(250), count: 5))
        #expect(try await replica.requests().count == 10)

        // Two 503s, then the answer: each retry waits for a turn too, so the third attempt comes a window later.
        let retryClock = ManualClock()
        let retried = try ReplicaClient(
            // Without the 503's Retry-After, so the retries wait the policy's backoff, as this test counts.
            headers: ["X-Replica-Fault": "503; count=2; key=\(UUID().uuidString); retry-after=none"],
            rateLimiter: RateLimiter(limit: 2, per: .milliseconds(300), burst: 2, clock: retryClock), clock: retryClock)
        _ = try await retryClock.run { try await retried.met.object(id: 7001) }
        #expect(try await retried.requests().count == 3)
        // Attempts at 0 and 5 ms (the quick retry's backoff), the third when the first leaves the 300 ms window.
        #expect(retryClock.now.offset == .milliseconds(300))
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

    // Measures real time: that no request reaches the server after the cancellation can only be seen by waiting a
    // while (a second) for one; requests already on their way get 300 ms.
    @Test("cancelling a bulk fetch stops its requests (real time)", arguments: TransportKind.allCases)
    func cancellationRealTime(transport: TransportKind) async throws {
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
        // A fetch that went on would send one every 33 ms meanwhile.
        try await Task.sleep(for: .seconds(1))
        let times = try await replica.requests().map(\.time)
        #expect(times.count < ids.count)
        let late = times.filter { $0 > cancelledAt + 0.3 }
        #expect(late.isEmpty, "\(late.count) requests more than 300 ms after cancelling")
    }

    // Measures real time, as the cancellation test does.
    @Test("a consumer that stops iterating stops the fetch (real time)")
    func consumerLeavesRealTime() async throws {
        let replica = try ReplicaClient()
        let ids = ReplicaIDs.served
        let fetch = replica.met.objects(ids: ids, rate: 20)
        for try await event in fetch {
            if case .fetched = event { break }
        }
        let stoppedAt = Date().timeIntervalSince1970
        // A fetch that went on would send one every 50 ms meanwhile.
        try await Task.sleep(for: .seconds(1))
        let times = try await replica.requests().map(\.time)
        #expect(times.count < ids.count)
        #expect(times.allSatisfy { $0 <= stoppedAt + 0.3 })
    }
}
