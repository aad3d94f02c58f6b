/// A step around the transport: it may change the request, answer it itself, retry it, or look at the response.
///
/// Middleware runs in the order it is listed in ``ClientConfiguration/middleware``: the first is outermost.
/// Each calls `next` to pass the request on (zero, one or several times).
///
/// ```swift
/// struct TraceHeader: Middleware {
///     func intercept(_ request: TransportRequest, context: MiddlewareContext, next: Next) async throws -> TransportResponse {
///         var request = request
///         request.headers["X-Trace"] = UUID().uuidString
///         return try await next(request)
///     }
/// }
/// ```
public protocol Middleware: Sendable {
    /// The rest of the chain: the following middleware, then the transport.
    typealias Next = @Sendable (TransportRequest) async throws -> TransportResponse

    /// Handles one request.
    ///
    /// `next` may escape (coalescing runs it in a task of its own); implementations that only call it may take it
    /// non-escaping.
    func intercept(_ request: TransportRequest, context: MiddlewareContext, next: @escaping Next) async throws
        -> TransportResponse
}

/// What middleware may use besides the request: the client's observers, redaction rules and clock.
public struct MiddlewareContext: Sendable {
    /// Receives exchange events.
    public let observers: [any ExchangeObserver]
    /// How to hide secrets in what is reported: the client's rules. A middleware that reports a request itself masks
    /// it with `redaction.covering(request)`, which adds the request's own ``TransportRequest/secrets``.
    public let redaction: Redaction
    /// The client's ``ClientConfiguration/clock``: what a middleware that waits or reads the time should use.
    public var clock: any Clock<Duration> { timeline.clock }
    /// The clock as Errand reads it.
    let timeline: Timeline

    /// Creates a context; `clock` defaults to the real, monotonic clock.
    public init(
        observers: [any ExchangeObserver], redaction: Redaction, clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.init(observers: observers, redaction: redaction, timeline: Timeline(clock))
    }

    /// Creates a context on a client's timeline, so that every request reads the same origin and date.
    init(observers: [any ExchangeObserver], redaction: Redaction, timeline: Timeline) {
        self.observers = observers
        self.redaction = redaction
        self.timeline = timeline
    }

    /// Sends an event to every observer.
    public func report(_ event: ExchangeEvent) {
        for observer in observers { observer.exchangeDidFinish(event) }
    }
}

/// A middleware made from a closure.
public struct ClosureMiddleware: Middleware {
    private let body: @Sendable (TransportRequest, MiddlewareContext, Next) async throws -> TransportResponse

    /// Wraps a closure with the same shape as ``Middleware/intercept(_:context:next:)``.
    public init(
        _ body: @escaping @Sendable (TransportRequest, MiddlewareContext, Next) async throws -> TransportResponse
    ) {
        self.body = body
    }

    /// Calls the closure.
    public func intercept(_ request: TransportRequest, context: MiddlewareContext, next: Next) async throws
        -> TransportResponse
    {
        try await body(request, context, next)
    }
}

extension Array where Element == any Middleware {
    /// Chains the middleware around `terminal`, first element outermost.
    ///
    /// Each link masks the secrets of the request it is given in what comes back through it: an error thrown below
    /// is redacted by the client's rules, the request's own ``TransportRequest/secrets`` and the secret values it
    /// carries (``Redaction/including(secretsOf:)``); a response remembers the deepest request that led to it, for
    /// the error the exchange builds from it. A link receives the request as the middleware above it left it, so a
    /// credential any middleware attaches is masked in whatever passes back through that middleware, whoever built
    /// it (the transport, the redirect follower, the cache).
    func chained(context: MiddlewareContext, terminal: @escaping Middleware.Next) -> Middleware.Next {
        reversed().reduce(Self.maskingSecrets(of: terminal, context: context)) { next, middleware in
            Self.maskingSecrets(
                of: { request in try await middleware.intercept(request, context: context, next: next) },
                context: context)
        }
    }

    /// `next`, with the secrets of the request it is given masked in what it throws, and the request remembered by
    /// what it returns unless a deeper link's is.
    private static func maskingSecrets(of next: @escaping Middleware.Next, context: MiddlewareContext)
        -> Middleware.Next
    {
        { request in
            do {
                var response = try await next(request)
                if response.request == nil { response.request = request }
                return response
            } catch let error as ErrandError {
                throw APIClient.redacted(error, context.redaction.covering(request).including(secretsOf: request))
            }
        }
    }
}
