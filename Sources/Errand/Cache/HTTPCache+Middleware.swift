import Foundation

extension HTTPCache {
    /// Answers from the cache, revalidates, or passes the request on and stores the response, per the request's
    /// ``CachePolicy`` and cache directives. Streamed requests (downloads, event streams, ``APIClient/stream(_:)``)
    /// pass through; `HEAD` is answered from a stored `GET`; unsafe methods invalidate what they change.
    public func intercept(_ request: TransportRequest, context: MiddlewareContext, next: @escaping Next) async throws
        -> TransportResponse
    {
        switch request.method {
        case .get: break
        case .head: return try await head(request, context: context, next: next)
        default: return try await passUnsafe(request, next: next)
        }
        // Streamed bodies (downloads, event streams, `stream`) go to their reader as they arrive, never into the cache.
        if request.delivery == .streamed { return try await next(request) }
        let lookup = Lookup(request: request, configuration: configuration, timeline: context.timeline)
        if lookup.bypassesCache { return try await next(request) }
        if lookup.requestControl.noStore {
            // The caller asked that nothing about this exchange be kept: no lookup, no store.
            guard lookup.policy != .cacheOnly else { throw notCached(lookup, context: context) }
            if lookup.requestControl.onlyIfCached { return gatewayTimeout(lookup, context: context) }
            return try await forward(lookup, stored: nil, next: next, context: context)
        }
        if lookup.policy == .reload { return try await forward(lookup, stored: nil, next: next, context: context) }

        let stored = store.response(
            for: lookup.key, requestHeaders: request.headers, bodyLimit: request.maxResponseBodySize)
        switch decision(lookup, stored: stored) {
        case .serve(let stored, let status):
            if let range = lookup.range {
                guard let partial = RangeAnswer(range, of: stored) else {
                    return try await rangeFromNetwork(lookup, next: next, context: context)
                }
                return answer(lookup, with: stored, status: status, range: partial, context: context)
            }
            return answer(lookup, with: stored, status: status, context: context)
        case .serveAndRevalidate(let stored):
            if let range = lookup.range, let partial = RangeAnswer(range, of: stored) {
                revalidateInBackground(lookup, stored: stored, next: next, context: context)
                return answer(lookup, with: stored, status: .stale, range: partial, context: context)
            }
            if lookup.range != nil { return try await rangeFromNetwork(lookup, next: next, context: context) }
            revalidateInBackground(lookup, stored: stored, next: next, context: context)
            return answer(lookup, with: stored, status: .stale, context: context)
        case .notCached:
            throw notCached(lookup, context: context)
        case .gatewayTimeout:
            return gatewayTimeout(lookup, context: context)
        case .forward(let stored):
            if lookup.range != nil { return try await rangeFromNetwork(lookup, next: next, context: context) }
            return try await forward(lookup, stored: stored, next: next, context: context)
        }
    }

    /// What to do with a request, given what is stored for it.
    enum Decision {
        /// Serve the stored response, with this status.
        case serve(CachedResponse, CacheStatus)
        /// Serve the stored response stale, and revalidate it in the background.
        case serveAndRevalidate(CachedResponse)
        /// Fail with ``ErrandError/notCached(_:)`` (``CachePolicy/cacheOnly`` and nothing stored).
        case notCached
        /// Answer 504 (`only-if-cached` and nothing usable stored).
        case gatewayTimeout
        /// Ask the server, conditionally when a stored response is given.
        case forward(CachedResponse?)
    }

    /// The one place the policy, the request's directives and the stored response's freshness meet.
    func decision(_ lookup: Lookup, stored: CachedResponse?) -> Decision {
        let now = lookup.timeline.date
        switch lookup.policy {
        case .cacheOnly, .returnCacheElseLoad:
            guard let stored else { return lookup.policy == .cacheOnly ? .notCached : .forward(nil) }
            return .serve(stored, stored.isFresh(at: now, fallbackLifetime: lookup.ttl) ? .hit : .stale)
        case .useProtocol, .reload:
            guard let stored else { return lookup.requestControl.onlyIfCached ? .gatewayTimeout : .forward(nil) }
            switch stored.use(for: lookup.requestControl, at: now, fallbackLifetime: lookup.ttl) {
            case .fresh: return .serve(stored, .hit)
            case .acceptedStale: return .serve(stored, .stale)
            case .staleWhileRevalidate:
                return lookup.requestControl.onlyIfCached ? .serve(stored, .stale) : .serveAndRevalidate(stored)
            case .validate: return lookup.requestControl.onlyIfCached ? .gatewayTimeout : .forward(stored)
            }
        }
    }

    // MARK: Going to the network

    /// Passes the request on — conditionally when a stored entry has validators — and handles the answer: a 304
    /// refreshes the entry, a failure may serve it stale, anything else is stored if it may be.
    func forward(_ lookup: Lookup, stored: CachedResponse?, next: Next, context: MiddlewareContext)
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
            status: response.status, headers: CachedResponse.storedFields(of: response.headers), body: response.body,
            requestTime: requestTime, responseTime: responseTime)
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

    // MARK: Answering from the cache

    /// Serves a stored entry without the transport — whole, or the part a `Range` asked for — and reports it to
    /// observers.
    func answer(
        _ lookup: Lookup, with stored: CachedResponse, status: CacheStatus, range: RangeAnswer? = nil,
        bodyless: Bool = false, context: MiddlewareContext
    ) -> TransportResponse {
        var response = served(stored, for: lookup, status: status)
        if let range { range.apply(to: &response) }
        if bodyless { response.body = Data() }
        report(lookup, status: response.status, error: nil, cacheStatus: status, context: context, response: response)
        return response
    }

    func served(_ stored: CachedResponse, for lookup: Lookup, status: CacheStatus) -> TransportResponse {
        var headers = stored.headersWithoutAge
        headers.add(name: "Age", value: stored.ageHeaderValue(at: lookup.timeline.date))
        return TransportResponse(
            status: stored.status, headers: headers, body: stored.body, url: lookup.request.url,
            metrics: TransferMetrics(total: ContinuousClock.now - lookup.started), cacheStatus: status)
    }

    /// The answer to `only-if-cached` when nothing stored will do (RFC 9111 §5.2.1.7): 504, never the network.
    func gatewayTimeout(_ lookup: Lookup, context: MiddlewareContext) -> TransportResponse {
        report(lookup, status: 504, error: nil, cacheStatus: .miss, context: context)
        return TransportResponse(
            status: 504, headers: ["Content-Length": "0"], url: lookup.request.url,
            metrics: TransferMetrics(total: ContinuousClock.now - lookup.started), cacheStatus: .miss)
    }

    /// A `Range` request nothing stored can answer: to the server as it is, unconditionally (a 304 would leave
    /// nothing to take the range from), and a complete 200 answer is stored.
    private func rangeFromNetwork(_ lookup: Lookup, next: Next, context: MiddlewareContext) async throws
        -> TransportResponse
    {
        if lookup.policy == .cacheOnly { throw notCached(lookup, context: context) }
        if lookup.requestControl.onlyIfCached { return gatewayTimeout(lookup, context: context) }
        return try await forward(lookup, stored: nil, next: next, context: context)
    }

    func notCached(_ lookup: Lookup, context: MiddlewareContext) -> ErrandError {
        let error = ErrandError.notCached(lookup.request.url)
        report(lookup, status: nil, error: error, cacheStatus: .miss, context: context)
        return error
    }

    func report(
        _ lookup: Lookup, status: Int?, error: ErrandError?, cacheStatus: CacheStatus, context: MiddlewareContext,
        response: TransportResponse? = nil
    ) {
        guard !context.observers.isEmpty else { return }
        let request = lookup.request
        let duration = ContinuousClock.now - lookup.started
        func event(_ rules: Redaction) -> ExchangeEvent {
            let redaction = rules.covering(request)
            let reported: ErrandError? = error.map { error in
                if case .notCached(let url) = error { return .notCached(URL(string: redaction.redact(url)) ?? url) }
                return error
            }
            return ExchangeEvent(
                method: request.method, url: redaction.redact(request.url),
                requestHeaders: redaction.redact(request.headers),
                status: status, error: reported, duration: duration, bytesReceived: 0,
                bytesSent: 0, attempt: request.options.attempt, cacheStatus: cacheStatus, metrics: nil,
                requestBody: request.body.redacted(redaction.including(secretsOf: request)),
                responseHeaders: response.map { redaction.redact($0.headers) } ?? [:],
                responseBody: response.map { redaction.including(secretsOf: request).redact(body: $0.body) })
        }
        context.observers.deliver(event(context.redaction)) { event(.revealing) }
    }
}
