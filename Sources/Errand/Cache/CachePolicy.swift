/// How a request uses the HTTP cache.
public enum CachePolicy: String, Sendable, Hashable, CaseIterable {
    /// Follow HTTP caching rules: serve fresh entries, revalidate stale ones, store what may be stored. The default.
    case useProtocol
    /// Ignore what is stored and fetch from the network; store the new response if it may be stored.
    case reload
    /// Serve any stored entry, fresh or stale, without asking the server; fetch only when nothing is stored.
    case returnCacheElseLoad
    /// Never touch the network (offline): serve any stored entry, fresh or stale; fail with
    /// ``ErrandError/notCached(_:)`` when nothing is stored.
    case cacheOnly
}

/// The per-request cache policy option. `nil` uses the cache's own ``HTTPCache/Configuration/policy``.
public enum CachePolicyKey: RequestOptionKey {
    /// No override.
    public static let defaultValue: CachePolicy? = nil
}

/// The per-request freshness override option. `nil` uses the cache's own ``HTTPCache/Configuration/defaultTTL``.
public enum CacheTTLKey: RequestOptionKey {
    /// No override.
    public static let defaultValue: Duration? = nil
}

extension RequestOptions {
    /// How this request uses the HTTP cache; `nil` (the default) uses the cache's configured policy.
    ///
    /// ```swift
    /// let offline = request.with(CachePolicyKey.self, .cacheOnly)
    /// ```
    public var cachePolicy: CachePolicy? {
        get { self[CachePolicyKey.self] }
        set { self[CachePolicyKey.self] = newValue }
    }

    /// How long a response that states no lifetime of its own (no `max-age`, no `Expires`) stays fresh for this
    /// request; `nil` (the default) uses the cache's ``HTTPCache/Configuration/defaultTTL``.
    public var cacheTTL: Duration? {
        get { self[CacheTTLKey.self] }
        set { self[CacheTTLKey.self] = newValue }
    }
}
