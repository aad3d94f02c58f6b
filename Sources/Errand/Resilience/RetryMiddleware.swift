/// Middleware that retries transient failures by a ``RetryPolicy``.
///
/// Every attempt goes through the rest of the chain with ``RequestOptions/attempt`` set (1, 2, …), so observers see
/// each one. When retries run out, the last response is returned (the client then reports its status) or the last
/// failure is thrown. A 403 HTML page is never retried: the client reports it as ``ErrandError/blocked(_:)``.
/// Cancelling the calling task during a backoff wait ends the wait at once with ``ErrandError/cancelled``. Waits and
/// the deadline run on the client's ``ClientConfiguration/clock``.
///
/// Put it before rate and concurrency limiters so that every attempt waits for its own turn, and no slot is held
/// during the backoff.
public struct RetryMiddleware: Middleware, RetryingMiddleware {
    /// The policy for requests that do not set ``RequestOptions/retryPolicy``.
    public var policy: RetryPolicy

    var retryPolicy: RetryPolicy? { policy }

    /// Creates retry middleware.
    public init(policy: RetryPolicy = .default) {
        self.policy = policy
    }

    /// Sends the request, and again while the policy allows.
    public func intercept(_ request: TransportRequest, context: MiddlewareContext, next: @escaping Next) async throws
        -> TransportResponse
    {
        try await Self.send(
            request, policy: request.options.retryPolicy ?? policy, timeline: context.timeline, through: next)
    }

    /// Sends `request` through `next` as often as `policy` allows. Shared with the fused chain of ``Resilience``.
    static func send(
        _ request: TransportRequest, policy: RetryPolicy, timeline: Timeline,
        through next: (TransportRequest) async throws -> TransportResponse
    ) async throws -> TransportResponse {
        guard policy.allowsRetry(of: request) else { return try await next(request) }
        let deadline = policy.deadline.map { timeline.now + $0 }
        var attempt = 1
        while true {
            var current = request
            if attempt > 1 { current.options.attempt = attempt }
            if let deadline {
                let remaining = deadline - timeline.now
                current.timeouts.total = min(current.timeouts.total ?? remaining, remaining)
            }
            let thisAttempt = attempt
            let outlook = RetryOutlook { outcome in
                Self.retryWait(
                    after: outcome, attempt: thisAttempt, policy: policy, deadline: deadline, timeline: timeline)
            }
            current.options[RetryOutlookKey.self] = outlook
            let wait: Duration
            do {
                let response = try await next(current)
                guard let due = outlook.wait(after: .success(response)) else { return response }
                wait = due
            } catch {
                let failure = ErrandError(error)
                if Task.isCancelled { throw ErrandError.cancelled }
                guard let due = outlook.wait(after: .failure(failure)) else { throw failure }
                wait = due
            }
            do {
                try await timeline.sleep(for: wait)
            } catch {
                throw ErrandError.cancelled
            }
            attempt += 1
        }
    }

    /// The wait before sending the request again after an attempt's outcome; `nil` when it is not sent again: the
    /// outcome is not retryable, the attempts ran out, the server's `Retry-After` is too long, or the wait would end
    /// past the deadline.
    private static func retryWait(
        after outcome: Result<TransportResponse, ErrandError>, attempt: Int, policy: RetryPolicy,
        deadline: Duration?, timeline: Timeline
    ) -> Duration? {
        guard attempt < policy.maxAttempts else { return nil }
        let wait: Duration
        switch outcome {
        case .success(let response):
            guard policy.isRetryable(response) else { return nil }
            let retryAfter = RetryAfter.delay(in: response.headers, now: timeline.date)
            if let retryAfter, retryAfter > policy.maxRetryAfter { return nil }
            wait = retryAfter ?? policy.backoff(beforeRetry: attempt)
        case .failure(let failure):
            guard policy.isRetryable(failure) else { return nil }
            wait = policy.backoff(beforeRetry: attempt)
        }
        return fits(wait, before: deadline, timeline: timeline) ? wait : nil
    }

    /// Whether a wait still leaves time for another attempt before the deadline.
    private static func fits(_ wait: Duration, before deadline: Duration?, timeline: Timeline) -> Bool {
        guard let deadline else { return true }
        return timeline.now + wait < deadline
    }
}

/// Middleware that retries by a policy, which transfers that retry in their own way (a download resuming where its
/// body broke off) follow too.
protocol RetryingMiddleware {
    /// The policy for requests that do not set their own; `nil` when this middleware does not retry.
    var retryPolicy: RetryPolicy? { get }
}

/// Whether the retry middleware sends a request again after an attempt's outcome: what the observers' report of an
/// attempt reads (``ExchangeEvent/willRetry``), decided by the same rule the retry loop follows.
final class RetryOutlook: Sendable {
    private let decide: @Sendable (Result<TransportResponse, ErrandError>) -> Duration?

    init(_ decide: @escaping @Sendable (Result<TransportResponse, ErrandError>) -> Duration?) {
        self.decide = decide
    }

    /// The wait before the next attempt, `nil` when there is none.
    func wait(after outcome: Result<TransportResponse, ErrandError>) -> Duration? { decide(outcome) }
}

/// The retry outlook of the attempt a request is, set by the retry middleware; `nil` outside a retry loop.
enum RetryOutlookKey: RequestOptionKey {
    static let defaultValue: RetryOutlook? = nil
}
