import Foundation

/// The seam between the client and the wire: a fully built request in; status, headers, body and metrics out.
///
/// A transport enforces ``TransportRequest/maxResponseBodySize`` and ``TransportRequest/timeouts``, and reports every
/// failure as an ``ErrandError`` (cancellation of the calling task as ``ErrandError/cancelled``). A non-2xx status is
/// not a failure here: the client decides what it accepts. A transport never follows a redirect: it returns the 3xx
/// response as it came, and the client's one redirect follower decides every hop by ``TransportRequest/redirects``,
/// whichever transport carries it.
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
        return StreamingResponse(
            status: response.status, headers: response.headers, url: response.url,
            body: ByteStream(buffered: response.body))
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
    /// How the client follows this request's redirects (transports return every 3xx as it is).
    public var redirects: RedirectPolicy
    /// Per-request options for middleware.
    public var options: RequestOptions
    /// Whether the caller wants the body in memory or as it arrives (downloads, event streams,
    /// ``APIClient/stream(_:)``): a streamed response carries its body in ``TransportResponse/bodyStream``.
    public var delivery: ResponseDelivery

    /// Creates a transport request.
    public init(
        method: HTTPMethod = .get, url: URL, headers: HTTPHeaders = [:], body: TransportBody = .none,
        timeouts: Timeouts = Timeouts(), maxResponseBodySize: Int = 50_000_000,
        redirects: RedirectPolicy = RedirectPolicy(), options: RequestOptions = RequestOptions(),
        delivery: ResponseDelivery = .buffered
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeouts = timeouts
        self.maxResponseBodySize = maxResponseBodySize
        self.redirects = redirects
        self.options = options
        self.delivery = delivery
    }
}

/// How a response body reaches the caller.
public enum ResponseDelivery: Sendable, Hashable {
    /// Read whole into ``TransportResponse/body`` before the response is returned.
    case buffered
    /// Returned as soon as the head arrives, the body following in ``TransportResponse/bodyStream``.
    case streamed
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
    /// Bytes streamed from an `AsyncSequence` as they are sent (``BodyStream``), with a known length or none.
    case stream(BodyStream)
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

/// A response as transports return it and middleware sees it.
///
/// A response to a ``ResponseDelivery/buffered`` request has its whole body in ``body``. A response to a
/// ``ResponseDelivery/streamed`` one has its body still to come, in ``bodyStream``, and ``body`` empty: middleware
/// that looks only at the status and headers (authentication, limits, retries, observers) works the same for both,
/// and one that needs the bytes reads them with ``collected(upTo:)``.
public struct TransportResponse: Sendable {
    /// The HTTP status code.
    public var status: Int
    /// The response headers.
    public var headers: HTTPHeaders
    /// The body, content-decoded (gzip, deflate, br); empty while ``bodyStream`` holds a body not read yet.
    public var body: Data
    /// The body still arriving, for a streamed request; `nil` when the body is in ``body``. Read it once: dropping it
    /// unread ends the transfer.
    public var bodyStream: ByteStream?
    /// The final URL, after redirects.
    public var url: URL
    /// Timings and sizes of the transfer.
    public var metrics: TransferMetrics
    /// How the cache took part in answering.
    public var cacheStatus: CacheStatus
    /// The request that led to this response, as the deepest middleware link passed it on: what an error built
    /// from the response masks the secrets of (a query credential in its URL, a token a body quotes).
    var request: TransportRequest?

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

    /// A streamed response, its body to come from `bodyStream`.
    public init(
        status: Int, headers: HTTPHeaders = [:], bodyStream: ByteStream, url: URL,
        metrics: TransferMetrics = TransferMetrics(), cacheStatus: CacheStatus = .notUsed
    ) {
        self.init(status: status, headers: headers, url: url, metrics: metrics, cacheStatus: cacheStatus)
        self.bodyStream = bodyStream
    }

    /// This response with a streamed body read into ``body`` (at most `limit` bytes, else
    /// ``ErrandError/bodyTooLarge(limit:)``); a buffered response as it is.
    public func collected(upTo limit: Int = .max) async throws -> TransportResponse {
        guard let bodyStream else { return self }
        var whole = self
        whole.body = try await bodyStream.collect(upTo: limit)
        whole.bodyStream = nil
        return whole
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
    /// The IP address the transfer connected to (the proxy's, through a proxy), when the transport reports it.
    public var remoteAddress: String?
    /// The port the transfer connected to, when the transport reports it.
    public var remotePort: Int?
    /// The local port of the connection, when the transport reports it: with ``remoteAddress`` and ``remotePort`` it
    /// tells one open connection from another, so two transfers with the same three values shared a connection.
    public var localPort: Int?

    /// Creates metrics.
    public init(
        dns: Duration? = nil, connect: Duration? = nil, tls: Duration? = nil, firstByte: Duration? = nil,
        total: Duration = .zero, bytesSent: Int = 0, bytesReceived: Int = 0, httpVersion: String? = nil,
        connectionReused: Bool? = nil, redirectCount: Int = 0, remoteAddress: String? = nil, remotePort: Int? = nil,
        localPort: Int? = nil
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
        self.remoteAddress = remoteAddress
        self.remotePort = remotePort
        self.localPort = localPort
    }
}
