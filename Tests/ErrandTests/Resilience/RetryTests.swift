import Errand
import Foundation
import Testing
import TestSupport

/// Retry against the fault server: exact attempt counts from its log, spacing within generous tolerances.
@Suite("Retry", .enabled(if: TestServer.fault.isUsable))
struct RetryTests {
    /// Predictable delays: no jitter, short base.
    static func policy(attempts: Int = 3, base: Duration = .milliseconds(50), cap: Duration = .seconds(1))
        -> RetryPolicy
    {
        RetryPolicy(maxAttempts: attempts, baseDelay: base, maxDelay: cap, jitter: .none)
    }

    @Test("a 503 twice, then success: three attempts, each reported", arguments: TransportKind.allCases)
    func retriesUntilSuccess(transport: TransportKind) async throws {
        let fault = try FaultScenario(transport)
        let recorder = EventRecorder()
        let client = fault.client([RetryMiddleware(policy: Self.policy())], observers: [recorder])
        let response = try await client.send(Request<Data>(path: fault.path("fail", "2", "503")))
        #expect(response.status == 200)
        #expect(try await fault.log().count == 3)
        #expect(recorder.attempts == [1, 2, 3])
        #expect(recorder.recorded.map(\.status) == [503, 503, 200])
    }

    @Test("every retryable status is retried", arguments: TransportKind.allCases, [408, 425, 429, 500, 502, 503, 504])
    func retriesEachRetryableStatus(transport: TransportKind, status: Int) async throws {
        let fault = try FaultScenario(transport)
        let client = fault.client([RetryMiddleware(policy: Self.policy())])
        _ = try await client.send(Request<Data>(path: fault.path("fail", "1", String(status))))
        #expect(try await fault.log().count == 2)
    }

    @Test("retries stop at maxAttempts and the last status is reported", arguments: TransportKind.allCases)
    func stopsAtMaxAttempts(transport: TransportKind) async throws {
        let fault = try FaultScenario(transport)
        let client = fault.client([RetryMiddleware(policy: Self.policy(attempts: 4))])
        await #expect {
            _ = try await client.send(Request<Data>(path: fault.path("fail", "10", "500")))
        } throws: { ($0 as? ErrandError)?.status == 500 }
        #expect(try await fault.log().count == 4)
    }

    @Test("404 is not retried", arguments: TransportKind.allCases)
    func doesNotRetryClientErrors(transport: TransportKind) async throws {
        let fault = try FaultScenario(transport)
        let client = fault.client([RetryMiddleware(policy: Self.policy())])
        await #expect(throws: ErrandError.self) {
            _ = try await client.send(Request<Data>(path: fault.path("fail", "1", "404")))
        }
        #expect(try await fault.log().count == 1)
    }

    @Test("exponential backoff doubles up to the cap", arguments: TransportKind.allCases)
    func backoffSpacing(transport: TransportKind) async throws {
        let fault = try FaultScenario(transport)
        let policy = Self.policy(attempts: 4, base: .milliseconds(200), cap: .milliseconds(300))
        let client = fault.client([RetryMiddleware(policy: policy)])
        _ = try await client.send(Request<Data>(path: fault.path("fail", "3", "502")))
        let gaps = try await fault.gaps()
        try #require(gaps.count == 3)
        for (gap, expected) in zip(gaps, [0.2, 0.3, 0.3]) {
            #expect(gap >= expected - 0.02, "gap \(gap) shorter than the backoff \(expected)")
            #expect(gap < expected + 0.5, "gap \(gap) much longer than the backoff \(expected)")
        }
    }

    @Test("full jitter never waits longer than the exponential delay", arguments: TransportKind.allCases)
    func fullJitterStaysWithinBounds(transport: TransportKind) async throws {
        let fault = try FaultScenario(transport)
        let policy = RetryPolicy(
            maxAttempts: 4, baseDelay: .milliseconds(100), maxDelay: .milliseconds(150), jitter: .full)
        let client = fault.client([RetryMiddleware(policy: policy)])
        _ = try await client.send(Request<Data>(path: fault.path("fail", "3", "503")))
        let gaps = try await fault.gaps()
        try #require(gaps.count == 3)
        for (gap, bound) in zip(gaps, [0.1, 0.15, 0.15]) {
            #expect(gap < bound + 0.6, "gap \(gap) above the jitter bound \(bound)")
        }
    }

    @Test("Retry-After in seconds is waited for", arguments: TransportKind.allCases)
    func honoursRetryAfterSeconds(transport: TransportKind) async throws {
        let fault = try FaultScenario(transport)
        let client = fault.client([RetryMiddleware(policy: Self.policy())])
        let response = try await client.send(
            Request<Data>(path: fault.path("fail", "1", "503"), query: [QueryItem("retry_after", "1")]))
        #expect(response.status == 200)
        let gaps = try await fault.gaps()
        try #require(gaps.count == 1)
        #expect(gaps[0] >= 0.98 && gaps[0] < 1.8, "waited \(gaps[0]) s for Retry-After: 1")
    }

    @Test("Retry-After as an HTTP-date is waited for", arguments: TransportKind.allCases)
    func honoursRetryAfterDate(transport: TransportKind) async throws {
        let fault = try FaultScenario(transport)
        let client = fault.client([RetryMiddleware(policy: Self.policy())])
        let response = try await client.send(
            Request<Data>(path: fault.path("fail", "1", "429"), query: [QueryItem("retry_after_date", "1")]))
        #expect(response.status == 200)
        let gaps = try await fault.gaps()
        try #require(gaps.count == 1)
        // The date names a whole second between 1 and 2 s ahead.
        #expect(gaps[0] >= 0.95 && gaps[0] < 3, "waited \(gaps[0]) s for a date about 1–2 s ahead")
    }

    @Test("a Retry-After beyond the maximum wait returns the response at once", arguments: TransportKind.allCases)
    func retryAfterBeyondTheCapIsNotWaitedFor(transport: TransportKind) async throws {
        let fault = try FaultScenario(transport)
        var policy = Self.policy()
        policy.maxRetryAfter = .seconds(5)
        let client = fault.client([RetryMiddleware(policy: policy)])
        let (_, elapsed) = await measure {
            await #expect {
                _ = try await client.send(
                    Request<Data>(path: fault.path("fail", "1", "503"), query: [QueryItem("retry_after", "120")]))
            } throws: { ($0 as? ErrandError)?.status == 503 }
        }
        #expect(elapsed < .seconds(2))
        #expect(try await fault.log().count == 1)
    }

    @Test("POST is not retried by default", arguments: TransportKind.allCases)
    func doesNotRetryPost(transport: TransportKind) async throws {
        let fault = try FaultScenario(transport)
        let client = fault.client([RetryMiddleware(policy: Self.policy())])
        await #expect {
            _ = try await client.send(
                Request<Data>(method: .post, path: fault.path("fail", "1", "503"), body: .json(["a": 1])))
        } throws: { ($0 as? ErrandError)?.status == 503 }
        #expect(try await fault.log().count == 1)
    }

    @Test("POST is retried when the request or the policy opts in", arguments: TransportKind.allCases)
    func retriesPostWhenOptedIn(transport: TransportKind) async throws {
        let fault = try FaultScenario(transport)
        let client = fault.client([RetryMiddleware(policy: Self.policy())])
        var request = Request<Data>(method: .post, path: fault.path("fail", "1", "503"), body: .json(["a": 1]))
        request.options.isIdempotent = true
        #expect(try await client.send(request).status == 200)
        #expect(try await fault.log().count == 2)

        var policy = Self.policy()
        policy.retriesNonIdempotentMethods = true
        let other = try FaultScenario(transport)
        let optedIn = other.client([RetryMiddleware(policy: policy)])
        let patch = Request<Data>(method: .patch, path: other.path("fail", "1", "500"), body: .json(["a": 1]))
        #expect(try await optedIn.send(patch).status == 200)
        #expect(try await other.log().count == 2)
    }

    @Test("a 403 HTML page is blocked: not retried, its own error", arguments: TransportKind.allCases)
    func blockedIsNotRetried(transport: TransportKind) async throws {
        let fault = try FaultScenario(transport)
        // Even a policy that lists 403 does not retry a bot-protection page.
        var policy = Self.policy()
        policy.retryableStatuses.insert(403)
        let client = fault.client([RetryMiddleware(policy: policy)])
        await #expect {
            _ = try await client.send(Request<Data>(path: fault.path("fail", "3", "403")))
        } throws: { error in
            guard case .blocked(let failure) = error as? ErrandError else { return false }
            return failure.status == 403
        }
        #expect(try await fault.log().count == 1)
    }

    @Test("a reset connection is retried", arguments: TransportKind.allCases)
    func retriesResetConnections(transport: TransportKind) async throws {
        let fault = try FaultScenario(transport)
        let recorder = EventRecorder()
        let client = fault.client([RetryMiddleware(policy: Self.policy())], observers: [recorder])
        await #expect {
            _ = try await client.send(Request<Data>(path: fault.path("reset")))
        } throws: { error in
            guard case .transport(let failure) = error as? ErrandError else { return false }
            return [.connectionLost, .cannotConnect].contains(failure.kind)
        }
        #expect(recorder.attempts == [1, 2, 3])
        // A transport may itself repeat an idempotent request once on a dead connection; never more.
        let hits = try await fault.log().count
        #expect(hits >= 3 && hits <= 6, "\(hits) requests for 3 attempts")
    }

    @Test("a refused connection is retried", arguments: TransportKind.allCases)
    func retriesRefusedConnections(transport: TransportKind) async throws {
        let recorder = EventRecorder()
        let closed = try ClosedPort()
        let client = APIClient(
            configuration: ClientConfiguration(
                baseURL: closed.url, transport: transport.make(), middleware: [RetryMiddleware(policy: Self.policy())],
                observers: [recorder]))
        await #expect {
            _ = try await client.send(Request<Data>(path: "nothing"))
        } throws: { ($0 as? ErrandError)?.isTransport(.cannotConnect) == true }
        #expect(recorder.attempts == [1, 2, 3])
    }

    @Test("a timeout is retried", arguments: TransportKind.allCases)
    func retriesTimeouts(transport: TransportKind) async throws {
        let fault = try FaultScenario(transport)
        let client = fault.client([RetryMiddleware(policy: Self.policy(attempts: 2))], timeout: .milliseconds(300))
        await #expect {
            _ = try await client.send(Request<Data>(path: fault.path("stall"), query: [QueryItem("seconds", "3")]))
        } throws: { ($0 as? ErrandError)?.isTransport(.timedOut) == true }
        #expect(try await fault.log().count == 2)
    }

    @Test("the overall deadline ends retries", arguments: TransportKind.allCases)
    func deadlineEndsRetries(transport: TransportKind) async throws {
        let fault = try FaultScenario(transport)
        var policy = Self.policy(attempts: 10, base: .milliseconds(300), cap: .milliseconds(300))
        policy.deadline = .seconds(1)
        let client = fault.client([RetryMiddleware(policy: policy)])
        let (_, elapsed) = await measure {
            await #expect(throws: ErrandError.self) {
                _ = try await client.send(Request<Data>(path: fault.path("fail", "100", "503")))
            }
        }
        #expect(elapsed < .milliseconds(1500))
        let hits = try await fault.log().count
        #expect(hits >= 2 && hits <= 4, "\(hits) attempts within a 1 s deadline at 300 ms spacing")
    }

    @Test("cancelling during a backoff ends the wait within 100 ms", arguments: TransportKind.allCases)
    func cancellationEndsBackoff(transport: TransportKind) async throws {
        let fault = try FaultScenario(transport)
        let trials = 5
        let latency = try await fastestCancellation(trials: trials) {
            let recorder = EventRecorder()
            let client = fault.client([RetryMiddleware(policy: Self.policy())], observers: [recorder])
            let request = Request<Data>(path: fault.path("fail", "100", "503"), query: [QueryItem("retry_after", "20")])
            let task = Task<Void, any Error> { _ = try await client.send(request) }
            await recorder.waitForEvents(1)  // the first attempt is back: the task is in its 20 s backoff
            return task
        }
        #expect(latency < .milliseconds(100), "cancellation took \(latency)")
        // One attempt per trial: none was retried after its cancellation.
        #expect(try await fault.log().count == trials)
    }

    @Test("a request's own policy replaces the middleware's", arguments: TransportKind.allCases)
    func perRequestPolicy(transport: TransportKind) async throws {
        let fault = try FaultScenario(transport)
        let client = fault.client([RetryMiddleware(policy: Self.policy())])
        let request = Request<Data>(path: fault.path("fail", "1", "503")).with(RetryPolicyKey.self, .never)
        await #expect(throws: ErrandError.self) { _ = try await client.send(request) }
        #expect(try await fault.log().count == 1)
    }
}

/// A loopback port with nothing listening on it.
struct ClosedPort {
    let url: URL

    init() throws {
        #if os(Linux)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw CocoaError(.fileNoSuchFile) }
        // Closing the bound (never listening) socket leaves the port free and refusing.
        url = URL(string: "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))")!
    }
}
