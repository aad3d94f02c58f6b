import Errand
import Foundation
import MetMuseum
import Synchronization
import TestSupport

/// One request as the replica logged it.
struct LoggedRequest: Decodable, Sendable {
    var time: Double
    var method: String
    var path: String
    /// The query exactly as received, still percent-encoded.
    var query: String
    var headers: [String: String]

    /// The query's names in order.
    var queryNames: [String] {
        query.split(separator: "&").map { String($0.split(separator: "=", maxSplits: 1)[0]) }
    }
}

/// A Met client of the replica whose requests carry a header naming the test, so its log entries can be told apart
/// from those of tests running at the same time.
struct ReplicaClient: Sendable {
    let base: URL
    let testID = UUID().uuidString
    let met: MetClient
    /// When each request left the client (after the rate limiter), in seconds since 1970.
    let starts = StartTimes()

    /// A replica on a transport of its own, so that no other test's requests queue for the same connections.
    ///
    /// With a `clock`, the client's retries, its default budget (unless `rateLimiter` names another) and its
    /// fetches' own rates wait on it.
    init(
        transport: TransportKind = .urlSession, headers: HTTPHeaders = [:],
        retry: RetryPolicy? = ReplicaClient.quickRetry, rateLimiter: RateLimiter? = nil,
        clock: any Clock<Duration> = ContinuousClock()
    ) throws {
        base = try TestServer.replica.url()
        let starts = starts
        met = MetClient(
            baseURL: base, transport: transport.make(), headers: headers.merging(["X-Test-ID": testID]), retry: retry,
            rateLimiter: rateLimiter ?? MetClient.defaultBudget(clock: clock),
            middleware: [
                ClosureMiddleware { request, _, next in
                    starts.record()
                    return try await next(request)
                }
            ], clock: clock)
    }

    /// Retries as the default policy does, without waiting long.
    static let quickRetry = RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(5), jitter: .none)

    /// This replica's requests to the Met's paths, in arrival order.
    func requests() async throws -> [LoggedRequest] {
        let log = try await APIClient(baseURL: base).send(Request<[LoggedRequest]>(path: "__requests")).value
        return log.filter { $0.headers.first { $0.key.lowercased() == "x-test-id" }?.value == testID }
    }
}

/// Times recorded from concurrent requests.
final class StartTimes: Sendable {
    private let times = Mutex<[Double]>([])

    func record() {
        let now = Date().timeIntervalSince1970
        times.withLock { $0.append(now) }
    }

    var sorted: [Double] { times.withLock { $0 }.sorted() }

    var count: Int { times.withLock { $0.count } }
}

/// IDs of the replica's sample collection.
enum ReplicaIDs {
    /// 46 objects the replica serves (the sample has more: 7047, 7048 and the documentation's 436535).
    static let served = Array(7001...7046)
    /// The object the documentation and the tools' help show (`met show 436535`), served too.
    static let documented = 436535
    /// In search results, but 404 "ObjectID not found".
    static let missing = 7404
    /// In search results, but "Not a valid object".
    static let notValid = 7410
    /// Answers 403 with the bot-protection page.
    static let blocked = 9403
    /// Answers 503.
    static let unavailable = 9503
}
