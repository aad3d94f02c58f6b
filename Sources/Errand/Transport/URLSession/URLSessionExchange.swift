import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The state of one URLSession transfer, shared by the awaiting task, the session delegate and the timeout timer.
///
/// States: created → started (continuation stored) → finished (continuation resumed once). A failure decided by us
/// (cancelled, timed out, too large, refused redirect) is recorded first and wins over what URLSession reports next.
final class URLSessionExchange: Sendable {
    private struct State {
        var continuation: CheckedContinuation<TransportResponse, any Error>?
        var decidedFailure: ErrandError?
        var finished = false
        var response: HTTPURLResponse?
        var body = Data()
        var firstByte: Duration?
        var redirectCount = 0
        var challengeResponse: HTTPURLResponse?
        var manualRedirect: URL?
        var timings: TransactionTimings?
        var timer: Task<Void, Never>?
    }

    let request: TransportRequest
    let urlRequest: URLRequest
    /// The length of a multipart body, measured when its files were opened.
    let multipartLength: Int?
    private let started = ContinuousClock.now
    private let state = Mutex(State())

    init(request: TransportRequest, urlRequest: URLRequest, redirectsSoFar: Int, multipartLength: Int? = nil) {
        self.request = request
        self.urlRequest = urlRequest
        self.multipartLength = multipartLength
        state.withLock { $0.redirectCount = redirectsSoFar }
    }

    /// Where to go next when a 307/308 must be followed by Errand itself (FoundationNetworking drops the body),
    /// and how many redirects were followed so far.
    var pendingRedirect: (url: URL, count: Int)? {
        state.withLock { state in state.manualRedirect.map { ($0, state.redirectCount) } }
    }

    /// Stores the continuation; returns false (after resuming it with the failure) if the exchange already failed.
    func start(_ continuation: CheckedContinuation<TransportResponse, any Error>) -> Bool {
        let failure: ErrandError? = state.withLock { state in
            if let failure = state.decidedFailure {
                state.finished = true
                return failure
            }
            state.continuation = continuation
            return nil
        }
        if let failure {
            continuation.resume(throwing: failure)
            return false
        }
        return true
    }

    /// Fails the exchange after `duration` unless it finishes first; `cancel` stops the URLSession task.
    func armTimer(after duration: Duration, cancel: @escaping @Sendable () -> Void) {
        let timer = Task { [self] in
            guard (try? await Task.sleep(for: duration)) != nil else { return }
            fail(.transport(TransportFailure(
                kind: .timedOut, url: request.url, underlying: "no complete response within \(duration)")))
            cancel()
        }
        let finished = state.withLock { state in
            state.timer = timer
            return state.finished
        }
        if finished { timer.cancel() }
    }

    /// Records a failure decided by Errand; the first one wins.
    func fail(_ failure: ErrandError) {
        state.withLock { state in
            if state.decidedFailure == nil && !state.finished { state.decidedFailure = failure }
        }
    }

    /// Handles the response head; returns false when the transfer must stop (declared body too large).
    func receive(_ response: URLResponse) -> Bool {
        guard let http = response as? HTTPURLResponse else {
            fail(.transport(TransportFailure(kind: .badResponse, url: request.url, underlying: "not an HTTP response")))
            return false
        }
        if let coding = Self.refusedCoding(of: http, for: request) {
            fail(.transport(TransportFailure(
                kind: .badResponse, url: request.url,
                underlying: "the body came in the \(coding) coding, which the request did not accept")))
            return false
        }
        let declared = http.expectedContentLength
        let tooLarge = declared > Int64(request.maxResponseBodySize)
        state.withLock { state in
            state.response = http
            state.firstByte = ContinuousClock.now - started
            if declared > 0 && !tooLarge { state.body.reserveCapacity(Int(declared)) }
        }
        if tooLarge { fail(.bodyTooLarge(limit: request.maxResponseBodySize)) }
        return !tooLarge
    }

    /// The content coding of a response that the transport asked to come as it is (`Accept-Encoding: identity`, sent
    /// on Linux when the request names no encoding), or `nil` when the answer is acceptable.
    ///
    /// FoundationNetworking decodes gzip and deflate itself and never checks that the compressed stream ended, so a
    /// compressed body cut short would arrive as a complete, shorter one. A server that compresses anyway has ignored
    /// the request: its answer is a bad response rather than a body nobody can check.
    static func refusedCoding(of response: HTTPURLResponse, for request: TransportRequest) -> String? {
        #if canImport(FoundationNetworking)
        guard !request.headers.contains("Accept-Encoding"),
            let coding = response.value(forHTTPHeaderField: "Content-Encoding")?
                .trimmingCharacters(in: .whitespaces).lowercased(),
            !coding.isEmpty, coding != "identity"
        else { return nil }
        return coding
        #else
        return nil
        #endif
    }

    /// Keeps the response of an authentication challenge (a 401), reported as the outcome when URLSession cancels.
    func receiveChallenge(_ response: URLResponse) {
        guard let http = response as? HTTPURLResponse else { return }
        state.withLock { $0.challengeResponse = http }
    }

    /// Keeps the transaction's timings (Apple platforms only) for the response's metrics.
    func collect(_ timings: TransactionTimings) {
        state.withLock { $0.timings = timings }
    }

    /// Appends body bytes; returns false when the limit is exceeded.
    func receive(_ data: Data) -> Bool {
        let limit = request.maxResponseBodySize
        let over = state.withLock { state in
            // Chunks URLSession had queued keep arriving after the task is cancelled: once decided, drop them (and
            // the body so far), or a decompression bomb inflates into memory after all.
            guard state.decidedFailure == nil else { return true }
            guard state.body.count + data.count <= limit else {
                state.body = Data()
                return true
            }
            state.body.append(data)
            return false
        }
        if over { fail(.bodyTooLarge(limit: limit)) }
        return !over
    }

    /// Decides whether to follow a redirect, and what to send there.
    func redirect(from response: HTTPURLResponse, to proposed: URLRequest) -> URLRequest? {
        let count = state.withLock { state in
            state.redirectCount += 1
            return state.redirectCount
        }
        let policy = request.redirects
        guard policy.maxRedirects > 0 else { return nil }
        guard count <= policy.maxRedirects else {
            fail(.transport(TransportFailure(
                kind: .tooManyRedirects, url: request.url, underlying: "more than \(policy.maxRedirects) redirects")))
            return nil
        }
        guard let target = proposed.url else { return nil }
        if let refusal = policy.refusal(from: response.url ?? request.url, to: target) {
            fail(.transport(refusal))
            return nil
        }
        var next = proposed
        if !RedirectPolicy.sameServer(response.url ?? request.url, target) {
            for name in RedirectPolicy.credentialHeaders { next.setValue(nil, forHTTPHeaderField: name) }
        }
        if (response.statusCode == 307 || response.statusCode == 308) && request.body != .none {
            state.withLock { $0.manualRedirect = target }
            return nil
        }
        return next
    }

    /// Resumes the awaiting task with the outcome; later calls do nothing.
    func complete(error: (any Error)?) {
        let outcome: (CheckedContinuation<TransportResponse, any Error>, Result<TransportResponse, ErrandError>)? =
            state.withLock { state in
                guard !state.finished, let continuation = state.continuation else { return nil }
                state.finished = true
                state.continuation = nil
                state.timer?.cancel()
                if let failure = state.decidedFailure { return (continuation, .failure(failure)) }
                if let challenged = state.challengeResponse {
                    return (continuation, .success(makeResponse(state.response ?? challenged, state: state)))
                }
                if let error { return (continuation, .failure(Self.map(error, url: request.url))) }
                guard let http = state.response else {
                    return (continuation, .failure(.transport(TransportFailure(
                        kind: .badResponse, url: request.url, underlying: "no response"))))
                }
                return (continuation, .success(makeResponse(http, state: state)))
            }
        guard let (continuation, result) = outcome else { return }
        continuation.resume(with: result.mapError { $0 as any Error })
    }

    private func makeResponse(_ http: HTTPURLResponse, state: State) -> TransportResponse {
        var headers = HTTPHeaders()
        for (name, value) in http.allHeaderFields {
            headers.add(name: "\(name)", value: "\(value)")
        }
        let sent: Int
        switch request.body {
        case .data(let data): sent = data.count
        case .file(let url): sent = (try? url.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0
        case .multipart: sent = multipartLength ?? 0
        case .none: sent = 0
        }
        var metrics = TransferMetrics(
            firstByte: state.firstByte, total: ContinuousClock.now - started, bytesSent: sent,
            bytesReceived: state.body.count, redirectCount: state.redirectCount)
        state.timings?.apply(to: &metrics)
        return TransportResponse(
            status: http.statusCode, headers: headers, body: state.body, url: http.url ?? request.url, metrics: metrics)
    }

    /// FoundationNetworking reports many of libcurl's failures as code -1 with libcurl's message: read the message.
    private static func classify(unknown text: String) -> TransportFailure.Kind {
        if text.contains("ssl") || text.contains("certificate") { return .tls }
        // A body shorter than its Content-Length, or a chunked body cut off: libcurl's CURLE_PARTIAL_FILE.
        if text.contains("transfer closed") || text.contains("remaining to read") { return .connectionLost }
        // A header line longer than libcurl's limit (CURLE_OUT_OF_MEMORY): the answer, not the machine.
        // ... and a head larger than libcurl's 300 KiB.
        if text.contains("out of memory") || text.contains("too large response headers") { return .badResponse }
        return .other
    }

    /// Maps a URLSession error to Errand's kinds.
    static func map(_ error: any Error, url: URL) -> ErrandError {
        if let errand = error as? ErrandError { return errand }
        let nsError = error as NSError
        let description = "\(nsError.domain) \(nsError.code): \(nsError.localizedDescription)"
        let kind: TransportFailure.Kind
        switch nsError.code {
        case URLError.cancelled.rawValue:
            return .cancelled
        case URLError.timedOut.rawValue:
            kind = .timedOut
        case URLError.cannotFindHost.rawValue, URLError.dnsLookupFailed.rawValue:
            kind = .dnsFailure
        case URLError.cannotConnectToHost.rawValue, URLError.notConnectedToInternet.rawValue:
            kind = .cannotConnect
        case URLError.networkConnectionLost.rawValue:
            kind = .connectionLost
        case URLError.httpTooManyRedirects.rawValue, URLError.redirectToNonExistentLocation.rawValue:
            kind = .tooManyRedirects
        case URLError.secureConnectionFailed.rawValue, URLError.serverCertificateUntrusted.rawValue,
            URLError.serverCertificateHasBadDate.rawValue, URLError.serverCertificateNotYetValid.rawValue,
            URLError.serverCertificateHasUnknownRoot.rawValue, URLError.clientCertificateRejected.rawValue,
            URLError.clientCertificateRequired.rawValue:
            kind = .tls
        case URLError.badServerResponse.rawValue, URLError.cannotDecodeContentData.rawValue,
            URLError.cannotDecodeRawData.rawValue, URLError.cannotParseResponse.rawValue:
            kind = .badResponse
        case URLError.unsupportedURL.rawValue:
            // Only http and https URLs reach a session, so this is libcurl's "unsupported protocol" on Linux, which
            // it reports for an answer that is not HTTP/1.x or 2 (HTTP/0.9, an unknown version or status code).
            kind = .badResponse
        default:
            kind = classify(unknown: description.lowercased())
        }
        return .transport(TransportFailure(kind: kind, url: url, underlying: description))
    }
}
