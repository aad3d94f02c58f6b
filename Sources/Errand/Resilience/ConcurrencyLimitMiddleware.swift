/// Middleware that keeps at most a ``ConcurrencyLimiter``'s limit of requests in flight.
///
/// The slot is held from the start of the transfer until its response (or failure) is back, not during a retry's
/// backoff when ``RetryMiddleware`` comes earlier in the chain.
public struct ConcurrencyLimitMiddleware: Middleware {
    /// The limiter; share it to share the limit.
    public let limiter: ConcurrencyLimiter

    /// Limits requests with `limiter`.
    public init(limiter: ConcurrencyLimiter) {
        self.limiter = limiter
    }

    /// Limits requests to `limit` in flight with a limiter of its own.
    public init(limit: Int) {
        self.init(limiter: ConcurrencyLimiter(limit: limit))
    }

    /// Waits for a slot, sends the request, and frees the slot.
    public func intercept(_ request: TransportRequest, context: MiddlewareContext, next: Next) async throws
        -> TransportResponse
    {
        try await limiter.acquire()
        defer { limiter.release() }
        return try await next(request)
    }
}
