/// Middleware that keeps at most a ``ConcurrencyLimiter``'s limit of requests in flight.
///
/// The slot is held from the start of the transfer until its response (or failure) is back, not during a retry's
/// backoff when ``RetryMiddleware`` comes earlier in the chain. A streamed response (``APIClient/stream(_:)``, a
/// download, an event stream) holds its slot until its body ends, fails or is dropped: an event stream holds one for
/// as long as it stays connected.
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
        try await Self.send(request, limiter: limiter, through: next)
    }

    /// Sends `request` through `next` holding a slot of `limiter`. Shared with the fused chain of ``Resilience``.
    static func send(
        _ request: TransportRequest, limiter: ConcurrencyLimiter,
        through next: (TransportRequest) async throws -> TransportResponse
    ) async throws -> TransportResponse {
        try await limiter.acquire()
        var response: TransportResponse
        do {
            response = try await next(request)
        } catch {
            limiter.release()
            throw error
        }
        guard let stream = response.bodyStream else {
            limiter.release()
            return response
        }
        response.bodyStream = stream.onEnd { _, _ in limiter.release() }
        return response
    }
}
