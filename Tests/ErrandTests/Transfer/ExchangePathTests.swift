import Errand
import Foundation
import Testing
import TestSupport

/// Every kind of transfer goes through the one exchange: the middleware an app configures (a token, a key, limits),
/// its observers and its redaction reach `send`, `stream`, `download` and `events` alike, on every transport.
@Suite(
    "One exchange path for every transfer",
    .enabled(if: TestServer.fault.isUsable && TestServer.sse.isUsable))
struct ExchangePathTests {
    // swift-format-ignore: AlwaysUseLowerCamelCase
    // The fields are the SSE server's JSON keys.
    struct SSELogEntry: Decodable {
        var query: String?
        var authorization: String?
    }

    /// A client configured as an app would: a bearer token, an API key in the query, a rate limit, a concurrency
    /// limit, an observer, and redaction of the key.
    struct App {
        let limiter = ConcurrencyLimiter(limit: 4)
        let rate = RateLimiter(rate: 0.001, burst: 4)
        let recorder = EventRecorder()

        func client(_ base: URL, _ kind: TransportKind) -> APIClient {
            var configuration = ClientConfiguration(baseURL: base, transport: kind.make())
            configuration.middleware = [
                TokenRefreshMiddleware(token: "token-1") { _ in "token-2" },
                APIKey("SECRET123", in: .query("api_key")),
                RateLimitMiddleware(limiter: rate),
                ConcurrencyLimitMiddleware(limiter: limiter),
            ]
            configuration.observers = [recorder]
            configuration.redaction = Redaction(queryNames: ["api_key"])
            return APIClient(configuration: configuration)
        }
    }

    @Test(
        "send, stream, download and events carry the token and the key, count against the limits, and are observed",
        arguments: TransportKind.allCases)
    func middlewareReachesEveryTransfer(kind: TransportKind) async throws {
        let app = App()
        let scenario = try FaultScenario(kind)
        let client = app.client(scenario.base, kind)

        _ = try await client.send(Request<Data>(path: scenario.path("echo", "send")))

        let stream = try await client.stream(Request<Data>(path: scenario.path("echo", "stream")))
        // A streamed body holds its concurrency slot until it ends.
        #expect(app.limiter.running == 1)
        _ = try await stream.body.collect()
        #expect(app.limiter.running == 0)

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("errand-exchange-\(UUID())")
        defer { try? FileManager.default.removeItem(at: file) }
        _ = try await client.download(Request<Data>(path: scenario.path("echo", "download")), to: file)

        let sse = app.client(try TestServer.sse.url(), kind)
        let key = "exchange-\(kind)-\(UUID())"
        for try await _ in sse.events(Request(path: "events/\(key)", query: [QueryItem("total", "1")])) { break }

        for entry in try await scenario.log() {
            #expect(entry.header("Authorization") == "Bearer token-1", "\(entry.path)")
            #expect(entry.query.contains("api_key=SECRET123"), "\(entry.path)")
        }
        #expect(try await scenario.log().count == 3)
        let plain = APIClient(
            configuration: ClientConfiguration(baseURL: try TestServer.sse.url(), transport: kind.make()))
        let connections = try await plain.send(
            Request<[SSELogEntry]>(path: "__log", query: [QueryItem("key", key)])
        ).value
        #expect(connections.first?.authorization == "Bearer token-1")
        #expect(connections.first?.query?.contains("api_key=SECRET123") == true)

        // Four transfers took the rate limiter's four tokens: the next request has to wait for one.
        let waiting = Task { try await app.rate.acquire() }
        defer { waiting.cancel() }
        #expect(await waitUntil { app.rate.waitingCount == 1 })

        // Observers saw every transfer, with the key redacted.
        let urls = app.recorder.recorded.map(\.url)
        #expect(urls.count >= 4)
        #expect(urls.allSatisfy { $0.contains("api_key=***") && !$0.contains("SECRET123") })
    }

    @Test("a 401 refreshes the token for a download and a stream too", arguments: TransportKind.allCases)
    func tokenRefreshForStreams(kind: TransportKind) async throws {
        let scenario = try FaultScenario(kind)
        var configuration = ClientConfiguration(baseURL: scenario.base, transport: kind.make())
        let auth = TokenRefreshMiddleware(token: "stale") { _ in "fresh" }
        configuration.middleware = [auth]
        let client = APIClient(configuration: configuration)
        let request = Request<Data>(path: scenario.path("auth"), query: [QueryItem("token", "fresh")])

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("errand-refresh-\(UUID())")
        defer { try? FileManager.default.removeItem(at: file) }
        let download = try await client.download(request, to: file)
        #expect(download.status == 200)
        let stream = try await client.stream(request)
        #expect(stream.status == 200)
        #expect(auth.refreshCount == 1)
    }

    @Test("an error from any transfer names the URL with the key redacted", arguments: TransportKind.allCases)
    func redactedErrors(kind: TransportKind) async throws {
        let app = App()
        let scenario = try FaultScenario(kind)
        let client = app.client(scenario.base, kind)
        let missing = Request<Data>(path: scenario.path("status", "404"))
        var failures: [ErrandError] = []
        do { _ = try await client.stream(missing) } catch { failures.append(error) }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("errand-redacted-\(UUID())")
        do { _ = try await client.download(missing, to: file) } catch { failures.append(error) }
        let sse = app.client(try TestServer.sse.url(), kind)
        do {
            for try await _ in sse.events(Request(path: "status/\(UUID())/404")) {}
        } catch {
            failures.append(error)
        }
        #expect(failures.count == 3)
        for failure in failures {
            guard case .unacceptableStatus(let status) = failure else {
                Issue.record("expected a status failure, got \(failure)")
                continue
            }
            #expect(status.status == 404)
            let url = status.url?.absoluteString ?? ""
            #expect(url.contains("api_key=***") && !url.contains("SECRET123"), "\(url)")
            #expect(!"\(failure)".contains("SECRET123"))
        }
    }

    @Test("a 403 HTML page is blocked for a stream and a download as for send", arguments: TransportKind.allCases)
    func blockedEverywhere(kind: TransportKind) async throws {
        let scenario = try FaultScenario(kind)
        let client = scenario.client()
        let request = Request<Data>(path: scenario.path("blocked"))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("errand-blocked-\(UUID())")
        var blocked = 0
        for attempt in 0..<3 {
            do {
                switch attempt {
                case 0: _ = try await client.send(request)
                case 1: _ = try await client.stream(request)
                default: _ = try await client.download(request, to: file)
                }
            } catch {
                if case .blocked = error { blocked += 1 } else { Issue.record("attempt \(attempt): \(error)") }
            }
        }
        #expect(blocked == 3)
    }
}

extension ExchangePathTests {
    @Test(
        "a download whose connection breaks mid-body resumes with Range and If-Range by the retry policy",
        arguments: TransportKind.allCases)
    func downloadResumesByRetryPolicy(kind: TransportKind) async throws {
        let scenario = try FaultScenario(kind)
        let policy = RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(1), maxDelay: .milliseconds(1), jitter: .none)
        let client = scenario.client([RetryMiddleware(policy: policy)])
        let request = Request<Data>(
            path: scenario.path("flaky-file"), query: [QueryItem("size", "200000"), QueryItem("cut", "70000")])
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("errand-resume-\(UUID())")
        defer { try? FileManager.default.removeItem(at: file) }
        let download = try await client.download(request, to: file)
        #expect(download.resumed)
        #expect(download.status == 206)
        #expect(try Data(contentsOf: file) == Data((0..<200_000).map { UInt8($0 % 251) }))
        let log = try await scenario.log()
        #expect(log.count == 2)
        #expect(log.last?.header("If-Range") == "\"v1\"")
        let resumedFrom = log.last?.header("Range").flatMap { Int($0.dropFirst(6).dropLast()) }
        #expect(resumedFrom.map { $0 > 0 && $0 <= 70_000 } == true)
    }

    @Test(
        "without a retry policy the broken download fails and keeps its partial file", arguments: TransportKind.allCases
    )
    func downloadWithoutRetries(kind: TransportKind) async throws {
        let scenario = try FaultScenario(kind)
        let request = Request<Data>(
            path: scenario.path("flaky-file"), query: [QueryItem("size", "200000"), QueryItem("cut", "70000")])
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("errand-broken-\(UUID())")
        defer { try? FileManager.default.removeItem(at: file) }
        do {
            _ = try await scenario.client().download(request, to: file)
            Issue.record("a download cut short succeeded")
        } catch {
            guard case .transport(let failure) = error else { return #expect(Bool(false), "\(error)") }
            #expect(failure.kind == .connectionLost)
        }
        #expect(!FileManager.default.fileExists(atPath: file.path))
        #expect(try await scenario.log().count == 1)
        // The partial file stays for an explicit resume, which then finishes it.
        let resumed = try await scenario.client().download(request, to: file, resume: true)
        #expect(resumed.resumed)
    }
}
