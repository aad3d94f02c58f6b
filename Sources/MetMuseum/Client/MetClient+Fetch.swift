import Errand

extension MetClient {
    /// Fetches many objects at once, politely: within a rate limit, a few at a time, results in the IDs' order.
    ///
    /// The fetch starts at once; iterate the returned ``ObjectFetch`` for its events (or call
    /// ``ObjectFetch/result()``). IDs the Met does not have or does not serve, and objects whose record does not
    /// decode or is larger than the body limit, are skipped and reported; a 403 block, a 503 that outlasts the
    /// retries, or a wire failure stops it. Duplicate IDs are fetched once per occurrence.
    ///
    /// - Parameters:
    ///   - ids: the objects to fetch, in the order wanted.
    ///   - rate: requests per second for this fetch alone, kept in every window as ``budget(rate:clock:)`` describes
    ///     (on the client's clock); `nil`
    ///     (the default) uses only the client's ``rateLimiter`` (never more than 80 in any second unless configured
    ///     otherwise). Must be positive.
    ///   - concurrency: the most requests in flight. Default 8.
    public func objects(ids: [Int], rate: Double? = nil, concurrency: Int = 8) -> ObjectFetch {
        ObjectFetch(
            plan: { () throws(MetError) in
                try Self.validate(rate: rate, concurrency: concurrency)
                return (ids, ids.count, ids.count)
            },
            fetch: fetcher(), rateLimiter: limiter(for: rate), concurrency: concurrency)
    }

    /// Searches, then fetches the first `limit` matching objects the Met serves, as one cancellable fetch.
    ///
    /// An ID the Met does not have or does not serve is skipped and replaced by the next matching ID, so the fetch
    /// delivers `limit` objects whenever the search has that many to serve, in search order; the replacements wait
    /// for the same rate limit. ``ObjectFetchEvent/started(ids:matches:)`` lists the first `limit` IDs, and a
    /// replacement's ``ObjectFetchEvent/fetched(_:index:progress:)`` index continues past them, in search order;
    /// the progress's total grows by the replacements.
    ///
    /// Each call is a fetch of its own: an app that searches as the user types cancels the previous fetch itself
    /// (``ObjectFetch/cancel()``), as the museum feature's search store does. The ``ObjectFetchEvent/started(ids:matches:)`` event carries the search's
    /// total as `matches`. An empty search finishes with no objects.
    ///
    /// - Parameters:
    ///   - query: the search.
    ///   - limit: the most objects to deliver (skipped ones are not counted). Default 30.
    ///   - rate: as for ``objects(ids:rate:concurrency:)``.
    ///   - concurrency: as for ``objects(ids:rate:concurrency:)``.
    public func searchObjects(_ query: SearchQuery, limit: Int = 30, rate: Double? = nil, concurrency: Int = 8)
        -> ObjectFetch
    {
        let client = self
        return ObjectFetch(
            plan: { () throws(MetError) in
                try Self.validate(rate: rate, concurrency: concurrency)
                guard limit >= 0 else { throw .invalidQuery("the limit must not be negative, not \(limit).") }
                let found = try await client.search(query)
                return (found.ids, found.total, limit)
            },
            fetch: fetcher(), rateLimiter: limiter(for: rate), concurrency: concurrency)
    }

    private func fetcher() -> ObjectFetch.FetchOne {
        let client = self
        return { id throws(MetError) in try await client.object(id: id) }
    }

    /// What a fetch waits for before each request, beyond what the client's middleware already waits for.
    private func limiter(for rate: Double?) -> RateLimiter? {
        if let rate { return Self.budget(rate: rate, clock: client.configuration.clock) }
        return budgetsEveryRequest ? nil : rateLimiter
    }

    private static func validate(rate: Double?, concurrency: Int) throws(MetError) {
        if let rate, !(rate > 0 && rate.isFinite) {
            throw .invalidQuery("the rate must be a positive number of requests per second, not \(rate).")
        }
        guard concurrency >= 1 else {
            throw .invalidQuery("at least one request must be allowed in flight, not \(concurrency).")
        }
    }
}
