import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transport over Foundation's `URLSession` (FoundationNetworking on Linux).
///
/// It is the default on Apple platforms. On Linux it works but has limits of its own (measured in
/// docs/Transports.md): about a tenth of libcurl's throughput, streaming without backpressure (``stream(_:)`` hands
/// chunks over as they arrive, but cannot slow the server down for a slow reader), no custom CA or pinning (only the
/// system trust store counts), no transfer metrics beyond what Errand measures
/// itself, and its own timeouts are whole seconds — so this transport enforces the total timeout with its own timer.
/// Redirects are not followed here: every 3xx comes back as the response, with its `Location` and its body, for
/// the one redirect policy above the transports to apply.
/// Neither cookies nor `URLCache` are used: Errand's own cache middleware does caching, and a client's `CookieJar`
/// keeps cookies.
public final class URLSessionTransport: Transport {
    /// A transport over a session with the default configuration.
    public static let shared = URLSessionTransport()

    let session: URLSession
    private let delegate: SessionDelegate
    /// Streams (event streams, downloads, bodies read as they arrive) run in a session of their own. A session limits
    /// its connections per server (`httpMaximumConnectionsPerHost`, 6 by default), and a stream may hold one for
    /// hours: sharing one session, six open event streams left no connection for a plain request to their server.
    /// Apart, each has the configuration's limit (the same budget rule as curl's ``AdmissionLane``).
    private let streamSession: URLSession
    private let streamDelegate: SessionDelegate
    /// On Linux, at most `httpMaximumConnectionsPerHost` buffered exchanges per server at once (``URLSessionAdmission``);
    /// streams are not admitted, since an event stream may stay open for hours: the stream session's own limit
    /// queues them.
    let admission: URLSessionAdmission?
    /// How multipart bodies reach URLSession (``MultipartDelivery``).
    let multipartDelivery: MultipartDelivery
    /// The trust, client certificate and proxy credentials its challenges are answered with.
    let policy: ChallengePolicy

    /// Creates a transport over a new session made from `configuration` (copied; cookies and `URLCache` are
    /// switched off, and the session's delegate is this transport's).
    ///
    /// On Linux the transport runs at most the configuration's `httpMaximumConnectionsPerHost` exchanges per server
    /// at once and queues the rest, which bounds the memory FoundationNetworking's delegate queue takes.
    ///
    /// - Parameters:
    ///   - configuration: the session's configuration.
    ///   - trust: the anchors and pins evaluated in URLSession's server-trust challenge (Apple platforms); `nil`
    ///     leaves trust to the system. FoundationNetworking on Linux sends no such challenge, so there an https
    ///     request fails with ``ErrandError/invalidRequest(_:)`` rather than going out unchecked.
    ///   - clientCertificate: the certificate presented in the client-certificate challenge (Apple platforms:
    ///     PKCS#12 or an identity); `nil` presents none. On Linux, as for `trust`, an https request fails.
    ///   - proxy: the proxies to use, set as the session's `connectionProxyDictionary`, whose credentials answer
    ///     a configured proxy's Basic challenge (Apple platforms; see `URLSessionConfiguration.applyProxySettings(_:)`
    ///     for Linux); `nil` leaves `configuration`'s proxies as they are.
    public convenience init(
        configuration: URLSessionConfiguration = .default, trust: ServerTrust? = nil,
        clientCertificate: ClientCertificate? = nil, proxy: ProxySettings? = nil
    ) {
        if let proxy { configuration.applyProxySettings(proxy) }
        let policy = ChallengePolicy(trust: trust, clientCertificate: clientCertificate, proxy: proxy ?? .direct)
        self.init(configuration: configuration, multipartDelivery: .platformDefault, policy: policy)
    }

    /// A transport that hands multipart bodies to URLSession as `multipartDelivery` says (tests try both on Linux).
    init(
        configuration: URLSessionConfiguration, multipartDelivery: MultipartDelivery,
        policy: ChallengePolicy = ChallengePolicy()
    ) {
        self.policy = policy
        self.multipartDelivery = multipartDelivery
        let configuration = configuration
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        // Cookies are the client's `CookieJar`, so that both transports keep them alike; the session keeps none.
        configuration.httpCookieStorage = nil
        configuration.urlCredentialStorage = nil
        delegate = SessionDelegate(policy: policy)
        #if canImport(FoundationNetworking)
        admission = URLSessionAdmission(perServer: configuration.httpMaximumConnectionsPerHost)
        #else
        admission = nil
        #endif
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        streamDelegate = SessionDelegate(policy: policy)
        streamSession = URLSession(configuration: configuration, delegate: streamDelegate, delegateQueue: nil)
    }

    deinit {
        session.invalidateAndCancel()
        streamSession.invalidateAndCancel()
    }

    /// Performs the request, enforcing the body-size limit as bytes arrive and the total timeout with a timer.
    ///
    /// A redirect is not followed: its 3xx comes back as the response, with its `Location` and its body.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        try policy.checkEnforceable(for: request.url)
        var current = request
        current.timeouts = request.timeouts.clamped
        let deadline = current.timeouts.total.map { ContinuousClock.now + $0 }
        return try await admitted(current.url) {
            // Time spent waiting for a slot counts against the total.
            if let deadline { current.timeouts.total = deadline - ContinuousClock.now }
            return try await perform(current)
        }
    }

    /// Runs one exchange with `url`'s server once ``admission`` lets it (at once where there is none).
    private func admitted<Value: Sendable>(_ url: URL, _ exchange: () async throws -> Value) async throws -> Value {
        guard let admission else { return try await exchange() }
        return try await admission.withSlot(for: url, exchange)
    }

    /// Performs the request and returns as soon as the response's head arrives; the body follows chunk by chunk, as
    /// URLSession's data delegate receives it.
    ///
    /// URLSession cannot pause a transfer, so chunks the reader has not taken yet are held in memory. The body-size
    /// limit and the total timeout apply. Cancelling the task that iterates the body, or dropping the body unread,
    /// cancels the data task and closes its connection. A redirect is not followed: its 3xx is the response. A file
    /// or multipart body is sent with ``send(_:)`` and its response yielded as one chunk, since its files stay open
    /// (or its spooled copy exists), and a file that changes is reported, only by a buffered exchange.
    public func stream(_ request: TransportRequest) async throws -> StreamingResponse {
        switch request.body {
        case .multipart, .file, .stream: return try await sendAsOneChunk(request)
        case .none, .data: break
        }
        try policy.checkEnforceable(for: request.url)
        try Task.checkCancellation()
        var current = request
        current.timeouts = request.timeouts.clamped
        let urlRequest = Self.makeURLRequest(current)
        let task = makeTask(urlRequest, uploadingFrom: nil, in: streamSession)
        let exchange = URLSessionExchange(request: current, task: task, streaming: true)
        streamDelegate.register(exchange, for: task)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                exchange.start(.streaming(continuation))
            }
        } onCancel: {
            exchange.fail(.cancelled)
        }
    }

    /// The exchange of a body that is a file or has files, buffered, its response body handed over as one chunk.
    private func sendAsOneChunk(_ request: TransportRequest) async throws -> StreamingResponse {
        let response = try await send(request)
        let chunk = ChunkOnce(response.body)
        return StreamingResponse(
            status: response.status, headers: response.headers, url: response.url, body: ByteStream { chunk.take() })
    }

    private func perform(_ request: TransportRequest) async throws -> TransportResponse {
        try Task.checkCancellation()
        var urlRequest = Self.makeURLRequest(request)
        let prepared = try await PreparedBody.prepare(request.body, into: &urlRequest, as: multipartDelivery)
        defer { prepared?.cleanUp() }
        let task = makeTask(urlRequest, uploadingFrom: prepared?.file, in: session)
        let exchange = URLSessionExchange(request: request, task: task, bodyLength: prepared?.length)
        delegate.register(exchange, for: task)
        do {
            let response = try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    exchange.start(.buffered(continuation))
                }
            } onCancel: {
                exchange.fail(.cancelled)
            }
            if let failure = prepared?.failure { throw failure }
            return response
        } catch {
            // A file that changed mid-upload stopped the stream: that, not URLSession's view of it, is why.
            throw prepared?.failure ?? error
        }
    }

    /// An upload task for a body that URLSession reads from a file (the request's own on Apple platforms, or a spooled
    /// multipart body), a data task for the rest.
    private func makeTask(_ urlRequest: URLRequest, uploadingFrom file: URL?, in session: URLSession) -> URLSessionTask
    {
        if let file { return session.uploadTask(with: urlRequest, fromFile: file) }
        return session.dataTask(with: urlRequest)
    }

    static func makeURLRequest(_ request: TransportRequest) -> URLRequest {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method.rawValue
        for field in request.headers {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name)
        }
        #if canImport(FoundationNetworking)
        // FoundationNetworking always decodes compressed bodies and never checks that the compressed stream ended:
        // a gzip body cut short, framed by its Content-Length, arrives as a complete, shorter body. Asked for
        // identity, a server sends the body as is, and a cut-off body falls short of its Content-Length, which is a
        // lost connection. A request that names its own encoding keeps it.
        if !request.headers.contains("Accept-Encoding") {
            urlRequest.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        }
        #endif
        if case .data(let data) = request.body {
            urlRequest.httpBody = data
        }
        // URLSession's own timeout is an idle timeout; the total is our timer's job.
        let idle = request.timeouts.idle ?? request.timeouts.total ?? .seconds(60)
        urlRequest.timeoutInterval = idleTimeoutInterval(idle / .seconds(1))
        urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
        return urlRequest
    }

    /// Apple's URLSession keeps fractional seconds; FoundationNetworking truncates to whole ones (0.5 s would fire at
    /// once), so there the interval is rounded up to at least a second.
    static func idleTimeoutInterval(_ seconds: Double) -> TimeInterval {
        #if canImport(FoundationNetworking)
        return max(1, seconds.rounded(.up))
        #else
        return seconds
        #endif
    }
}
