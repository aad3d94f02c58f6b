import Foundation

/// Whether a stored response may answer a request without the server, and how (RFC 9111 §4.2, §5.2; RFC 5861).
enum StoredResponseUse: Equatable {
    /// Fresh enough for the request: serve it.
    case fresh
    /// Stale, but the request's `max-stale` accepts it: serve it, marked stale.
    case acceptedStale
    /// Stale within the response's `stale-while-revalidate`: serve it at once and revalidate in the background.
    case staleWhileRevalidate
    /// The server must be asked first.
    case validate
}

extension CachedResponse {
    /// How this entry may be used for a request with these directives, at `now`.
    ///
    /// The request's `max-age` caps the age whatever else it accepts; `min-fresh` asks for that much freshness
    /// left; `max-stale` accepts staleness, except of a response that says `must-revalidate`; the response's
    /// `stale-while-revalidate` applies only when the request asks nothing of the age (no `max-age`, `min-fresh` or
    /// `max-stale`). `no-cache` on either side always means validate.
    ///
    /// A response that says `immutable` (RFC 8246) is served while fresh whatever the request's `max-age`: that is
    /// how a reload asks (`max-age=0`), and the response promised not to change before it goes stale, so asking the
    /// server would only cost a round trip (browsers skip it too). A request `no-cache` still validates it.
    func use(for request: CacheControl, at now: Date, fallbackLifetime: TimeInterval?) -> StoredResponseUse {
        guard !request.noCache, !control.noCache else { return .validate }
        let age = age(at: now)
        let lifetime = lifetime(fallback: fallbackLifetime)
        let freshImmutable = control.immutable && age < lifetime
        if let maxAge = request.maxAge, age > TimeInterval(maxAge), !freshImmutable { return .validate }
        if age + TimeInterval(request.minFresh ?? 0) < lifetime { return .fresh }
        guard !control.mustRevalidate else { return .validate }
        let staleness = max(0, age - lifetime)
        if let maxStale = request.maxStale {
            return maxStale == CacheControl.unlimitedStaleness || staleness <= TimeInterval(maxStale)
                ? .acceptedStale : .validate
        }
        if let window = control.staleWhileRevalidate, request.maxAge == nil, request.minFresh == nil,
            staleness <= TimeInterval(window)
        {
            return .staleWhileRevalidate
        }
        return .validate
    }
}
