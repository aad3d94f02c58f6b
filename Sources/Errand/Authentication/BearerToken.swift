/// Middleware that sends one fixed bearer token, `Authorization: Bearer <token>`, with every request.
///
/// For a token that expires and can be renewed, use ``TokenRefreshMiddleware``. A request that sets its own
/// `Authorization` keeps it. The redirect follower drops the header when a hop leaves the server, and
/// `Authorization` is always redacted from observers, errors and curl commands.
///
/// A client also sends requests to absolute URLs a response handed out (an image on a CDN, say); pass `server` to
/// keep the token to the one server it belongs to:
///
/// ```swift
/// let auth = BearerToken(token, server: ServerIdentity(baseURL))
/// ```
public struct BearerToken: Middleware {
    /// The only server the token is sent to; `nil` sends it with every request.
    public let server: ServerIdentity?
    private let field: HTTPHeaders.Field

    /// Creates the middleware.
    ///
    /// - Parameters:
    ///   - token: the token, without the `Bearer ` scheme.
    ///   - server: the only server that receives it; `nil` (the default) sends it with every request.
    public init(_ token: String, server: ServerIdentity? = nil) {
        field = .authorization(bearerToken: token)
        self.server = server
    }

    /// Adds the token unless the request carries its own `Authorization` or goes to another server.
    public func intercept(_ request: TransportRequest, context: MiddlewareContext, next: @escaping Next) async throws
        -> TransportResponse
    {
        guard !request.headers.contains(field.name), server.map({ $0 == ServerIdentity(request.url) }) ?? true else {
            return try await next(request)
        }
        var request = request
        request.setSecretHeader(field.name, to: field.value)
        return try await next(request)
    }
}
