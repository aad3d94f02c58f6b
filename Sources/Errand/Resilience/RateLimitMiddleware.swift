import Synchronization

/// Middleware that starts requests no faster than a ``RateLimiter`` allows, and slows it down after a 429.
///
/// Give it one limiter to share one budget across every host a client talks to (and across clients, by passing the
/// same limiter), or use ``perHost(rate:burst:)`` for a budget per host.
public struct RateLimitMiddleware: Middleware {
    private enum Scope: Sendable {
        case shared(RateLimiter)
        case perHost(PerHostLimiters)
    }

    private let scope: Scope

    /// Limits every request with one limiter.
    public init(limiter: RateLimiter) {
        scope = .shared(limiter)
    }

    /// Limits requests with a limiter of its own for each server (``ServerIdentity``: scheme, host and port), made on
    /// first use on the client's ``ClientConfiguration/clock``.
    public static func perHost(rate: Double, burst: Int = 1) -> RateLimitMiddleware {
        RateLimitMiddleware(scope: .perHost(PerHostLimiters(rate: rate, burst: burst)))
    }

    private init(scope: Scope) {
        self.scope = scope
    }

    /// Waits for a turn, sends the request, and reports a 429 to the limiter.
    public func intercept(_ request: TransportRequest, context: MiddlewareContext, next: Next) async throws
        -> TransportResponse
    {
        let limiter: RateLimiter
        switch scope {
        case .shared(let shared): limiter = shared
        case .perHost(let limiters): limiter = limiters.limiter(for: request, clock: context.clock)
        }
        return try await Self.send(request, limiter: limiter, timeline: context.timeline, through: next)
    }

    /// Waits for a turn, sends, and slows the limiter down on 429. Shared with the fused chain of ``Resilience``.
    static func send(
        _ request: TransportRequest, limiter: RateLimiter, timeline: Timeline,
        through next: (TransportRequest) async throws -> TransportResponse
    ) async throws -> TransportResponse {
        try await limiter.acquire()
        let response = try await next(request)
        if response.status == 429 {
            limiter.slowDown(retryAfter: RetryAfter.delay(in: response.headers, now: timeline.date))
        }
        return response
    }
}

/// One rate limiter per server (``ServerIdentity``: scheme, host and port), created on first use.
final class PerHostLimiters: Sendable {
    private let rate: Double
    private let burst: Int
    private let limiters = Mutex<[ServerIdentity?: RateLimiter]>([:])

    init(rate: Double, burst: Int) {
        self.rate = rate
        self.burst = burst
    }

    func limiter(for request: TransportRequest, clock: any Clock<Duration>) -> RateLimiter {
        let host = ServerIdentity(request.url)
        return limiters.withLock { limiters in
            if let existing = limiters[host] { return existing }
            let created = RateLimiter(rate: rate, burst: burst, clock: clock)
            limiters[host] = created
            return created
        }
    }
}
