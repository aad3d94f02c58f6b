import Foundation

extension HTTPCache {
    /// Answers a `HEAD` from the stored `GET` response when that may be used (its fields, no body: RFC 9110 §9.3.2),
    /// else sends it on; a 200 from the server freshens the stored `GET` response it describes (RFC 9111 §4.3.5).
    /// A `HEAD` response is never stored on its own: it has no body to serve a `GET` with.
    func head(_ request: TransportRequest, context: MiddlewareContext, next: @escaping Next) async throws
        -> TransportResponse
    {
        let lookup = Lookup(request: request, configuration: configuration, timeline: context.timeline)
        if lookup.bypassesCache { return try await next(request) }
        if lookup.requestControl.noStore || lookup.policy == .reload {
            if lookup.policy == .cacheOnly { throw notCached(lookup, context: context) }
            if lookup.requestControl.onlyIfCached { return gatewayTimeout(lookup, context: context) }
            return try await next(request)
        }
        let stored = store.response(for: lookup.key, requestHeaders: request.headers)
        switch decision(lookup, stored: stored) {
        case .serve(let stored, let status):
            return answer(lookup, with: stored, status: status, bodyless: true, context: context)
        case .notCached:
            throw notCached(lookup, context: context)
        case .gatewayTimeout:
            return gatewayTimeout(lookup, context: context)
        case .serveAndRevalidate, .forward:
            // A stale GET is not revalidated by a HEAD's own conditional: the HEAD goes as it came, and its answer
            // freshens the stored response below when it describes the same representation.
            break
        }
        let requestTime = lookup.timeline.date
        var response = try await next(request)
        if response.status == 200, let stored {
            freshen(stored, with: response.headers, requestTime: requestTime, responseTime: lookup.timeline.date)
        }
        if response.cacheStatus == .notUsed { response.cacheStatus = .miss }
        return response
    }

    /// Updates a stored `GET` response with a `HEAD` response's fields when the two describe the same
    /// representation: the same strong `ETag`, else the same `Last-Modified`, else neither validator on either side.
    /// A different `Content-Length` means the stored body is no longer the representation: it is removed.
    private func freshen(_ stored: CachedResponse, with headers: HTTPHeaders, requestTime: Date, responseTime: Date) {
        if let length = headers["Content-Length"], let storedLength = stored.headers["Content-Length"],
            length != storedLength
        {
            store.remove(url: stored.url)
            return
        }
        let matches: Bool
        if let etag = headers["ETag"] {
            matches = !etag.hasPrefix("W/") && stored.headers["ETag"] == etag
        } else if let lastModified = headers["Last-Modified"] {
            matches = stored.headers["ETag"] == nil && stored.headers["Last-Modified"] == lastModified
        } else {
            matches = !stored.hasValidator
        }
        guard matches else { return }
        store.store(stored.refreshed(with: headers, requestTime: requestTime, responseTime: responseTime))
    }
}
