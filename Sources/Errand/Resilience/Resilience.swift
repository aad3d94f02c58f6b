/// Builds the usual resilience middleware in the order that works: coalescing, retry, rate limit, concurrency limit.
///
/// ```swift
/// let configuration = ClientConfiguration(
///     baseURL: base,
///     middleware: Resilience.middleware(
///         retry: .default, rateLimiter: RateLimiter(rate: 80, burst: 10), maxConcurrent: 8))
/// ```
/// Coalescing comes first so that one transfer, retries included, serves every identical caller; retry comes before
/// the limiters so that every attempt waits its turn and no slot is held during a backoff. Add authentication
/// (``TokenRefreshMiddleware``, ``APIKey``) after these so that every attempt carries fresh credentials.
///
/// Retry and the two limiters run as one middleware here: the same behaviour as listing ``RetryMiddleware``,
/// ``RateLimitMiddleware`` and ``ConcurrencyLimitMiddleware`` in that order, with one step of the chain instead of
/// three (each step costs an async call and a closure per request).
public enum Resilience {
    /// The middleware for the given parts, in order; a part that is `nil` or off is left out.
    ///
    /// - Parameters:
    ///   - retry: the retry policy; `nil` for no retries. Default ``RetryPolicy/default``.
    ///   - rateLimiter: the rate limiter to share; `nil` for none.
    ///   - maxConcurrent: the most requests in flight; `nil` for no limit.
    ///   - coalesces: whether identical GETs in flight share a transfer. Default `false`.
    public static func middleware(
        retry: RetryPolicy? = .default, rateLimiter: RateLimiter? = nil, maxConcurrent: Int? = nil,
        coalesces: Bool = false
    ) -> [any Middleware] {
        var chain: [any Middleware] = []
        if coalesces { chain.append(CoalescingMiddleware()) }
        if retry != nil || rateLimiter != nil || maxConcurrent != nil {
            chain.append(
                FusedResilience(
                    retry: retry, rateLimiter: rateLimiter,
                    concurrencyLimiter: maxConcurrent.map(ConcurrencyLimiter.init)))
        }
        return chain
    }
}

/// Retry, rate limit and concurrency limit in one step of the chain.
struct FusedResilience: Middleware, RetryingMiddleware {
    let retry: RetryPolicy?
    var retryPolicy: RetryPolicy? { retry }
    let rateLimiter: RateLimiter?
    let concurrencyLimiter: ConcurrencyLimiter?

    func intercept(_ request: TransportRequest, context: MiddlewareContext, next: @escaping Next) async throws
        -> TransportResponse
    {
        let timeline = context.timeline
        guard let retry = request.options.retryPolicy ?? retry else {
            return try await attempt(request, timeline, next)
        }
        return try await RetryMiddleware.send(request, policy: retry, timeline: timeline) {
            try await attempt($0, timeline, next)
        }
    }

    /// One attempt: a turn from the rate limiter, then a slot from the concurrency limiter.
    private func attempt(_ request: TransportRequest, _ timeline: Timeline, _ next: Next) async throws
        -> TransportResponse
    {
        guard let rateLimiter else { return try await limitedConcurrency(request, next) }
        return try await RateLimitMiddleware.send(request, limiter: rateLimiter, timeline: timeline) {
            try await limitedConcurrency($0, next)
        }
    }

    private func limitedConcurrency(_ request: TransportRequest, _ next: Next) async throws -> TransportResponse {
        guard let concurrencyLimiter else { return try await next(request) }
        return try await ConcurrencyLimitMiddleware.send(request, limiter: concurrencyLimiter, through: next)
    }
}
