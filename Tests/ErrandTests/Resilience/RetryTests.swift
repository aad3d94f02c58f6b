import Errand
import ErrandTesting
import Foundation
import Testing
import TestSupport

/// Retry against the fault server: exact attempt counts from its log, and the backoff on a manual clock, so that
/// spacing is asserted exactly and no test waits for it.
@Suite("Retry", .enabled(if: TestServer.fault.isUsable))
struct RetryTests {
    /// Predictable delays: no jitter, short base.
    static func policy(attempts: Int = 3, base: Duration = .milliseconds(50), cap: Duration = .seconds(1))
        -> RetryPolicy
    {
        RetryPolicy(maxAttempts: attempts, baseDelay: base, maxDelay: cap, jitter: .none)
    }

    /// A client of the scenario that retries by `policy` on a manual clock, and records when each attempt starts.
    struct Retrying {
        let client: APIClient
        let clock = ManualClock()
        private let starts = Locked<[Duration]>([])

        init(
            _ fault: FaultScenario, policy: RetryPolicy = RetryTests.policy(),
            observers: [any ExchangeObserver] = [], timeout: Duration = .seconds(10)
        ) {
            let (clock, starts) = (clock, starts)
            // After the retry middleware: it sees every attempt, in the retrying task, before its backoff begins.
            let recordStart = RequestAdapter { _ in
                let now = clock.now.offset
                starts.withLock { $0.append(now) }
            }
            client = fault.client(
                [RetryMiddleware(policy: policy), recordStart], observers: observers, timeout: timeout, clock: clock)
        }

        /// When each attempt started on the clock, in seconds.
        var attemptTimes: [Double] { starts.withLock { $0 }.map(\.inSeconds) }

        /// Sends the request, the clock moving through every backoff as soon as it begins.
        func send(_ request: Request<Data>) async throws -> Response<Data> {
            let client = client
            return try await clock.run { try await client.send(request) }
        }
    }

    @Test("a 503 twice, then success: three attempts, each reported", arguments: TransportKind.allCases)
    func retriesUntilSuccess(transport: TransportKind) async throws {
        let fault = try FaultScenario(transport)
        let recorder = EventRecorder()
        let retrying = Retrying(fault, observers: [recorder])
        let response = try await retrying.send(Request<Data>(path: fault.path("fail", "2", "503")))
        #expect(response.status == 200)
        #expect(try await fault.log().count == 3)
        #expect(recorder.attempts == [1, 2, 3])
        #expect(recorder.recorded.map(\.status) == [503, 503, 200])
    }

    @Test("every retryable status is retried", arguments: TransportKind.allCases, [408, 425, 429, 500, 502, 503, 504])
    func retriesEachRetryableStatus(transport: TransportKind, status: Int) async throws {
        let fault = try FaultScenario(transport)
        _ = try await Retrying(fault).send(Request<Data>(path: fault.path("fail", "1", String(status))))
        #expect(try await fault.log().count == 2)
    }

    @Test("retries stop at maxAttempts and the last status is reported", arguments: TransportKind.allCases)
    func stopsAtMaxAttempts(transport: TransportKind) async throws {
        let fault = try FaultScenario(transport)
        let retrying = Retrying(fault, policy: Self.policy(attempts: 4))
        await #expect {
            _ = try await retrying.send(Request<Data>(path: fault.path("fail", "10", "500")))
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
        let retrying = Retrying(fault, policy: policy)
        _ = try await retrying.send(Request<Data>(path: fault.path("fail", "3", "502")))
        #expect(try await fault.log().count == 4)
        // The clock stands still while a request is on the wire: the attempts start exactly a backoff apart.
        #expect(retrying.attemptTimes == [0, 0.2, 0.5, 0.8])
    }

    @Test("full jitter never waits longer than the exponential delay", arguments: TransportKind.allCases)
    func fullJitterStaysWithinBounds(transport: TransportKind) async throws {
        let fault = try FaultScenario(transport)
        let policy = RetryPolicy(
            maxAttempts: 4, baseDelay: .milliseconds(100), maxDelay: .milliseconds(150), jitter: .full)
        let retrying = Retrying(fault, policy: policy)
        _ = try await retrying.send(Request<Data>(path: fault.path("fail", "3", "503")))
        let times = retrying.attemptTimes
        try #require(times.count == 4)
        let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
        for (gap, bound) in zip(gaps, [0.1, 0.15, 0.15]) {
            #expect(gap >= 0 && gap <= bound, "gap \(gap) outside the jitter range 0…\(bound)")
        }
    }

    @Test("Retry-After in seconds is waited for", arguments: TransportKind.allCases)
    func honoursRetryAfterSeconds(transport: TransportKind) async throws {
        let fault = try FaultScenario(transport)
        let retrying = Retrying(fault)
        let response = try await retrying.send(
            Request<Data>(path: fault.path("fail", "1", "503"), query: [QueryItem("retry_after", "1")]))
        #expect(response.status == 200)
        // Retry-After replaces the 50 ms backoff.
        #expect(retrying.attemptTimes == [0, 1])
    }

    @Test("Retry-After as an HTTP-date is waited for", arguments: TransportKind.allCases)
    func honoursRetryAfterDate(transport: TransportKind) async throws {
        let fault = try FaultScenario(transport)
        let real = ContinuousClock()
        let made = real.now
        let retrying = Retrying(fault)
        let response = try await retrying.send(
            Request<Data>(path: fault.path("fail", "1", "429"), query: [QueryItem("retry_after_date", "1")]))
        let sinceMade = (real.now - made).inSeconds
        #expect(response.status == 200)
        let times = retrying.attemptTimes
        try #require(times.count == 2)
        // The date names a whole second 1 to 2 s after the server's now. The client compares it with its clock's
        // date: the system's date when the clock was set, moved on only by the manual time, so the real time the
        // first answer took to come (long, on a busy machine) adds to the wait.
        #expect(
            times[1] >= 0.9 && times[1] <= 2 + sinceMade, "waited \(times[1]) s for a date about 1–2 s ahead")
    }

    @Test("a Retry-After beyond the maximum wait returns the response at once", arguments: TransportKind.allCases)
    func retryAfterBeyondTheCapIsNotWaitedFor(transport: TransportKind) async throws {
        let fault = try FaultScenario(transport)
        var policy = Self.policy()
        policy.maxRetryAfter = .seconds(5)
        let retrying = Retrying(fault, policy: policy)
        await #expect {
            _ = try await retrying.send(
                Request<Data>(path: fault.path("fail", "1", "503"), query: [QueryItem("retry_after", "120")]))
        } throws: { ($0 as? ErrandError)?.status == 503 }
        // Had it waited, the clock would have moved through the wait.
        #expect(retrying.clock.now.offset == .zero)
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
        var request = Request<Data>(method: .post, path: fault.path("fail", "1", "503"), body: .json(["a": 1]))
        request.options.isIdempotent = true
        #expect(try await Retrying(fault).send(request).status == 200)
        #expect(try await fault.log().count == 2)

        var policy = Self.policy()
        policy.retriesNonIdempotentMethods = true
        let other = try FaultScenario(transport)
        let patch = Request<Data>(method: .patch, path: other.path("fail", "1", "500"), body: .json(["a": 1]))
        #expect(try await Retrying(other, policy: policy).send(patch).status == 200)
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
        let retrying = Retrying(fault, observers: [recorder])
        await #expect {
            _ = try await retrying.send(Request<Data>(path: fault.path("reset")))
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
        let clock = ManualClock()
        let client = APIClient(
            configuration: ClientConfiguration(
                baseURL: closed.url, transport: transport.make(), middleware: [RetryMiddleware(policy: Self.policy())],
                observers: [recorder], clock: clock))
        await #expect {
            _ = try await clock.run { try await client.send(Request<Data>(path: "nothing")) }
        } throws: { ($0 as? ErrandError)?.isTransport(.cannotConnect) == true }
        #expect(recorder.attempts == [1, 2, 3])
        withExtendedLifetime(closed) {}
    }

    @Test("a timeout is retried", arguments: TransportKind.allCases)
    func retriesTimeouts(transport: TransportKind) async throws {
        let fault = try FaultScenario(transport)
        // The timeout is the transport's, on the real clock; the backoff between the attempts is on the manual one.
        let retrying = Retrying(fault, policy: Self.policy(attempts: 2), timeout: .milliseconds(300))
        await #expect {
            _ = try await retrying.send(Request<Data>(path: fault.path("stall"), query: [QueryItem("seconds", "3")]))
        } throws: { ($0 as? ErrandError)?.isTransport(.timedOut) == true }
        #expect(try await fault.log().count == 2)
    }

    @Test("the overall deadline ends retries", arguments: TransportKind.allCases)
    func deadlineEndsRetries(transport: TransportKind) async throws {
        let fault = try FaultScenario(transport)
        // Long enough that the last attempt's share of the deadline, handed to the transport as its real total
        // timeout, is a whole second.
        var policy = Self.policy(attempts: 10, base: .seconds(3), cap: .seconds(3))
        policy.deadline = .seconds(10)
        let retrying = Retrying(fault, policy: policy)
        await #expect(throws: ErrandError.self) {
            _ = try await retrying.send(Request<Data>(path: fault.path("fail", "100", "503")))
        }
        // At 9 s a fifth attempt could not begin before 12 s: the retries end there, without the wait.
        #expect(retrying.attemptTimes == [0, 3, 6, 9])
        #expect(retrying.clock.now.offset == .seconds(9))
        #expect(try await fault.log().count == 4)
    }

    @Test("cancelling during a backoff ends the wait, with the clock standing still", arguments: TransportKind.allCases)
    func cancellationEndsBackoff(transport: TransportKind) async throws {
        let fault = try FaultScenario(transport)
        let trials = 3
        for _ in 0..<trials {
            let retrying = Retrying(fault)
            let request = Request<Data>(path: fault.path("fail", "100", "503"), query: [QueryItem("retry_after", "20")])
            let client = retrying.client
            let task = Task { try await client.send(request) }
            await retrying.clock.sleepers(1)  // the first attempt is back: the task is in its 20 s backoff
            task.cancel()
            // Only the cancellation can end the wait: the clock never moves.
            await #expect {
                _ = try await task.value
            } throws: { ($0 as? ErrandError).map { if case .cancelled = $0 { true } else { false } } ?? false }
            #expect(retrying.clock.sleeperCount == 0 && retrying.clock.now.offset == .zero)
        }
        // One attempt per trial: none was retried after its cancellation.
        #expect(try await fault.log().count == trials)
    }

    @Test("a request's own policy replaces the middleware's", arguments: TransportKind.allCases)
    func perRequestPolicy(transport: TransportKind) async throws {
        let fault = try FaultScenario(transport)
        let request = Request<Data>(path: fault.path("fail", "1", "503")).with(RetryPolicyKey.self, .never)
        let retrying = Retrying(fault)
        await #expect(throws: ErrandError.self) { _ = try await retrying.send(request) }
        #expect(try await fault.log().count == 1)
    }
}

/// A loopback port with nothing listening on it.
/// A loopback port that refuses connections for as long as this lives: bound, never listening. Kept bound, the
/// port cannot be taken by a server another test starts meanwhile (freed at once, it was, once, under the parallel
/// suite: the request then reached that server).
final class ClosedPort {
    let url: URL
    private let fd: Int32

    init() throws {
        #if os(Linux)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        self.fd = fd
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
        guard bound else {
            close(fd)
            throw CocoaError(.fileNoSuchFile)
        }
        url = URL(string: "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))")!
    }

    deinit { close(fd) }
}
