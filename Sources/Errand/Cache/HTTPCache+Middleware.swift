import Foundation

extension HTTPCache {
    /// Answers from the cache, revalidates, or passes the request on and stores the response, per the request's
    /// ``CachePolicy``. Streamed requests (downloads, event streams, ``APIClient/stream(_:)``) pass through.
    public func intercept(_ request: TransportRequest, context: MiddlewareContext, next: Next) async throws
        -> TransportResponse
    {
        guard request.method == .get else { return try await passUnsafe(request, next: next) }
        // Streamed bodies (downloads, event streams, `stream`) go to their reader as they arrive, never into the cache.
        if request.delivery == .streamed { return try await next(request) }
        let lookup = Lookup(request: request, configuration: configuration, timeline: context.timeline)
        if lookup.bypassesCache { return try await next(request) }
        if lookup.requestControl.noStore {
            // The caller asked that nothing about this exchange be kept: no lookup, no store.
            guard lookup.policy != .cacheOnly else { throw notCached(lookup, context: context) }
            return try await forward(lookup, stored: nil, next: next, context: context)
        }
        if lookup.policy == .reload { return try await forward(lookup, stored: nil, next: next, context: context) }

        let stored = store.response(for: lookup.key, requestHeaders: request.headers)
        let now = lookup.timeline.date
        switch lookup.policy {
        case .cacheOnly:
            guard let stored else { throw notCached(lookup, context: context) }
            return answer(
                lookup, with: stored, status: stored.isFresh(at: now, fallbackLifetime: lookup.ttl) ? .hit : .stale,
                context: context)
        case .returnCacheElseLoad:
            guard let stored else { return try await forward(lookup, stored: nil, next: next, context: context) }
            return answer(
                lookup, with: stored, status: stored.isFresh(at: now, fallbackLifetime: lookup.ttl) ? .hit : .stale,
                context: context)
        case .useProtocol, .reload:
            guard let stored else { return try await forward(lookup, stored: nil, next: next, context: context) }
            if !lookup.requestControl.noCache, lookup.requestControl.maxAge != 0,
                stored.isFresh(at: now, fallbackLifetime: lookup.ttl)
            {
                return answer(lookup, with: stored, status: .hit, context: context)
            }
            return try await forward(lookup, stored: stored, next: next, context: context)
        }
    }

    /// What one request needs from the cache, worked out once.
    struct Lookup {
        let request: TransportRequest
        let key: String
        let policy: CachePolicy
        let ttl: TimeInterval?
        let requestControl: CacheControl
        /// Whether the request manages validation or ranges itself, and so goes to the network unchanged.
        let bypassesCache: Bool
        /// The client's clock: its date is the cache's now.
        let timeline: Timeline
        let started = ContinuousClock.now

        init(request: TransportRequest, configuration: Configuration, timeline: Timeline) {
            self.request = request
            self.timeline = timeline
            key = CacheKey.primary(request.url)
            policy = request.options.cachePolicy ?? configuration.policy
            ttl = (request.options.cacheTTL ?? configuration.defaultTTL).map { $0 / .seconds(1) }
            // One pass over the request's fields; names are compared by length first, so most are never lower-cased.
            var cacheControl: [String] = []
            var pragmaNoCache = false
            var bypasses = false
            for field in request.headers {
                switch field.name.utf8.count {
                case 5, 6, 8, 13, 17, 19: break  // the lengths of the names below
                default: continue
                }
                switch field.name.lowercased() {
                case "cache-control": cacheControl.append(field.value)
                case "pragma": pragmaNoCache = field.value.lowercased().contains("no-cache")
                case "if-none-match", "if-modified-since", "if-match", "if-unmodified-since", "if-range", "range":
                    bypasses = true
                default: break
                }
            }
            var control = CacheControl(values: cacheControl)
            // `Pragma: no-cache` from HTTP/1.0 clients means what `Cache-Control: no-cache` means.
            if pragmaNoCache { control.noCache = true }
            requestControl = control
            bypassesCache = bypasses
        }
    }

    // MARK: Going to the network

    /// Passes the request on — conditionally when a stored entry has validators — and handles the answer: a 304
    /// refreshes the entry, a failure may serve it stale, anything else is stored if it may be.
    private func forward(_ lookup: Lookup, stored: CachedResponse?, next: Next, context: MiddlewareContext)
        async throws -> TransportResponse
    {
        var request = lookup.request
        let conditional = stored?.hasValidator == true
        if let stored, conditional {
            if let etag = stored.headers["ETag"] { request.headers["If-None-Match"] = etag }
            if let lastModified = stored.headers["Last-Modified"] {
                request.headers["If-Modified-Since"] = lastModified
            }
        }
        let requestTime = lookup.timeline.date
        let response: TransportResponse
        do {
            let forwarded = request
            response = try await CacheStatus.$forwarding.withValue(conditional ? .revalidated : .miss) {
                try await next(forwarded)
            }
        } catch let error as ErrandError {
            guard case .transport = error, let stored, allowsStaleOnError(stored, at: lookup.timeline.date) else {
                throw error
            }
            return answer(lookup, with: stored, status: .stale, context: context)
        }
        let responseTime = lookup.timeline.date
        if let stored, conditional, response.status == 304 {
            let refreshed = stored.refreshed(
                with: response.headers, requestTime: requestTime, responseTime: responseTime)
            store.store(refreshed)
            var served = served(refreshed, for: lookup, status: .revalidated)
            served.metrics = response.metrics
            return served
        }
        if let stored, [500, 502, 503, 504].contains(response.status), allowsStaleOnError(stored, at: responseTime) {
            return answer(lookup, with: stored, status: .stale, context: context)
        }
        keepIfAllowed(response, lookup: lookup, requestTime: requestTime, responseTime: responseTime)
        var result = response
        if result.cacheStatus == .notUsed { result.cacheStatus = .miss }
        return result
    }

    /// Stores a response from the network if RFC 9111 §3 allows it; a `no-store` answer also drops older entries.
    private func keepIfAllowed(_ response: TransportResponse, lookup: Lookup, requestTime: Date, responseTime: Date) {
        guard !lookup.requestControl.noStore else { return }
        let control = CacheControl(response.headers)
        if control.noStore {
            store.remove(url: lookup.key)
            return
        }
        // A response reached through redirects belongs to another URL; keying it under this one would hide them.
        guard CacheKey.primary(response.url) == lookup.key, response.status != 206, response.status != 304 else {
            return
        }
        let varyNames = CacheKey.varyNames(response.headers)
        guard varyNames != ["*"] else { return }
        let entry = CachedResponse(
            url: lookup.key, variant: CacheKey.variant(names: varyNames, requestHeaders: lookup.request.headers),
            status: response.status, headers: response.headers, body: response.body, requestTime: requestTime,
            responseTime: responseTime)
        guard Self.heuristicallyCacheable.contains(response.status) || entry.explicitLifetime != nil else { return }
        store.store(entry)
    }

    /// Statuses that may be stored without an explicit lifetime (RFC 9110 §15.1).
    private static let heuristicallyCacheable: Set<Int> = [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501]

    private func allowsStaleOnError(_ stored: CachedResponse, at now: Date) -> Bool {
        guard !stored.control.mustRevalidate else { return false }
        let allowed = max(
            stored.control.staleIfError.map(TimeInterval.init) ?? -1,
            configuration.staleIfError.map { $0 / .seconds(1) } ?? -1)
        return allowed >= 0 && stored.staleness(at: now, fallbackLifetime: nil) <= allowed
    }

    /// A successful unsafe request invalidates what is stored for its URL (RFC 9111 §4.4).
    private func passUnsafe(_ request: TransportRequest, next: Next) async throws -> TransportResponse {
        let response = try await next(request)
        let safe: Set<HTTPMethod> = [.get, .head, .options, HTTPMethod(rawValue: "TRACE")]
        if !safe.contains(request.method), (200..<400).contains(response.status) {
            store.remove(url: CacheKey.primary(request.url))
        }
        return response
    }

    // MARK: Answering from the cache

    /// Serves a stored entry without the transport, and reports it to observers.
    private func answer(_ lookup: Lookup, with stored: CachedResponse, status: CacheStatus, context: MiddlewareContext)
        -> TransportResponse
    {
        let response = served(stored, for: lookup, status: status)
        report(lookup, status: response.status, error: nil, cacheStatus: status, context: context)
        return response
    }

    private func served(_ stored: CachedResponse, for lookup: Lookup, status: CacheStatus) -> TransportResponse {
        var headers = stored.headersWithoutAge
        headers.add(name: "Age", value: stored.ageHeaderValue(at: lookup.timeline.date))
        return TransportResponse(
            status: stored.status, headers: headers, body: stored.body, url: lookup.request.url,
            metrics: TransferMetrics(total: ContinuousClock.now - lookup.started), cacheStatus: status)
    }

    private func notCached(_ lookup: Lookup, context: MiddlewareContext) -> ErrandError {
        let error = ErrandError.notCached(lookup.request.url)
        report(lookup, status: nil, error: error, cacheStatus: .miss, context: context)
        return error
    }

    private func report(
        _ lookup: Lookup, status: Int?, error: ErrandError?, cacheStatus: CacheStatus, context: MiddlewareContext
    ) {
        guard !context.observers.isEmpty else { return }
        let request = lookup.request
        let redaction = context.redaction
        let reported: ErrandError? = error.map { error in
            if case .notCached(let url) = error { return .notCached(URL(string: redaction.redact(url)) ?? url) }
            return error
        }
        context.report(
            ExchangeEvent(
                method: request.method, url: redaction.redact(request.url),
                requestHeaders: redaction.redact(request.headers),
                status: status, error: reported, duration: ContinuousClock.now - lookup.started, bytesReceived: 0,
                bytesSent: 0, attempt: request.options.attempt, cacheStatus: cacheStatus, metrics: nil))
    }
}
