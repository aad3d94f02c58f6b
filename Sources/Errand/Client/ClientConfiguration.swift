import Foundation

/// Everything an ``APIClient`` is configured with.
public struct ClientConfiguration: Sendable {
    /// The URL every request path is relative to, as `https://www.themealdb.com/api/json/v1/1`.
    public var baseURL: URL
    /// Headers sent with every request; a request's own headers replace same-named ones.
    public var headers: HTTPHeaders
    /// The decoder for JSON responses.
    public var decoder: JSONDecoder
    /// The encoder for JSON bodies. Default ``defaultEncoder()``: keys sorted.
    public var encoder: JSONEncoder
    /// The wire. Defaults to ``ClientConfiguration/defaultTransport()``: libcurl on Linux, URLSession on Apple
    /// platforms.
    public var transport: any Transport
    /// Middleware around the transport, first outermost: retry, limits, cache, auth, …
    public var middleware: [any Middleware]
    /// Observers of every exchange.
    public var observers: [any ExchangeObserver]
    /// Secrets to hide from observers and error descriptions.
    public var redaction: Redaction
    /// Total time a request may take, unless the request says otherwise. Default 60 seconds; at most
    /// ``Timeouts/longest`` (a week) counts, a negative one as zero.
    public var timeout: Duration?
    /// Time allowed to connect. Default 15 seconds.
    public var connectTimeout: Duration?
    /// Largest response body accepted, in bytes. Default ``defaultMaxResponseBodySize`` (50 MB).
    ///
    /// Decoding JSON takes memory beyond the body: measured with `JSONDecoder` on this project's machines, about
    /// 3× the body for arrays of objects and 6× for arrays of numbers, at 11–30 MB/s. Set a limit that fits the API.
    public var maxResponseBodySize: Int
    /// Whether plain `http` may be used to hosts that are not loopback. Default `false`.
    public var allowsInsecureHTTP: Bool
    /// How redirects are followed.
    public var redirects: RedirectPolicy
    /// The most bytes of a failed response's body an error keeps (``StatusFailure/body``). Default 64 KiB.
    public var maxErrorBodySize = 65_536
    /// Makes the app's own error from a failed response (decoding the API's error document, say); the client still
    /// throws ``ErrandError``, with what this returns as ``StatusFailure/appError``. `nil` (the default) makes none.
    ///
    /// It sees the failure as the caller will: headers, URL and text body already redacted.
    public var errorResponse: (@Sendable (StatusFailure) -> (any Error)?)?
    /// The clock that the client's waits run on and its notion of now is read from. Default `ContinuousClock()`.
    ///
    /// Retry backoff and `Retry-After` waits, the retry deadline, event-stream reconnection, per-host rate limiters
    /// made by ``RateLimitMiddleware/perHost(rate:burst:)``, and the cache's freshness all read it; a test hands in
    /// a manual clock (`ManualClock` in ErrandTesting) and moves time itself. A ``RateLimiter`` made on its own keeps
    /// the clock it was made with, since one limiter can serve many clients. With the real clocks, the cache compares
    /// HTTP dates with the system's date; with any other clock, with the system's date when the clock was set,
    /// moved on by as much as the clock has advanced since. Transports time their own timeouts with the real clock.
    public var clock: any Clock<Duration> {
        get { timeline.clock }
        set { timeline = Timeline(newValue) }
    }
    /// The clock as Errand reads it: time since it was set, and the date.
    var timeline: Timeline
    /// The cookies the client keeps and sends, or `nil` (the default) for none: no `Cookie` field but the caller's
    /// own, and `Set-Cookie` ignored. See ``CookieJar``.
    public var cookies: CookieJar?

    /// The largest response body a configuration accepts unless told otherwise: 50 MB.
    public static let defaultMaxResponseBodySize = 50_000_000

    /// The `User-Agent` sent by default: `Errand/<version> (<platform>)`.
    public static let defaultUserAgent: String = {
        #if os(Linux)
        let platform = "Linux"
        #elseif os(macOS)
        let platform = "macOS"
        #elseif os(iOS)
        let platform = "iOS"
        #elseif os(tvOS)
        let platform = "tvOS"
        #elseif os(watchOS)
        let platform = "watchOS"
        #elseif os(visionOS)
        let platform = "visionOS"
        #else
        let platform = "Swift"
        #endif
        return "Errand/\(libraryVersion) (\(platform))"
    }()

    /// Creates a configuration with the defaults described on each property.
    public init(
        baseURL: URL,
        headers: HTTPHeaders = [:],
        decoder: JSONDecoder = JSONDecoder(),
        encoder: JSONEncoder = ClientConfiguration.defaultEncoder(),
        transport: (any Transport)? = nil,
        middleware: [any Middleware] = [],
        observers: [any ExchangeObserver] = [],
        redaction: Redaction = Redaction(),
        timeout: Duration? = .seconds(60),
        connectTimeout: Duration? = .seconds(15),
        maxResponseBodySize: Int = ClientConfiguration.defaultMaxResponseBodySize,
        allowsInsecureHTTP: Bool = false,
        redirects: RedirectPolicy = RedirectPolicy(),
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.baseURL = baseURL
        self.headers = HTTPHeaders([
            .init(name: "User-Agent", value: Self.defaultUserAgent), .init(name: "Accept", value: "application/json"),
        ]).merging(headers)
        self.decoder = decoder
        self.encoder = encoder
        self.transport = transport ?? Self.defaultTransport()
        self.middleware = middleware
        self.observers = observers
        self.redaction = redaction
        self.timeout = timeout
        self.connectTimeout = connectTimeout
        self.maxResponseBodySize = maxResponseBodySize
        self.allowsInsecureHTTP = allowsInsecureHTTP
        self.redirects = redirects
        timeline = Timeline(clock)
    }
}

extension ClientConfiguration {
    /// The library's version, as sent in the default `User-Agent`.
    public static let libraryVersion = "0.1.0"

    /// The transport used when a configuration names none, shared by every client that names none.
    ///
    /// ``CurlTransport`` on Linux; ``URLSessionTransport`` on Apple platforms (the system's own networking, and the
    /// only transport there is on iOS, tvOS, watchOS and visionOS) and in builds without libcurl (`ERRAND_NO_CURL=1`).
    public static func defaultTransport() -> any Transport {
        #if canImport(CCurl) && !canImport(Darwin)
        return CurlTransport.shared
        #else
        return URLSessionTransport.shared
        #endif
    }
}
