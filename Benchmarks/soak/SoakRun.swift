import Errand
import Foundation

/// One soak: the client, the requests and what was measured while they ran.
struct SoakRun {
    var tally: Tally
    var duration: Duration
    var residentAfterWarmUp: Int?
    var residentAtEnd: Int?
    var warmUpRequests: Int
    var descriptorsDuring: Int?
    var serverAlive: Bool

    /// Builds the full client, sends every request with `concurrency` in flight, and drops the client again.
    static func perform(_ options: SoakOptions) async -> SoakRun {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("errand-soak-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let client = makeClient(options, cacheFile: folder.appendingPathComponent("cache.sqlite"))
        let tally = Tally(requests: options.requests)
        let warmUp = max(1, Int(Double(options.requests) * options.warmUpShare))
        var random = SplitMix64(seed: options.seed)
        let routes = (0..<options.requests).map { _ in route(options, &random) }
        var residentAfterWarmUp: Int?
        var descriptorsDuring: Int?
        let started = ContinuousClock.now
        await withTaskGroup(of: Void.self) { group in
            var next = 0
            var finished = 0
            func add() {
                let index = next
                let route = routes[index]
                next += 1
                group.addTask {
                    tally.record(index: index, route: route, outcome: await send(route, index: index, with: client))
                }
            }
            while next < min(options.concurrency, options.requests) { add() }
            while await group.next() != nil {
                finished += 1
                if finished == warmUp {
                    residentAfterWarmUp = ProcessProbe.residentBytes()
                    descriptorsDuring = ProcessProbe.openDescriptors()
                }
                if next < options.requests { add() }
            }
        }
        let duration = ContinuousClock.now - started
        let residentAtEnd = ProcessProbe.residentBytes()
        let serverAlive = (try? await client.send(Request<SoakReply>(segments: ["ok", "soak-alive"]))) != nil
        return SoakRun(
            tally: tally, duration: duration, residentAfterWarmUp: residentAfterWarmUp, residentAtEnd: residentAtEnd,
            warmUpRequests: warmUp, descriptorsDuring: descriptorsDuring, serverAlive: serverAlive)
    }

    /// The full client: cache (memory and SQLite file) outermost, then retry, rate limit and concurrency limit, over
    /// its own transport (so that its connections close when the soak is over): curl where the build has it.
    private static func makeClient(_ options: SoakOptions, cacheFile: URL) -> APIClient {
        let cacheConfiguration = HTTPCache.Configuration(
            defaultTTL: .seconds(2), memoryCostLimit: 1 << 20, diskSizeLimit: 4 << 20)
        let cache =
            (try? HTTPCache(fileURL: cacheFile, configuration: cacheConfiguration))
            ?? HTTPCache(configuration: cacheConfiguration)
        let retry = RetryPolicy(
            maxAttempts: 3, baseDelay: .milliseconds(5), maxDelay: .milliseconds(50), deadline: .seconds(20),
            maxRetryAfter: .seconds(1))
        let middleware: [any Middleware] =
            [cache]
            + Resilience.middleware(
                retry: retry, rateLimiter: RateLimiter(rate: 50_000, burst: 256), maxConcurrent: options.concurrency)
        return APIClient(
            configuration: ClientConfiguration(
                baseURL: options.url,
                transport: makeTransport(options),
                middleware: middleware, timeout: .seconds(1), connectTimeout: .seconds(2),
                maxResponseBodySize: 1_000_000))
    }

    private static func makeTransport(_ options: SoakOptions) -> any Transport {
        #if canImport(CCurl)
        return CurlTransport(configuration: .init(maxConnectionsPerHost: options.concurrency))
        #else
        return URLSessionTransport()
        #endif
    }

    private static func route(_ options: SoakOptions, _ random: inout SplitMix64) -> SoakRoute {
        if random.unit() < options.faultRate {
            return SoakRoute.faults[Int(random.next() % UInt64(SoakRoute.faults.count))]
        }
        return random.unit() < 0.2 ? .shared : .ok
    }

    private static func send(_ route: SoakRoute, index: Int, with client: APIClient) async -> Tally.Outcome {
        do {
            if route == .trickle {
                // Its body is bytes, not JSON: what counts is that it arrives whole.
                let body = try await client.send(route.request(index: index).decoding(as: Data.self)).value
                return body.isEmpty ? .failed("empty body") : .succeeded
            }
            let reply = try await client.send(route.request(index: index)).value
            if route == .ok, reply.query?["i"] != String(index) { return .failed("mismatched response") }
            return .succeeded
        } catch {
            return .failed(error.soakKind)
        }
    }
}

/// A small, seedable random generator, so that a soak can be repeated exactly.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in 0..<1.
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
