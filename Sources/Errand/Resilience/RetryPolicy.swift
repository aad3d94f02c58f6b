/// When and how often a failed request is tried again, and how long to wait in between.
///
/// The defaults retry transient wire failures (connection lost or refused, timeout) and the statuses 408, 425, 429,
/// 500, 502, 503 and 504, for idempotent methods only, at most 3 attempts in all, waiting a random time between zero
/// and `0.5 s × 2^(retry − 1)` (full jitter, capped at 10 s), within an overall deadline of 60 s. A `Retry-After`
/// header replaces the backoff when present; one asking for more than ``maxRetryAfter`` ends the retries instead.
///
/// ```swift
/// var policy = RetryPolicy.default
/// policy.maxAttempts = 5
/// let retry = RetryMiddleware(policy: policy)
/// ```
public struct RetryPolicy: Sendable, Hashable {
    /// How the backoff delay is randomised.
    public enum Jitter: Sendable, Hashable {
        /// A uniformly random delay between zero and the exponential delay ("full jitter"): spreads out clients
        /// that failed together.
        case full
        /// Exactly the exponential delay. Predictable; use in tests or with a single client.
        case none
    }

    /// Attempts in all, the first included. 1 means never retry; values below 1 count as 1.
    public var maxAttempts: Int
    /// The delay before the first retry, doubled for every further retry (before jitter).
    public var baseDelay: Duration
    /// The longest backoff delay (before jitter).
    public var maxDelay: Duration
    /// How the delay is randomised.
    public var jitter: Jitter
    /// The most time all attempts and waits together may take, counted from the first attempt; `nil` for none.
    ///
    /// Each attempt's total timeout is shortened to what is left, and no retry starts that could not begin in time.
    public var deadline: Duration?
    /// The longest `Retry-After` the policy waits for. A server asking for longer gets its response returned at once.
    public var maxRetryAfter: Duration
    /// Response statuses that are retried.
    public var retryableStatuses: Set<Int>
    /// Wire failures that are retried.
    public var retryableFailures: Set<TransportFailure.Kind>
    /// Whether methods that are not idempotent (POST, PATCH) are retried too. A single request can opt in with
    /// ``RequestOptions/isIdempotent`` instead.
    public var retriesNonIdempotentMethods: Bool

    /// Creates a policy; every parameter defaults to the value described on ``RetryPolicy``.
    public init(
        maxAttempts: Int = 3,
        baseDelay: Duration = .milliseconds(500),
        maxDelay: Duration = .seconds(10),
        jitter: Jitter = .full,
        deadline: Duration? = .seconds(60),
        maxRetryAfter: Duration = .seconds(30),
        retryableStatuses: Set<Int> = [408, 425, 429, 500, 502, 503, 504],
        retryableFailures: Set<TransportFailure.Kind> = [.connectionLost, .cannotConnect, .timedOut],
        retriesNonIdempotentMethods: Bool = false
    ) {
        self.maxAttempts = maxAttempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.jitter = jitter
        self.deadline = deadline
        self.maxRetryAfter = maxRetryAfter
        self.retryableStatuses = retryableStatuses
        self.retryableFailures = retryableFailures
        self.retriesNonIdempotentMethods = retriesNonIdempotentMethods
    }

    /// The defaults described on ``RetryPolicy``.
    public static let `default` = RetryPolicy()

    /// Never retries.
    public static let never = RetryPolicy(maxAttempts: 1)

    /// Whether a request may be retried at all: its method is idempotent, or the request or the policy opted in, and
    /// its body can be sent again (a body streamed from one sequence cannot: ``BodyStream/isReplayable``).
    public func allowsRetry(of request: TransportRequest) -> Bool {
        guard maxAttempts > 1 else { return false }
        // A body streamed from one sequence is gone once sent.
        if case .stream(let stream) = request.body, !stream.isReplayable { return false }
        if let declared = request.options.isIdempotent { return declared || retriesNonIdempotentMethods }
        return request.method.isIdempotent || retriesNonIdempotentMethods
    }

    /// The backoff before retry number `retry` (1 for the first retry), before any `Retry-After`.
    ///
    /// `unitRandom` is a number in `0...1` that picks the point within the jitter range.
    public func backoff(beforeRetry retry: Int, unitRandom: Double = Double.random(in: 0...1)) -> Duration {
        let exponent = min(max(retry - 1, 0), 62)
        let base = max(baseDelay, .zero)
        let cap = max(maxDelay, .zero)
        // Doubling in seconds as Double cannot overflow the way Duration arithmetic could for large exponents.
        let exponential = min(base.seconds * Double(sign: .plus, exponent: exponent, significand: 1), cap.seconds)
        switch jitter {
        case .none:
            return .seconds(exponential)
        case .full:
            return .seconds(exponential * min(max(unitRandom, 0), 1))
        }
    }

    /// Whether a response's status is worth retrying. A 403 HTML page (bot protection) never is.
    func isRetryable(_ response: TransportResponse) -> Bool {
        guard retryableStatuses.contains(response.status) else { return false }
        if response.status == 403, Self.isBlockPage(response) { return false }
        return true
    }

    /// Whether a failure is worth retrying.
    func isRetryable(_ error: ErrandError) -> Bool {
        if case .transport(let failure) = error { return retryableFailures.contains(failure.kind) }
        return false
    }

    static func isBlockPage(_ response: TransportResponse) -> Bool {
        DecodingFailure.looksLikeHTML(
            contentType: response.headers["Content-Type"],
            excerpt: String(decoding: response.body.prefix(64), as: UTF8.self))
    }
}

extension Duration {
    /// The duration in seconds, as a floating-point number.
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
