import Foundation

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
    public func intercept(_ request: TransportRequest, context: MiddlewareContext, next: @escaping Next) async throws
        -> TransportResponse
    {
        var request = request
        switch placement {
        case .header(let name):
            request.headers[name] = value
        case .query(let name):
            guard var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false) else {
                throw ErrandError.invalidURL("\(request.url.absoluteString) is not a valid URL.")
            }
            let pair = URLBuilder.encodeQuery([QueryItem(name, value)])
            components.percentEncodedQuery = [components.percentEncodedQuery, pair].compactMap { $0 }.joined(
                separator: "&")
            guard let url = components.url else {
                throw ErrandError.invalidURL("\(request.url.absoluteString) is not a valid URL.")
            }
            request.url = url
        }
        return try await next(request)
    }
}
