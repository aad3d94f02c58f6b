import Foundation

/// The seam between the client and the wire: a fully built request in; status, headers, body and metrics out.
///
/// A transport follows redirects per ``TransportRequest/redirects``, enforces ``TransportRequest/maxResponseBodySize``
/// and ``TransportRequest/timeouts``, and reports every failure as an ``ErrandError`` (cancellation of the calling
/// task as ``ErrandError/cancelled``). A non-2xx status is not a failure here: the client decides what it accepts.
public protocol Transport: Sendable {
    /// Performs the request and buffers the whole response body.
    func send(_ request: TransportRequest) async throws -> TransportResponse

    /// Performs the request and returns as soon as the headers arrive; the body follows as a stream of chunks.
    ///
    /// The default implementation buffers with ``send(_:)`` and yields the body as one chunk.
    func stream(_ request: TransportRequest) async throws -> StreamingResponse
}

extension Transport {
    /// Buffers the response with ``send(_:)`` and yields its body as a single chunk.
    public func stream(_ request: TransportRequest) async throws -> StreamingResponse {
        let response = try await send(request)
        let chunk = ChunkOnce(response.body)
        return StreamingResponse(
            status: response.status, headers: response.headers, url: response.url,
            body: ByteStream { chunk.take() })
    }
}

/// A fully built request as transports receive it.
public struct TransportRequest: Sendable {
    /// The method.
    public var method: HTTPMethod
    /// The absolute, percent-encoded URL.
    public var url: URL
    /// All header fields, the client's defaults merged in.
    public var headers: HTTPHeaders
    /// The body.
    public var body: TransportBody
    /// The timeouts to enforce.
    public var timeouts: Timeouts
    /// The largest response body accepted, in bytes (after content decoding); larger fails with
    /// ``ErrandError/bodyTooLarge(limit:)``, as early as the transport can tell.
    public var maxResponseBodySize: Int
    /// How to follow redirects.
    public var redirects: RedirectPolicy
    /// Per-request options for middleware.
    public var options: RequestOptions

    /// Creates a transport request.
    public init(
        method: HTTPMethod = .get, url: URL, headers: HTTPHeaders = [:], body: TransportBody = .none,
        timeouts: Timeouts = Timeouts(), maxResponseBodySize: Int = 50_000_000,
        redirects: RedirectPolicy = RedirectPolicy(), options: RequestOptions = RequestOptions()
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeouts = timeouts
        self.maxResponseBodySize = maxResponseBodySize
        self.redirects = redirects
        self.options = options
    }
}

/// A request body as transports receive it.
public enum TransportBody: Sendable, Hashable {
    /// No body.
    case none
    /// Bytes in memory.
    case data(Data)
    /// A file, read as it is sent.
    case file(URL)
    /// A `multipart/form-data` body, its files read as they are sent; the request's `Content-Type` names its boundary.
    case multipart(MultipartBody)
}

/// Timeouts a transport enforces. `nil` means none of that kind.
public struct Timeouts: Sendable, Hashable {
    /// Time allowed to open the connection (including DNS and TLS).
    public var connect: Duration?
    /// Time allowed without receiving any byte once connected.
    public var idle: Duration?
    /// Time allowed for the whole exchange, redirects included.
    public var total: Duration?

    /// Creates timeouts.
    public init(connect: Duration? = nil, idle: Duration? = nil, total: Duration? = nil) {
        self.connect = connect
        self.idle = idle
        self.total = total
    }

    /// The longest timeout a transport keeps: a week. Longer ones count as a week, so that every timer and every
    /// millisecond count a transport derives from them fits its integer types.
    public static let longest: Duration = .seconds(7 * 86_400)

    /// These timeouts within `0...longest`: a negative one counts as zero (it has passed), a longer one as ``longest``.
    public var clamped: Timeouts {
        func clamp(_ value: Duration?) -> Duration? { value.map { min(max($0, .zero), Self.longest) } }
        return Timeouts(connect: clamp(connect), idle: clamp(idle), total: clamp(total))
    }
}

/// How a transport follows redirects.
public struct RedirectPolicy: Sendable, Hashable {
    /// The most redirects followed for one request; one more fails with ``TransportFailure/Kind/tooManyRedirects``.
    /// Zero returns the 3xx response itself.
    public var maxRedirects: Int
    /// Where a hop may use plain http. ``APIClient`` sets it from its base URL and
    /// ``ClientConfiguration/allowsInsecureHTTP``, so every hop obeys the rule the first request did.
    public var plainHTTP: PlainHTTPPolicy

    /// Creates a policy. Redirects never downgrade https to http, go to plain http only where `plainHTTP` permits,
    /// and drop `Authorization`, `Proxy-Authorization` and `Cookie` when the scheme, host or port changes; 307 and 308
    /// keep the method and the body.
    public init(maxRedirects: Int = 10, plainHTTP: PlainHTTPPolicy = .loopback) {
        self.maxRedirects = maxRedirects
        self.plainHTTP = plainHTTP
    }

    /// The request fields that carry credentials, which a redirect to another server must not receive.
    static let credentialHeaders = ["Authorization", "Proxy-Authorization", "Cookie"]

    /// Why a redirect from `current` to `target` is refused (as a transport failure), or `nil` when it may be
    /// followed: https anywhere; plain http only from plain http and where ``plainHTTP`` permits; nothing else.
    /// Both transports decide every hop with this.
    func refusal(from current: URL, to target: URL) -> TransportFailure? {
        let from = current.scheme?.lowercased()
        let to = target.scheme?.lowercased()
        if to == "https" { return nil }
        if to == "http", from == "http", plainHTTP.permitsHTTP(to: target) { return nil }
        let reason =
            to == "http" && from == "http"
            ? "refused a plain http redirect to \(target.host ?? "?"), which this client may not reach without encryption"
            : "refused redirect from \(from ?? "?") to \(to ?? "?")"
        return TransportFailure(kind: .insecureRedirect, url: current, underlying: reason)
    }

    /// The request with the fields a redirect from `current` to `target` must not carry removed: every credential
    /// field when the target is another server.
    static func headers(_ headers: HTTPHeaders, from current: URL, to target: URL) -> HTTPHeaders {
        guard !sameServer(current, target) else { return headers }
        var kept = headers
        for name in credentialHeaders { kept.remove(name) }
        return kept
    }

    /// Whether two URLs name the same server: scheme, host (ignoring case) and port (the scheme's default when absent).
    static func sameServer(_ first: URL, _ second: URL) -> Bool {
        func port(_ url: URL) -> Int? {
            url.port ?? (url.scheme?.lowercased() == "https" ? 443 : url.scheme?.lowercased() == "http" ? 80 : nil)
        }
        return first.scheme?.lowercased() == second.scheme?.lowercased()
            && first.host?.lowercased() == second.host?.lowercased() && port(first) == port(second)
    }
}

/// A buffered response as transports return it.
public struct TransportResponse: Sendable {
    /// The HTTP status code.
    public var status: Int
    /// The response headers.
    public var headers: HTTPHeaders
    /// The body, content-decoded (gzip, deflate, br).
    public var body: Data
    /// The final URL, after redirects.
    public var url: URL
    /// Timings and sizes of the transfer.
    public var metrics: TransferMetrics
    /// How the cache took part in answering.
    public var cacheStatus: CacheStatus

    /// Creates a response.
    public init(
        status: Int, headers: HTTPHeaders = [:], body: Data = Data(), url: URL,
        metrics: TransferMetrics = TransferMetrics(), cacheStatus: CacheStatus = .notUsed
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
        self.metrics = metrics
        self.cacheStatus = cacheStatus
    }
}

/// Timings and sizes of one transfer. Durations a transport cannot measure are `nil`.
public struct TransferMetrics: Sendable, Hashable {
    /// Time to resolve the host name.
    public var dns: Duration?
    /// Time until the TCP connection was open.
    public var connect: Duration?
    /// Time until the TLS handshake finished.
    public var tls: Duration?
    /// Time until the first response byte.
    public var firstByte: Duration?
    /// Time for the whole transfer.
    public var total: Duration
    /// Bytes of request body sent.
    public var bytesSent: Int
    /// Bytes of response body received (after decoding).
    public var bytesReceived: Int
    /// The HTTP version used, as `1.1` or `2`.
    public var httpVersion: String?
    /// Whether an existing connection was reused.
    public var connectionReused: Bool?
    /// How many redirects were followed.
    public var redirectCount: Int

    /// Creates metrics.
    public init(
        dns: Duration? = nil, connect: Duration? = nil, tls: Duration? = nil, firstByte: Duration? = nil,
        total: Duration = .zero, bytesSent: Int = 0, bytesReceived: Int = 0, httpVersion: String? = nil,
        connectionReused: Bool? = nil, redirectCount: Int = 0
    ) {
        self.dns = dns
        self.connect = connect
        self.tls = tls
        self.firstByte = firstByte
        self.total = total
        self.bytesSent = bytesSent
        self.bytesReceived = bytesReceived
        self.httpVersion = httpVersion
        self.connectionReused = connectionReused
        self.redirectCount = redirectCount
    }
}
