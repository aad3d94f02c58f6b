/// How the cache takes part in a transfer it passes on, so the client can label that transfer for observers.
enum ForwardedCacheStatusKey: RequestOptionKey {
    static let defaultValue = CacheStatus.notUsed
}

extension RequestOptions {
    /// Set by ``HTTPCache`` on the requests it passes on: `.miss`, or `.revalidated` for a conditional request.
    var forwardedCacheStatus: CacheStatus {
        get { self[ForwardedCacheStatusKey.self] }
        set { self[ForwardedCacheStatusKey.self] = newValue }
    }
}

extension TransportRequest {
    /// The cache status to report for a transfer of this request: the transport's own when it used a cache;
    /// otherwise `.revalidated` when the cache's conditional request was answered 304, `.miss` when the cache passed
    /// the request on, `.notUsed` when no cache took part.
    func reportedCacheStatus(for response: TransportResponse?) -> CacheStatus {
        if let response, response.cacheStatus != .notUsed { return response.cacheStatus }
        switch options.forwardedCacheStatus {
        case .revalidated: return response?.status == 304 ? .revalidated : .miss
        case .notUsed: return .notUsed
        default: return .miss
        }
    }
}
