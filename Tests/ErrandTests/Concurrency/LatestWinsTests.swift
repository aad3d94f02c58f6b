import Errand
import ErrandTesting
import Foundation
import Synchronization
import Testing
import TestSupport

@Suite("Latest wins")
struct LatestWinsTests {
    struct Echo: Decodable, Sendable {
        struct Query: Decodable, Sendable { var q: String }
        var query: Query
    }

    @Test(
        "a new query cancels the one in flight; only the newest result arrives",
        .enabled(if: TestServer.fault.isUsable), arguments: TransportKind.allCases)
    func newestQueryWins(transport: TransportKind) async throws {
        let fault = try FaultScenario(transport)
        let recorder = EventRecorder()
        let client = fault.client(observers: [recorder])
        let search = LatestWins<String>()
        func query(_ text: String, ms: Int) -> Task<String, any Error> {
            Task {
                try await search.run {
                    let request = Request<Echo>(
                        path: fault.path("slow"), query: [QueryItem("ms", String(ms)), QueryItem("q", text)])
                    return try await client.send(request).value.query.q
                }
            }
        }
        let stale = query("pas", ms: 8_000)
        #expect(await waitUntil { (try? await fault.stats().count) == 1 })
        let fresh = try await query("pasta", ms: 50).value
        #expect(fresh == "pasta")
        await #expect {
            _ = try await stale.value
        } throws: { if case .cancelled? = $0 as? ErrandError { true } else { false } }
        // The stale transfer itself was cancelled, not left to finish: had it run to the server's answer, 8 s on,
        // it would have ended with a status.
        await recorder.waitForEvents(2)
        let outcomes = recorder.recorded.map { event in
            event.error.map { if case .cancelled = $0 { "cancelled" } else { "failed" } } ?? "\(event.status ?? 0)"
        }
        #expect(outcomes.sorted() == ["200", "cancelled"])
    }

    @Test func aSupersededResultIsNeverDelivered() async throws {
        let search = LatestWins<String>()
        let gate = Gate()
        // The first operation ignores cancellation and finishes after the second: its value must still be dropped.
        let stale = Task {
            try await search.run {
                await gate.wait(); return "stale"
            }
        }
        #expect(await waitUntil { gate.isWaiting })
        let fresh = try await search.run { "fresh" }
        gate.open()
        #expect(fresh == "fresh")
        await #expect {
            _ = try await stale.value
        } throws: { if case .cancelled? = $0 as? ErrandError { true } else { false } }
    }

    @Test(
        "with a debounce, fast typing sends one request", .enabled(if: TestServer.fault.isUsable),
        arguments: TransportKind.allCases)
    func debounceSendsOnlyTheLastQuery(transport: TransportKind) async throws {
        let fault = try FaultScenario(transport)
        let client = fault.client()
        let clock = ManualClock()
        let search = LatestWins<String>(debounce: .milliseconds(200), clock: clock)
        var typed: [Task<String, any Error>] = []
        for text in ["p", "pa", "pas", "past", "pasta"] {
            typed.append(
                Task {
                    try await search.run {
                        try await client.send(Request<Echo>(path: fault.path("ok"), query: [QueryItem("q", text)]))
                            .value.query.q
                    }
                })
            // Each keystroke replaces the previous one; the clock stands still, so no debounce is over yet.
            #expect(await waitUntil { search.generation >= typed.count })
        }
        let last = try #require(typed.last)
        #expect(try await clock.run { try await last.value } == "pasta")
        // One debounce, the last keystroke's.
        #expect(clock.now.offset == .milliseconds(200))
        for task in typed.dropLast() {
            await #expect(throws: ErrandError.self) { _ = try await task.value }
        }
        let log = try await fault.log()
        #expect(log.count == 1)
        #expect(log.first?.query == "q=pasta")
    }

    @Test func cancellingTheCallerEndsTheOperation() async throws {
        let search = LatestWins<Int>()
        let clock = ManualClock()
        for _ in 0..<3 {
            let task = Task {
                try await search.run {
                    try await clock.sleep(for: .seconds(30)); return 1
                }
            }
            await clock.sleepers(1)
            task.cancel()
            // Only the cancellation can end the operation's 30 s: the clock never moves.
            await #expect {
                _ = try await task.value
            } throws: { if case .cancelled? = $0 as? ErrandError { true } else { false } }
            #expect(clock.sleeperCount == 0)
        }
        #expect(clock.now.offset == .zero)
    }
}

/// A door an operation waits at, deaf to cancellation, until the test opens it.
final class Gate: Sendable {
    private struct State {
        var isOpen = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Locked(State())

    var isWaiting: Bool { state.withLock { $0.waiter != nil } }

    func wait() async {
        await withCheckedContinuation { continuation in
            let passes = state.withLock { state in
                if state.isOpen { return true }
                state.waiter = continuation
                return false
            }
            if passes { continuation.resume() }
        }
    }

    func open() {
        let waiter = state.withLock { state in
            state.isOpen = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }
}
