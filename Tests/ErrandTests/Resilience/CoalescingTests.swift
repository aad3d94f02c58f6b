import Errand
import Foundation
import Testing
import TestSupport

@Suite("Coalescing", .enabled(if: TestServer.fault.isUsable))
struct CoalescingTests {
    @Test("10 identical concurrent GETs make one server hit", arguments: TransportKind.allCases)
    func identicalGetsShareOneTransfer(transport: TransportKind) async throws {
        let fault = try FaultScenario(transport)
        let client = fault.client([CoalescingMiddleware()])
        let request = Request<Data>(path: fault.path("slow"), query: [QueryItem("ms", "2000")])
        // The server holds its answer 2 s, so on a loaded machine the ten callers all join before it comes.
        let bodies = try await withThrowingTaskGroup(of: Data.self) { group in
            for _ in 0..<10 { group.addTask { try await client.send(request).value } }
            return try await group.reduce(into: [Data]()) { $0.append($1) }
        }
        #expect(bodies.count == 10)
        #expect(Set(bodies).count == 1)
        #expect(try await fault.log().count == 1)
    }

    @Test("different requests are not coalesced", arguments: TransportKind.allCases)
    func differentRequestsGoAlone(transport: TransportKind) async throws {
        let fault = try FaultScenario(transport)
        let client = fault.client([CoalescingMiddleware()])
        var other = Request<Data>(path: fault.path("slow"), query: [QueryItem("ms", "300")])
        other.headers["X-Variant"] = "b"
        var alone = Request<Data>(path: fault.path("slow"), query: [QueryItem("ms", "300")])
        alone.options.allowsCoalescing = false
        let requests = [
            Request<Data>(path: fault.path("slow"), query: [QueryItem("ms", "300")]),
            other,
            alone,
            Request<Data>(method: .post, path: fault.path("slow"), query: [QueryItem("ms", "300")]),
            Request<Data>(method: .post, path: fault.path("slow"), query: [QueryItem("ms", "300")]),
        ]
        try await withThrowingTaskGroup(of: Void.self) { group in
            for request in requests { group.addTask { _ = try await client.send(request) } }
            try await group.waitForAll()
        }
        #expect(try await fault.log().count == 5)
    }

    @Test("one caller's cancellation leaves the transfer to the others", arguments: TransportKind.allCases)
    func cancellingOneCallerKeepsTheTransfer(transport: TransportKind) async throws {
        let fault = try FaultScenario(transport)
        let coalescing = CoalescingMiddleware()
        let client = fault.client([coalescing])
        let request = Request<Data>(path: fault.path("slow"), query: [QueryItem("ms", "6000")])
        let callers = (0..<3).map { _ in Task { try await client.send(request).value } }
        #expect(await waitUntil { coalescing.transfersInFlight == 1 })
        // Wait until the shared transfer has reached the server, so it is surely shared.
        #expect(await waitUntil { (try? await fault.stats().count) == 1 })
        callers[0].cancel()
        await #expect(throws: ErrandError.self) { _ = try await callers[0].value }
        // It stopped waiting before the shared transfer ended (the server answers 6 s after it began, long enough for a loaded machine): an order,
        // not a time.
        #expect(coalescing.transfersInFlight == 1)
        let rest = try await [callers[1].value, callers[2].value]
        #expect(rest[0] == rest[1] && !rest[0].isEmpty)
        #expect(try await fault.log().count == 1)
    }

    @Test("cancelling every caller cancels the transfer", arguments: TransportKind.allCases)
    func cancellingEveryCallerCancelsTheTransfer(transport: TransportKind) async throws {
        let fault = try FaultScenario(transport)
        let coalescing = CoalescingMiddleware()
        let recorder = EventRecorder()
        let client = fault.client([coalescing], observers: [recorder])
        let request = Request<Data>(path: fault.path("slow"), query: [QueryItem("ms", "5000")])
        let callers = (0..<2).map { _ in Task { try await client.send(request).value } }
        #expect(await waitUntil { (try? await fault.stats().count) == 1 })
        for caller in callers { caller.cancel() }
        for caller in callers { await #expect(throws: ErrandError.self) { _ = try await caller.value } }
        #expect(coalescing.transfersInFlight == 0)
        // The transport reports the abandoned transfer as cancelled long before the server's 5 s are up.
        await recorder.waitForEvents(1)
        guard case .cancelled? = recorder.recorded.first?.error else {
            Issue.record("the transfer was not cancelled: \(recorder.recorded)")
            return
        }
    }
}
