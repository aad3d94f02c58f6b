#if canImport(CCurl)
@testable import Errand
import Foundation
import TestSupport
import Testing

/// The loop with real servers: admission to the multi handle, and what leaves its queue.
@Suite("Curl transport: the loop and its connection slots")
struct CurlLoopTests {
    /// A transport with `slots` connections per host.
    private static func transport(slots: Int) -> CurlTransport {
        CurlTransport(configuration: .init(caBundle: TestServer.certificateAuthority, maxConnectionsPerHost: slots))
    }

    @Test(
        "bursts of concurrent requests and lone ones all complete, leaving nothing behind",
        .enabled(if: TestServer.nginxHTTP.isUsable))
    func burstsComplete() async throws {
        let transport = Self.transport(slots: 4)
        let small = try CurlTest.request(.nginxHTTP, "/small.json")
        for _ in 0..<10 {
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<24 { group.addTask { try await transport.send(small).status } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: 200, count: 24))
            #expect(try await transport.send(small).status == 200)
        }
        #expect(transport.loop.unfinished.load(ordering: .relaxed) == 0)
    }

    @Test(
        "more requests than slots share the host's connections: at most that many are opened",
        .enabled(if: TestServer.nginxHTTP.isUsable))
    func slotsBoundConnections() async throws {
        let transport = Self.transport(slots: 2)
        let small = try CurlTest.request(.nginxHTTP, "/small.json")
        let metrics = try await withThrowingTaskGroup(of: TransferMetrics.self) { group in
            for _ in 0..<40 { group.addTask { try await transport.send(small).metrics } }
            return try await group.reduce(into: [TransferMetrics]()) { $0.append($1) }
        }
        #expect(metrics.count == 40)
        #expect(metrics.filter { $0.connectionReused == false }.count <= 2)
    }

    // Measures real time: the transport's own timer or cancellation on the wire is what is tested; the bound is generous.
    @Test(
        "a cancelled request waiting for a slot leaves the queue long before the slot frees (real time)",
        .enabled(if: TestServer.httpbin.isUsable))
    func cancelWhileQueuedRealTime() async throws {
        let transport = Self.transport(slots: 1)
        let slow = try CurlTest.request(.httpbin, "/delay/3")
        let occupying = Task { try await transport.send(slow) }
        // The slow request must hold the slot before the next one queues behind it.
        #expect(await waitUntil { transport.loop.unfinished.load(ordering: .relaxed) == 1 })
        let queued = Task { try await transport.send(CurlTest.request(.httpbin, "/get")) }
        #expect(await waitUntil { transport.loop.unfinished.load(ordering: .relaxed) == 2 })
        let clock = ContinuousClock()
        let cancelled = clock.now
        queued.cancel()
        let result = await queued.result
        #expect(clock.now - cancelled < .seconds(2))
        guard case .failure(let error) = result, case .cancelled? = error as? ErrandError else {
            Issue.record("the queued request was not cancelled: \(result)")
            return
        }
        occupying.cancel()
        _ = await occupying.result
    }

    // Measures real time: the transport's own timer or cancellation on the wire is what is tested; the bound is generous.
    @Test(
        "the total timeout covers the time spent waiting for a slot (real time)",
        .enabled(if: TestServer.httpbin.isUsable))
    func totalTimeoutWhileQueuedRealTime() async throws {
        let transport = Self.transport(slots: 1)
        let occupying = Task { try await transport.send(CurlTest.request(.httpbin, "/delay/3")) }
        #expect(await waitUntil { transport.loop.unfinished.load(ordering: .relaxed) == 1 })
        let clock = ContinuousClock()
        let started = clock.now
        let error = await #expect(throws: ErrandError.self) {
            try await transport.send(CurlTest.request(.httpbin, "/get", timeouts: Timeouts(total: .milliseconds(300))))
        }
        #expect(error.flatMap(CurlTest.failureKind) == .timedOut)
        #expect(clock.now - started < .milliseconds(2_500))
        occupying.cancel()
        _ = await occupying.result
    }

    @Test(
        "a redirect to another host waits for that host's slot and still completes",
        .enabled(if: TestServer.httpbin.isUsable))
    func redirectAcrossHosts() async throws {
        let transport = Self.transport(slots: 1)
        var other = try #require(URLComponents(url: try TestServer.httpbin.url(), resolvingAgainstBaseURL: false))
        other.host = "localhost"
        other.path = "/get"
        let target = try #require(other.url).absoluteString
        let client = APIClient(
            configuration: ClientConfiguration(baseURL: try TestServer.httpbin.url(), transport: transport))
        let request = Request<Data>(path: "redirect-to", query: [QueryItem("url", target)])
        let responses = try await withThrowingTaskGroup(of: Response<Data>.self) { group in
            for _ in 0..<6 { group.addTask { try await client.send(request) } }
            return try await group.reduce(into: [Response<Data>]()) { $0.append($1) }
        }
        #expect(responses.map(\.status) == Array(repeating: 200, count: 6))
        #expect(responses.allSatisfy { $0.url.host == "localhost" && $0.metrics.redirectCount == 1 })
        #expect(transport.loop.unfinished.load(ordering: .relaxed) == 0)
    }

    @Test(
        "over HTTP/2 the host's slots become streams: more requests than connections run at once",
        .enabled(if: TestServer.nginxHTTPS.isUsable))
    func multiplexedHostAdmitsStreams() async throws {
        let transport = Self.transport(slots: 1)
        let request = try CurlTest.request(.nginxHTTPS, "/small.json")
        _ = try await transport.send(request)
        let metrics = try await withThrowingTaskGroup(of: TransferMetrics.self) { group in
            for _ in 0..<32 { group.addTask { try await transport.send(request).metrics } }
            return try await group.reduce(into: [TransferMetrics]()) { $0.append($1) }
        }
        #expect(metrics.allSatisfy { $0.httpVersion == "2" && $0.connectionReused == true })
    }
}
#endif
