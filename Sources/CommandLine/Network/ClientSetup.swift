import Errand
import Foundation

/// Builds the HTTP client configuration a tool runs with, from the shared options: timeout, retries, limits,
/// the `--verbose` log, the cache (`--no-cache`, `--offline`) and the proxy (`--proxy`, or the environment's).
public struct ClientSetup: Sendable {
    /// The server root.
    public var baseURL: URL
    /// The timeout of each attempt (`--timeout`), as curl's `--max-time` is with `--retry`: a request that times out
    /// is tried again within ``retry``, so it may take up to that many timeouts and the backoff between them. `nil`
    /// keeps the client's default.
    public var timeout: Duration?
    /// Whether to print one line per exchange.
    public var isVerbose: Bool
    /// Whether the on-disk cache is used (`--no-cache` turns it off).
    public var usesCache: Bool
    /// Whether only the cache may answer (`--offline`).
    public var isOffline: Bool
    /// The cache file's name (the tool's name).
    public var cacheName: String
    /// The most requests per second; `nil` for no limit.
    public var rate: Double?
    /// The most requests in flight; `nil` for no limit.
    public var maxConcurrent: Int?
    /// The retry policy.
    public var retry: RetryPolicy
    /// The on-disk HTTP cache of API responses, made once per run; `nil` with `--no-cache` or `--replay`.
    public let cache: HTTPCache?
    /// The proxy of the run (`--proxy`, or the environment's).
    public let proxy: ProxyChoice
    /// The transport every request of the run shares: one with the proxy, or `nil` for the default.
    private let transport: (any Transport)?
    /// The recording of this run's exchanges (`--record FILE.har`), shared by every client of the run.
    public let recorder: HARRecorder?
    /// The recording this run is answered from (`--replay FILE.har`) instead of the network.
    public let replay: HARReplayTransport?

    /// Reads the shared options of an invocation.
    /// - Throws: ``UsageError`` for a malformed `--base-url`, environment value, `--timeout` or `--proxy`.
    public init(
        context: CommandContext, baseURLVariable: String, defaultBaseURL: URL, cacheName: String
    ) throws(UsageError) {
        let invocation = context.invocation
        baseURL = try ServerAddress.resolve(
            flag: invocation.value("base-url"), environment: context.environment, variable: baseURLVariable,
            default: defaultBaseURL, helpCommand: invocation.helpCommand)
        timeout = try invocation.seconds("timeout")
        isVerbose = invocation.flag("verbose")
        usesCache = !invocation.flag("no-cache")
        isOffline = invocation.flag("offline")
        if isOffline, !usesCache {
            throw invocation.usageError(ToolText.sentence("usage.offlineAndNoCache"))
        }
        self.cacheName = cacheName
        proxy = try ProxyChoice(invocation: invocation, environment: context.environment)
        transport = proxy.transport()
        retry = .default
        (recorder, replay) = try Self.recording(invocation)
        // A replay answers from its file alone: what an earlier run cached must not stand in for it.
        if replay != nil {
            if isOffline {
                throw invocation.usageError(ToolText.sentence("usage.replayAndOffline"))
            }
            usesCache = false
        }
        cache =
            usesCache
            ? HTTPCache.standard(
                named: cacheName, configuration: HTTPCache.Configuration(policy: isOffline ? .cacheOnly : .useProtocol))
            : nil
    }

    /// The configuration for API requests; says on stderr when the on-disk cache cannot be used this run.
    public func configuration(console: Console) -> ClientConfiguration {
        if let problem = cache?.storageProblem {
            let consequence =
                isOffline
                ? ToolText.sentence("cache.offlineNothingCached") : ToolText.sentence("cache.memoryOnly")
            console.warning("\(problem.description.dropLast()), \(consequence)")
        }
        var middleware = cacheMiddleware()
        middleware += Resilience.middleware(
            retry: isOffline ? nil : retry, rateLimiter: rate.map { RateLimiter(rate: $0, burst: 1) },
            maxConcurrent: maxConcurrent)
        var configuration = ClientConfiguration(
            baseURL: baseURL, transport: replay, middleware: middleware, observers: observers(console: console))
        if let timeout { configuration.timeout = timeout }
        if isVerbose { console.diagnostic(console.errorStyle.dim(proxy.verboseLine)) }
        if let transport { configuration.transport = transport }
        return configuration
    }

    /// The configuration for downloading pictures: the same timeout, retries and log, without the HTTP cache (the
    /// data pipeline keeps pictures itself); offline, every download fails as not cached.
    public func pictureConfiguration(console: Console) -> ClientConfiguration {
        let middleware: [any Middleware] =
            isOffline
            ? [Self.refuseNetwork] : Resilience.middleware(retry: retry)
        var configuration = ClientConfiguration(
            baseURL: baseURL, transport: replay, middleware: middleware, observers: observers(console: console))
        if let timeout { configuration.timeout = timeout }
        if let transport { configuration.transport = transport }
        return configuration
    }

    /// The cache in front of everything else, so that a hit skips retries and limits.
    private func cacheMiddleware() -> [any Middleware] {
        cache.map { [$0] } ?? []
    }

    /// Answers every request with ``ErrandError/notCached(_:)``: the network is off limits.
    private static let refuseNetwork = ClosureMiddleware { request, _, _ in throw ErrandError.notCached(request.url) }
}
