import Foundation

/// A client's ``CookieJar`` on the wire: it sits below the redirect follower, so it runs once per hop. Each hop
/// carries the cookies the jar holds for that hop's URL, and every hop's `Set-Cookie` is stored before the follower
/// decides what comes next (a 302 that sets a session cookie, then the page that needs it).
///
/// The `Cookie` field a caller wrote stays first, the jar's cookies follow; the follower drops the caller's field
/// when a hop goes to another server (``RedirectPolicy``), and the jar adds only what its rules give that server.
struct CookieMiddleware: Middleware {
    let jar: CookieJar

    func intercept(_ request: TransportRequest, context: MiddlewareContext, next: Next) async throws
        -> TransportResponse
    {
        var wire = request
        jar.attach(to: &wire, markingUsed: true)
        let response = try await next(wire)
        jar.receive(response.headers, from: request.url)
        return response
    }
}

extension CookieJar {
    /// Adds the jar's cookies for the request's URL to its `Cookie` field, after any the caller wrote.
    func attach(to request: inout TransportRequest, markingUsed: Bool) {
        let value = markingUsed ? headerValueForSending(to: request.url) : headerValue(for: request.url)
        guard let value else { return }
        let own = request.headers["Cookie"].flatMap { $0.isEmpty ? nil : $0 }
        request.headers["Cookie"] = own.map { $0 + "; " + value } ?? value
    }
}
