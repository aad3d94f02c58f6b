import Foundation

/// Middleware that adds an API key to every request, as a header or a query parameter.
///
/// The key is secret by construction: its header or query name is marked in the request's
/// ``TransportRequest/secrets``, so logs, errors, recordings and curl commands mask it without the client's
/// ``Redaction`` naming it, and a redirect to another server does not receive a key sent as a header.
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
    public func intercept(_ request: TransportRequest, context: MiddlewareContext, next: @escaping Next) async throws
        -> TransportResponse
    {
        var request = request
        switch placement {
        case .header(let name):
            request.setSecretHeader(name, to: value)
        case .query(let name):
            try request.appendSecretQueryItem(name, value: value)
        }
        return try await next(request)
    }
}
