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
    public func intercept(_ request: TransportRequest, context: MiddlewareContext, next: @escaping Next) async throws -> TransportResponse {
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
    public func intercept(_ request: TransportRequest, context: MiddlewareContext, next: @escaping Next) async throws -> TransportResponse {
        try await hook(request, try await next(request))
    }
}

/// Middleware that adds an API key to every request, as a header or a query parameter.
///
/// A key sent in the query shows up in URLs: add its name to the client's ``Redaction`` so observers and errors
/// hide it.
public struct APIKey: Middleware {
    /// Where the key goes.
    public enum Placement: Sendable, Hashable {
        /// A header of this name.
        case header(String)
        /// A query parameter of this name, appended to the URL.
        case query(String)
    }

    /// Where the key goes.
    public let placement: Placement
    private let value: String

    /// Creates the middleware.
    public init(_ value: String, in placement: Placement) {
        self.value = value
        self.placement = placement
    }

    /// Adds the key, then passes the request on.
    public func intercept(_ request: TransportRequest, context: MiddlewareContext, next: @escaping Next) async throws -> TransportResponse {
        var request = request
        switch placement {
        case .header(let name):
            request.headers[name] = value
        case .query(let name):
            guard var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false) else {
                throw ErrandError.invalidURL("\(request.url.absoluteString) is not a valid URL.")
            }
            let pair = URLBuilder.encodeQuery([QueryItem(name, value)])
            components.percentEncodedQuery = [components.percentEncodedQuery, pair].compactMap { $0 }.joined(separator: "&")
            guard let url = components.url else {
                throw ErrandError.invalidURL("\(request.url.absoluteString) is not a valid URL.")
            }
            request.url = url
        }
        return try await next(request)
    }
}
