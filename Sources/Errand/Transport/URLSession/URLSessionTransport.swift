import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transport over Foundation's `URLSession` (FoundationNetworking on Linux).
///
/// It is the default on Apple platforms. On Linux it works but has limits of its own (measured in
/// docs/Transports.md): about a tenth of libcurl's throughput, no streaming (``Transport/stream(_:)`` buffers),
/// no custom CA or pinning (only the system trust store counts), no transfer metrics beyond what Errand measures
/// itself, and its own timeouts are whole seconds — so this transport enforces the total timeout with its own timer.
/// Redirects are followed by the transport's policy; 307/308 keep the body even where FoundationNetworking drops it.
/// Neither cookies nor `URLCache` are used: Errand's own cache middleware does caching.
public final class URLSessionTransport: Transport {
    /// A transport over a session with the default configuration.
    public static let shared = URLSessionTransport()

    private let session: URLSession
    private let delegate: SessionDelegate
    /// On Linux, at most `httpMaximumConnectionsPerHost` exchanges per server at once (``URLSessionAdmission``).
    let admission: URLSessionAdmission?

    /// Creates a transport over a new session made from `configuration` (copied; cookies and `URLCache` are
    /// switched off, and the session's delegate is this transport's).
    ///
    /// On Linux the transport runs at most the configuration's `httpMaximumConnectionsPerHost` exchanges per server
    /// at once and queues the rest, which bounds the memory FoundationNetworking's delegate queue takes.
    public init(configuration: URLSessionConfiguration = .default) {
        let configuration = configuration
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCredentialStorage = nil
        delegate = SessionDelegate()
        #if canImport(FoundationNetworking)
        admission = URLSessionAdmission(perServer: configuration.httpMaximumConnectionsPerHost)
        #else
        admission = nil
        #endif
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit {
        session.invalidateAndCancel()
    }

    /// Performs the request, enforcing the body-size limit as bytes arrive and the total timeout with a timer.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        var current = request
        current.timeouts = request.timeouts.clamped
        let deadline = current.timeouts.total.map { ContinuousClock.now + $0 }
        var redirects = 0
        while true {
            if let deadline { current.timeouts.total = deadline - ContinuousClock.now }
            let hop = current, hops = redirects
            let (response, exchange) = try await admitted(hop.url) { try await perform(hop, redirectsSoFar: hops) }
            guard let next = exchange.pendingRedirect else { return response }
            // A 307/308 with a body: follow it here, keeping the method and the body.
            current.headers = RedirectPolicy.headers(current.headers, from: current.url, to: next.url)
            current.url = next.url
            redirects = next.count
        }
    }

    /// Runs one exchange with `url`'s server once ``admission`` lets it (at once where there is none).
    private func admitted<Value: Sendable>(_ url: URL, _ exchange: () async throws -> Value) async throws -> Value {
        guard let admission else { return try await exchange() }
        return try await admission.withSlot(for: url, exchange)
    }

    private func perform(
        _ request: TransportRequest, redirectsSoFar: Int
    ) async throws -> (TransportResponse, URLSessionExchange) {
        try Task.checkCancellation()
        let urlRequest = Self.makeURLRequest(request)
        let exchange = URLSessionExchange(request: request, urlRequest: urlRequest, redirectsSoFar: redirectsSoFar)
        let task: URLSessionTask
        if case .file(let file) = request.body {
            task = session.uploadTask(with: urlRequest, fromFile: file)
        } else {
            task = session.dataTask(with: urlRequest)
        }
        delegate.register(exchange, for: task)
        let response = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard exchange.start(continuation) else { return }
                if let total = request.timeouts.total {
                    exchange.armTimer(after: total) { task.cancel() }
                }
                task.resume()
            }
        } onCancel: {
            exchange.fail(.cancelled)
            task.cancel()
        }
        return (response, exchange)
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
