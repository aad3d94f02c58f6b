import Errand
import Foundation

/// One way of fetching the workload's file; each variant is one function returning its measurement.
///
/// To add a variant write one more function like ``errandCurl(_:)`` and list it in ``all``.
struct BenchClient: Sendable {
    /// The name in the table and the JSON (`errand-curl`, `raw-libcurl`, …).
    let name: String
    /// The file sizes this client fetches (the cache variants only the small file).
    let sizes: Set<FileSize>
    /// The schemes this client fetches over: URLSession on Linux cannot trust the test CA, and cache hits never
    /// reach the wire, so both run over http only.
    let schemes: Set<Scheme>
    /// How many times the workload's request count this client measures: cache hits take microseconds, and a
    /// round of a few milliseconds would be decided by timer and scheduler noise; URLSession takes ten times longer
    /// per request than the others, and half the requests measure it as well in half the time.
    let requestFactor: Double
    /// Sets the client up, warms it, and measures the workload's requests.
    let run: @Sendable (Workload) async throws -> Measurement

    init(
        name: String, sizes: Set<FileSize> = Set(FileSize.allCases), schemes: Set<Scheme> = Set(Scheme.allCases),
        requestFactor: Double = 1, run: @escaping @Sendable (Workload) async throws -> Measurement
    ) {
        self.name = name
        self.sizes = sizes
        self.schemes = schemes
        self.requestFactor = requestFactor
        self.run = run
    }

    /// The workload as this client runs it.
    func scaled(_ workload: Workload) -> Workload {
        guard requestFactor != 1 else { return workload }
        return workload.with(requests: max(1, Int((Double(workload.requests) * requestFactor).rounded())))
    }

    /// Every client, in the order they run: without libcurl (`ERRAND_NO_CURL=1`), the URLSession and cache clients.
    static let all: [BenchClient] = {
        var clients: [BenchClient] = []
        #if canImport(CCurl)
        // Ratios pair each client's round with errand-curl's round of the same number, so the clients it is compared
        // with most closely run soonest after it; URLSession, ten times slower, runs last.
        clients += [
            BenchClient(name: "errand-curl", run: errandCurl),
            BenchClient(name: "raw-libcurl", run: RawLibcurl.run),
            BenchClient(name: "errand-curl-resilient", run: errandCurlResilient),
            // Shown for information: the transport without the client layer.
            BenchClient(name: "errand-transport", run: errandTransport),
            // Shown for information: errand-curl with its callers' tasks on the transport's loop thread.
            BenchClient(name: "errand-curl-on-loop", run: errandCurlOnLoop),
            // Shown for information: each send alone on the loop thread, its caller on Swift's pool.
            BenchClient(name: "errand-curl-send-on-loop", run: errandCurlSendOnLoop),
        ]
        #endif
        #if canImport(CCurl) && os(Linux)
        // Shown for information: libcurl's socket interface with async callers, no Errand code (SocketLibcurl).
        clients.append(BenchClient(name: "libcurl-socket-loop", run: SocketLibcurl.run))
        #endif
        return clients + [
            BenchClient(
                name: "errand-cache-memory", sizes: [.small], schemes: [.http], requestFactor: 10,
                run: errandCacheMemory),
            BenchClient(
                name: "errand-cache-disk", sizes: [.small], schemes: [.http], requestFactor: 10, run: errandCacheDisk),
            BenchClient(name: "errand-urlsession", schemes: [.http], requestFactor: 0.5, run: errandURLSession),
        ]
    }()

    #if canImport(CCurl)
    /// Errand's `APIClient` over ``CurlTransport`` with its default configuration.
    static func errandCurl(_ workload: Workload) async throws -> Measurement {
        try await measureErrand(workload, transport: curlTransport(workload))
    }

    /// A ``CurlTransport`` with its default configuration, trusting the workload's CA.
    private static func curlTransport(_ workload: Workload) -> CurlTransport {
        CurlTransport(configuration: .init(caBundle: workload.caBundle))
    }

    /// ``errandCurl(_:)`` with every caller's task preferring the transport's ``CurlTransport/executor``: the client's
    /// code and libcurl share the loop thread, and no request wakes a thread.
    static func errandCurlOnLoop(_ workload: Workload) async throws -> Measurement {
        let transport = curlTransport(workload)
        return try await withTaskExecutorPreference(transport.executor) {
            try await measureErrand(workload, transport: transport)
        }
    }

    /// ``errandCurl(_:)`` with only each `send` preferring the transport's executor, its caller staying on Swift's
    /// pool: what `APIClient` running its own work (middleware, decoding) on the loop thread would cost a caller that
    /// is not on it. Entering and leaving the preference are two hops, which replace the hand-off to the loop and
    /// the resumption from it rather than removing them.
    static func errandCurlSendOnLoop(_ workload: Workload) async throws -> Measurement {
        let transport = curlTransport(workload)
        return try await measureErrand(workload, transport: transport, sendsOn: transport.executor)
    }

    /// ``CurlTransport`` on its own, without `APIClient`: the request raw libcurl sends (plus
    /// `Accept-Encoding: identity`), no timeouts. Next to ``errandCurl(_:)`` it shows what the client layer and its
    /// default headers cost, and next to raw libcurl what the transport's hand-offs cost.
    static func errandTransport(_ workload: Workload) async throws -> Measurement {
        let transport = curlTransport(workload)
        let request = TransportRequest(
            url: workload.url, headers: ["Accept-Encoding": "identity"], maxResponseBodySize: 10_000_000)
        let fetch: @Sendable () async throws -> String? = {
            let response = try await transport.send(request)
            try workload.check(bodyLength: response.body.count, status: response.status)
            return response.metrics.httpVersion
        }
        return try await workload.warmUpAndMeasure(fetch)
    }

    /// The resilient chain of Errand's "Making requests resilient" article over ``CurlTransport``: retry, a rate
    /// limiter too generous to ever make a request wait, and a concurrency limit above every workload's. What it
    /// costs is the chain itself.
    static func errandCurlResilient(_ workload: Workload) async throws -> Measurement {
        try await measureErrand(
            workload, transport: curlTransport(workload),
            middleware: Resilience.middleware(
                retry: .default, rateLimiter: RateLimiter(rate: 1e9, burst: 1_000_000), maxConcurrent: 64))
    }
    #endif

    /// Errand's `APIClient` over ``URLSessionTransport``.
    static func errandURLSession(_ workload: Workload) async throws -> Measurement {
        try await measureErrand(workload, transport: URLSessionTransport())
    }

    /// Hits of an ``HTTPCache`` held in memory.
    static func errandCacheMemory(_ workload: Workload) async throws -> Measurement {
        try await measureCacheHits(workload, cache: HTTPCache())
    }

    /// Hits of an ``HTTPCache`` on disk with nothing kept in memory, so every hit reads the SQLite file.
    static func errandCacheDisk(_ workload: Workload) async throws -> Measurement {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("errand-bench-cache-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try HTTPCache(
            fileURL: folder.appendingPathComponent("cache.sqlite"), configuration: .init(memoryCostLimit: 0))
        return try await measureCacheHits(workload, cache: cache)
    }

    /// Sends `Request<Data>` through an `APIClient`: URL building, middleware chain, status check, and transport.
    /// With `executor`, each `send` alone prefers it.
    private static func measureErrand(
        _ workload: Workload, transport: any Transport, middleware: [any Middleware] = [],
        sendsOn executor: (any TaskExecutor)? = nil
    ) async throws -> Measurement {
        let client = makeClient(workload, transport: transport, middleware: middleware)
        let request = Request<Data>(path: workload.size.path)
        let fetch: @Sendable () async throws -> String? = {
            let response =
                if let executor {
                    try await withTaskExecutorPreference(executor) { try await client.send(request) }
                } else {
                    try await client.send(request)
                }
            try workload.check(bodyLength: response.value.count, status: response.status)
            return response.metrics.httpVersion
        }
        return try await workload.warmUpAndMeasure(fetch)
    }

    /// Stores the file under nginx's `/cache/max-age-60/` route with one request, then measures hits of it: every
    /// measured response must come from the cache.
    private static func measureCacheHits(_ workload: Workload, cache: HTTPCache) async throws -> Measurement {
        let client = makeClient(workload, transport: ClientConfiguration.defaultTransport(), middleware: [cache])
        let request = Request<Data>(path: "cache/max-age-60/" + workload.size.path)
        let first = try await client.send(request)
        try workload.check(bodyLength: first.value.count, status: first.status)
        let fetch: @Sendable () async throws -> String? = {
            let response = try await client.send(request)
            guard response.cacheStatus == .hit else {
                throw BenchError(
                    "cache/max-age-60/\(workload.size.path) came with cache status \(response.cacheStatus.rawValue), not hit"
                )
            }
            try workload.check(bodyLength: response.value.count, status: response.status)
            return nil
        }
        return try await workload.warmUpAndMeasure(fetch)
    }

    private static func makeClient(_ workload: Workload, transport: any Transport, middleware: [any Middleware])
        -> APIClient
    {
        // Identity encoding: the benchmark measures clients, not nginx compressing every response on the same cores.
        APIClient(
            configuration: ClientConfiguration(
                baseURL: workload.baseURL, headers: ["Accept-Encoding": "identity"], transport: transport,
                middleware: middleware, maxResponseBodySize: 10_000_000))
    }
}
