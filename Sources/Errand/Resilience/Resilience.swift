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
        if let retry { chain.append(RetryMiddleware(policy: retry)) }
        if let rateLimiter { chain.append(RateLimitMiddleware(limiter: rateLimiter)) }
        if let maxConcurrent { chain.append(ConcurrencyLimitMiddleware(limit: maxConcurrent)) }
        return chain
    }
}
