/// Overrides the client's retry policy for one request.
public enum RetryPolicyKey: RequestOptionKey {
    /// No override: the ``RetryMiddleware``'s own policy applies.
    public static let defaultValue: RetryPolicy? = nil
}

/// Declares whether one request is safe to repeat, whatever its method.
public enum IdempotencyKey: RequestOptionKey {
    /// Undeclared: the method decides.
    public static let defaultValue: Bool? = nil
}

/// Keeps one request out of coalescing.
public enum CoalescingKey: RequestOptionKey {
    /// Coalescing allowed.
    public static let defaultValue = true
}

extension RequestOptions {
    /// The retry policy for this request instead of the ``RetryMiddleware``'s; ``RetryPolicy/never`` turns retries off.
    public var retryPolicy: RetryPolicy? {
        get { self[RetryPolicyKey.self] }
        set { self[RetryPolicyKey.self] = newValue }
    }

    /// Whether this request may be repeated safely; `nil` lets the method decide (GET, HEAD, PUT, DELETE and
    /// OPTIONS are idempotent). Set `true` on a POST that carries an idempotency key to let it be retried.
    public var isIdempotent: Bool? {
        get { self[IdempotencyKey.self] }
        set { self[IdempotencyKey.self] = newValue }
    }

    /// Whether ``CoalescingMiddleware`` may share this request's transfer with identical ones in flight. Default `true`.
    public var allowsCoalescing: Bool {
        get { self[CoalescingKey.self] }
        set { self[CoalescingKey.self] = newValue }
    }
}
