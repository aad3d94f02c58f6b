import Foundation

extension HTTPCache {
    /// Methods that change nothing on the server, and so invalidate nothing (RFC 9110 §9.2.1).
    private static let safeMethods: Set<HTTPMethod> = [.get, .head, .options, HTTPMethod(rawValue: "TRACE")]

    /// Passes a request of any method but `GET` and `HEAD` on; when the method is unsafe (or unknown) and the
    /// answer is not an error, invalidates the target URL and the same-origin URLs its `Location` and
    /// `Content-Location` name (RFC 9111 §4.4).
    ///
    /// Other origins are left alone: a response may not invalidate what another server said, or a hostile one
    /// could empty the cache of every site.
    func passUnsafe(_ request: TransportRequest, next: Next) async throws -> TransportResponse {
        let response = try await next(request)
        guard !Self.safeMethods.contains(request.method), (200..<400).contains(response.status) else {
            return response
        }
        for url in Self.invalidatedURLs(request: request, response: response) {
            store.remove(url: CacheKey.primary(url))
        }
        return response
    }

    /// The target and the same-origin `Location` and `Content-Location` URLs, resolved against the target.
    static func invalidatedURLs(request: TransportRequest, response: TransportResponse) -> [URL] {
        let origin = ServerIdentity(urlText: request.url.absoluteString)?.origin
        var urls = [request.url]
        for name in ["Location", "Content-Location"] {
            guard let value = response.headers[name], !value.isEmpty,
                let url = URL(string: value, relativeTo: request.url)?.absoluteURL, origin != nil,
                ServerIdentity(urlText: url.absoluteString)?.origin == origin
            else { continue }
            urls.append(url)
        }
        return urls
    }
}
