/// How the HTTP cache took part in a response.
public enum CacheStatus: String, Sendable, Hashable, CaseIterable {
    /// No cache was consulted.
    case notUsed = "none"
    /// The cache had nothing usable; the response came from the network (and may have been stored).
    case miss
    /// Served from the cache without contacting the server.
    case hit
    /// The server confirmed the cached entry (304) and the cached body was served.
    case revalidated
    /// A stale entry was served because the network failed (`stale-if-error`) or the request allowed it.
    case stale
}

extension CacheStatus {
    /// How the cache is passing on the request being sent in this task: `.miss` for a plain request, `.revalidated`
    /// for a conditional one, `nil` when no cache passed it on.
    ///
    /// Set by ``HTTPCache`` only around its own call to the rest of the chain, so the transport and the requests it
    /// sees carry nothing of the cache's.
    @TaskLocal static var forwarding: CacheStatus?

    /// The status of one transfer as observers see it: the transport's own when it used a cache; otherwise what the
    /// cache that passed the request on makes of the answer (a 304 to its conditional request is `.revalidated`,
    /// anything else, a failure included, `.miss`), or `.notUsed` when no cache took part.
    static func ofTransfer(answeredBy response: TransportResponse?) -> CacheStatus {
        if let response, response.cacheStatus != .notUsed { return response.cacheStatus }
        switch forwarding {
        case nil: return .notUsed
        case .revalidated?: return response?.status == 304 ? .revalidated : .miss
        default: return .miss
        }
    }
}

extension TransportRequest {
    /// The cache status to report for a transfer of this request; see ``CacheStatus/ofTransfer(answeredBy:)``.
    func reportedCacheStatus(for response: TransportResponse?) -> CacheStatus {
        CacheStatus.ofTransfer(answeredBy: response)
    }
}
