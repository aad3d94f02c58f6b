/// What a request accepts from the HTTP cache: the request directives of RFC 9111 §5.2.1 as values.
///
/// ``HTTPCache`` reads the same directives from a request's own `Cache-Control` (and `Pragma: no-cache`) field; when
/// both are given, each directive takes the stricter of the two. Set it per request:
///
/// ```swift
/// // Anything up to an hour stale, and never the network (a 504 when nothing that fresh is stored):
/// let offline = request.with(RequestCacheControlKey.self, .onlyIfCached(maxStale: .seconds(3_600)))
/// ```
///
/// Unlike ``CachePolicy``, which decides whether the cache is used at all, these refine how fresh a stored response
/// must be. A stored response marked `must-revalidate` or `no-cache` is never served stale, whatever the request
/// accepts.
public struct RequestCacheControl: Sendable, Hashable {
    /// The oldest a stored response may be (`max-age`): older ones are revalidated. Zero revalidates every time.
    public var maxAge: Duration?
    /// How long a stored response must stay fresh after it is served (`min-fresh`).
    public var minFresh: Duration?
    /// How long past its freshness a stored response may be served without asking the server (`max-stale`);
    /// ``unlimitedStaleness`` accepts any age.
    public var maxStale: Duration?
    /// Never go to the network (`only-if-cached`): answer from what is stored, or with a 504 (Gateway Timeout)
    /// response when nothing stored satisfies the other directives.
    public var onlyIfCached: Bool
    /// Revalidate a stored response before using it (`no-cache`).
    public var noCache: Bool
    /// Neither use nor keep a stored response for this request (`no-store`).
    public var noStore: Bool

    /// A `max-stale` without a value: a stored response of any age will do.
    public static let unlimitedStaleness = Duration.seconds(Int64(Int32.max) + 1)

    /// Creates directives; every one defaults to absent.
    public init(
        maxAge: Duration? = nil, minFresh: Duration? = nil, maxStale: Duration? = nil, onlyIfCached: Bool = false,
        noCache: Bool = false, noStore: Bool = false
    ) {
        self.maxAge = maxAge
        self.minFresh = minFresh
        self.maxStale = maxStale
        self.onlyIfCached = onlyIfCached
        self.noCache = noCache
        self.noStore = noStore
    }

    /// Only what is stored, up to `maxStale` past its freshness (any age when `nil`); a 504 response otherwise.
    public static func onlyIfCached(maxStale: Duration? = nil) -> RequestCacheControl {
        RequestCacheControl(maxStale: maxStale ?? unlimitedStaleness, onlyIfCached: true)
    }

    /// The directives as `Cache-Control` would carry them, merged into parsed ones: each takes the stricter value.
    func merged(into control: CacheControl) -> CacheControl {
        var merged = control
        if let maxAge { merged.maxAge = min(merged.maxAge ?? .max, Self.seconds(maxAge)) }
        if let minFresh { merged.minFresh = max(merged.minFresh ?? 0, Self.seconds(minFresh)) }
        if let maxStale {
            let seconds = maxStale >= Self.unlimitedStaleness ? CacheControl.unlimitedStaleness : Self.seconds(maxStale)
            merged.maxStale = min(merged.maxStale ?? .max, seconds)
        }
        merged.onlyIfCached = merged.onlyIfCached || onlyIfCached
        merged.noCache = merged.noCache || noCache
        merged.noStore = merged.noStore || noStore
        return merged
    }

    /// Whole seconds, rounded down, never negative, at most 2³¹ (as delta-seconds are read).
    private static func seconds(_ duration: Duration) -> Int {
        let whole = duration.components.seconds
        return Int(min(max(0, whole), Int64(CacheControl.largestDeltaSeconds)))
    }
}

/// The per-request cache directives option; `nil` adds none to those of the request's `Cache-Control` field.
public enum RequestCacheControlKey: RequestOptionKey {
    /// No directives.
    public static let defaultValue: RequestCacheControl? = nil
}

extension RequestOptions {
    /// The cache directives of this request (``RequestCacheControl``), on top of its `Cache-Control` field.
    public var cacheControl: RequestCacheControl? {
        get { self[RequestCacheControlKey.self] }
        set { self[RequestCacheControlKey.self] = newValue }
    }
}
