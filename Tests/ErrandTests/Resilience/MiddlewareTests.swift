import Errand
import Foundation
import Synchronization
import Testing
import TestSupport

@Suite("Auth and adapter middleware", .enabled(if: TestServer.fault.isUsable))
struct MiddlewareTests {
    @Test("N concurrent 401s trigger one refresh, then each request is retried once", arguments: TransportKind.allCases)
    func concurrentUnauthorizedShareOneRefresh(transport: TransportKind) async throws {
        let fault = try FaultScenario(transport)
        let auth = TokenRefreshMiddleware(token: "stale") { rejected in
            #expect(rejected == "stale")
            try await Task.sleep(for: .milliseconds(100))
            return "fresh"
        }
        let client = fault.client([auth])
        let request = Request<Data>(path: fault.path("auth"), query: [QueryItem("token", "fresh")])
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 { group.addTask { try await client.send(request).status } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: 8))
        #expect(auth.refreshCount == 1)
        #expect(auth.token == "fresh")
        let log = try await fault.log()
        let stale = log.filter { $0.header("Authorization") == "Bearer stale" }.count
        let fresh = log.filter { $0.header("Authorization") == "Bearer fresh" }.count
        #expect(fresh == 8)
        #expect(stale >= 1 && stale <= 8)
    }

    @Test("a failed refresh fails the waiting requests, and a later 401 tries again", arguments: TransportKind.allCases)
    func failedRefreshIsReported(transport: TransportKind) async throws {
        let fault = try FaultScenario(transport)
        let attempts = Locked(0)
        let auth = TokenRefreshMiddleware(token: "stale") { _ in
            let attempt = attempts.withLock {
                $0 += 1; return $0
            }
            if attempt == 1 { throw ErrandError.invalidRequest("the refresh token expired") }
            return "fresh"
        }
        let client = fault.client([auth])
        let request = Request<Data>(path: fault.path("auth"), query: [QueryItem("token", "fresh")])
        await #expect {
            _ = try await client.send(request)
        } throws: { error in
            guard case .invalidRequest(let reason) = error as? ErrandError else { return false }
            return reason.contains("expired")
        }
        #expect(try await client.send(request).status == 200)
        #expect(auth.refreshCount == 2)
    }

    @Test("API keys and adapters shape the request; hooks see the response", arguments: TransportKind.allCases)
    func adaptersAndHooks(transport: TransportKind) async throws {
        let fault = try FaultScenario(transport)
        let seen = Locked<[Int]>([])
        let client = fault.client([
            APIKey("k-123", in: .header("X-API-Key")),
            APIKey("q 1&2", in: .query("apikey")),
            RequestAdapter { $0.headers["X-Trace"] = "t-1" },
            ResponseHook { _, response in
                seen.withLock { $0.append(response.status) }
                return response
            },
        ])
        _ = try await client.send(Request<Data>(path: fault.path("ok"), query: [QueryItem("a", "b")]))
        let entry = try #require(try await fault.log().first)
        #expect(entry.header("X-API-Key") == "k-123")
        #expect(entry.header("X-Trace") == "t-1")
        #expect(entry.query == "a=b&apikey=q%201%262")
        #expect(seen.withLock { $0 } == [200])
    }

    @Test("the resilient chain passes requests through untouched when nothing fails", arguments: TransportKind.allCases)
    func resilientChainIsTransparent(transport: TransportKind) async throws {
        let fault = try FaultScenario(transport)
        let recorder = EventRecorder()
        let client = fault.client(
            Resilience.middleware(
                rateLimiter: RateLimiter(rate: 10_000, burst: 100), maxConcurrent: 4, coalesces: true),
            observers: [recorder])
        for _ in 0..<5 { #expect(try await client.send(Request<Data>(path: fault.path("ok"))).status == 200) }
        #expect(try await fault.log().count == 5)
        #expect(recorder.attempts == [1, 1, 1, 1, 1])
    }

    @Test("the one-expression chain retries and limits like the separate middleware", arguments: TransportKind.allCases)
    func resilientChainRetriesAndLimits(transport: TransportKind) async throws {
        let fault = try FaultScenario(transport)
        let recorder = EventRecorder()
        let policy = RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(20), jitter: .none)
        let client = fault.client(
            Resilience.middleware(retry: policy, rateLimiter: RateLimiter(rate: 1_000, burst: 20), maxConcurrent: 2),
            observers: [recorder])
        #expect(try await client.send(Request<Data>(path: fault.path("fail", "2", "503"))).status == 200)
        #expect(recorder.attempts == [1, 2, 3])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    _ = try await client.send(Request<Data>(path: fault.path("slow"), query: [QueryItem("ms", "40")]))
                }
            }
            try await group.waitForAll()
        }
        #expect(try await fault.stats().maxInFlight <= 2)
    }
}
