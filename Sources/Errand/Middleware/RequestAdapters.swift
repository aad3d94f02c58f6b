import Foundation

/// Middleware that changes every request before it is sent: adds a header, signs it, rewrites the URL.
///
/// ```swift
/// let tracing = RequestAdapter { request in request.headers["X-Trace"] = UUID().uuidString }
/// ```
public struct RequestAdapter: Middleware {
    private let adapt: @Sendable (inout TransportRequest) async throws -> Void

    /// Wraps a function that changes the request in place. What it throws fails the request.
    public init(_ adapt: @escaping @Sendable (inout TransportRequest) async throws -> Void) {
        self.adapt = adapt
    }

    /// Adapts the request, then passes it on.
    public func intercept(_ request: TransportRequest, context: MiddlewareContext, next: @escaping Next) async throws
        -> TransportResponse
    {
        var request = request
        try await adapt(&request)
        return try await next(request)
    }
}

/// Middleware that looks at every response (and may replace it) on its way back to the caller.
///
/// ```swift
/// let quota = ResponseHook { _, response in
///     if let left = response.headers["X-RateLimit-Remaining"] { print("requests left:", left) }
///     return response
/// }
/// ```
public struct ResponseHook: Middleware {
    private let hook: @Sendable (TransportRequest, TransportResponse) async throws -> TransportResponse

    /// Wraps a function of the request and its response that returns the response to pass up.
    public init(_ hook: @escaping @Sendable (TransportRequest, TransportResponse) async throws -> TransportResponse) {
        self.hook = hook
    }

    /// Sends the request and hands the response to the hook.
    public func intercept(_ request: TransportRequest, context: MiddlewareContext, next: @escaping Next) async throws
        -> TransportResponse
    {
        try await hook(request, try await next(request))
    }
}
