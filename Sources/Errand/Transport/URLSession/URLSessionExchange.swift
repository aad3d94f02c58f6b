import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The state of one URLSession transfer, shared by the awaiting task, the session delegate and the timeout timer.
///
/// States: created → started (continuation stored) → finished (continuation resumed once). A failure decided by us
/// (cancelled, timed out, too large, refused redirect) is recorded first and wins over what URLSession reports next.
/// A streaming exchange resumes its caller with the head as soon as it arrives (``startStreaming(_:task:)``) and
/// hands the body to a ``URLSessionBodyChannel`` chunk by chunk; its end (or failure) finishes the channel.
final class URLSessionExchange: Sendable {
    private struct State {
        var continuation: CheckedContinuation<TransportResponse, any Error>?
        var headContinuation: CheckedContinuation<StreamingResponse, any Error>?
        /// The data task of a streaming exchange, for the body's reader to cancel.
        var task: URLSessionTask?
        var headDelivered = false
        var received: Int64 = 0
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
    /// The streamed body's hand-off; `nil` when buffering.
    let channel: URLSessionBodyChannel?
    /// Where progress goes, when someone asks.
    let progress: TransferProgressStream?
    private let started = ContinuousClock.now
    private let state = Mutex(State())

    init(
        request: TransportRequest, urlRequest: URLRequest, redirectsSoFar: Int, multipartLength: Int? = nil,
        streaming: Bool = false
    ) {
        self.request = request
        self.urlRequest = urlRequest
        self.multipartLength = multipartLength
        self.channel = streaming ? URLSessionBodyChannel() : nil
        self.progress = request.options.progress
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

    /// Stores the streaming caller's continuation; returns false (after resuming it with the failure) if the exchange
    /// already failed.
    func startStreaming(_ continuation: CheckedContinuation<StreamingResponse, any Error>, task: URLSessionTask) -> Bool
    {
        let failure: ErrandError? = state.withLock { state in
            if let failure = state.decidedFailure {
                state.finished = true
                return failure
            }
            state.headContinuation = continuation
            state.task = task
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
            fail(
                .transport(
                    TransportFailure(
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
            fail(
                .transport(
                    TransportFailure(
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
        if declared >= 0 { progress?.report(TransferProgress(totalBytesToReceive: declared)) }
        if !tooLarge, channel != nil { deliverHead(http) }
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

    /// Resumes a streaming caller with the head; the body follows through ``channel``.
    private func deliverHead(_ http: HTTPURLResponse) {
        guard let channel else { return }
        let taken: (CheckedContinuation<StreamingResponse, any Error>, URLSessionTask)? = state.withLock { state in
            guard !state.headDelivered, state.decidedFailure == nil, let continuation = state.headContinuation,
                let task = state.task
            else { return nil }
            state.headDelivered = true
            state.headContinuation = nil
            return (continuation, task)
        }
        guard let (continuation, task) = taken else { return }
        let reader = URLSessionBodyReader(channel: channel, exchange: self, task: task)
        continuation.resume(
            returning: StreamingResponse(
                status: http.statusCode, headers: Self.headers(of: http), url: http.url ?? request.url,
                body: reader.byteStream))
    }

    /// Reports request body bytes sent, as URLSession counts them.
    func sent(_ bytes: Int64, of total: Int64) {
        progress?.report(TransferProgress(bytesSent: bytes, totalBytesToSend: total > 0 ? total : nil))
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
        let (over, received) = state.withLock { state -> (Bool, Int64) in
            // Chunks URLSession had queued keep arriving after the task is cancelled: once decided, drop them (and
            // the body so far), or a decompression bomb inflates into memory after all.
            guard state.decidedFailure == nil else { return (true, state.received) }
            guard state.received + Int64(data.count) <= Int64(limit) else {
                state.body = Data()
                return (true, state.received)
            }
            state.received += Int64(data.count)
            if channel == nil { state.body.append(data) }
            return (false, state.received)
        }
        if over { fail(.bodyTooLarge(limit: limit)) }
        if !over {
            channel?.append(data)
            progress?.report(TransferProgress(bytesReceived: received))
        }
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
            fail(
                .transport(
                    TransportFailure(
                        kind: .tooManyRedirects, url: request.url,
                        underlying: "more than \(policy.maxRedirects) redirects")))
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
        if let channel {
            completeStream(channel, error: error)
            return
        }
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
                    return (
                        continuation,
                        .failure(
                            .transport(
                                TransportFailure(
                                    kind: .badResponse, url: request.url, underlying: "no response")))
                    )
                }
                return (continuation, .success(makeResponse(http, state: state)))
            }
        guard let (continuation, result) = outcome else { return }
        continuation.resume(with: result.mapError { $0 as any Error })
    }

    /// Ends a streaming exchange: the channel hears of the end once the head went out, else the waiting caller does.
    private func completeStream(_ channel: URLSessionBodyChannel, error: (any Error)?) {
        enum Outcome {
            case channel(ErrandError?)
            case caller(CheckedContinuation<StreamingResponse, any Error>, Result<StreamingResponse, ErrandError>)
        }
        let outcome: Outcome? = state.withLock { state in
            guard !state.finished else { return nil }
            state.finished = true
            state.timer?.cancel()
            let failure = state.decidedFailure ?? error.map { Self.map($0, url: request.url) }
            if state.headDelivered { return .channel(failure) }
            guard let continuation = state.headContinuation else { return nil }
            state.headContinuation = nil
            if let failure, state.challengeResponse == nil { return .caller(continuation, .failure(failure)) }
            guard let http = state.challengeResponse ?? state.response else {
                return .caller(
                    continuation,
                    .failure(
                        .transport(
                            TransportFailure(
                                kind: .badResponse, url: request.url, underlying: "no response"))))
            }
            let empty = ChunkOnce(Data())
            return .caller(
                continuation,
                .success(
                    StreamingResponse(
                        status: http.statusCode, headers: Self.headers(of: http), url: http.url ?? request.url,
                        body: ByteStream { empty.take() })))
        }
        switch outcome {
        case .channel(let failure): channel.finish(failure)
        case .caller(let continuation, let result): continuation.resume(with: result.mapError { $0 as any Error })
        case nil: break
        }
    }

    private static func headers(of http: HTTPURLResponse) -> HTTPHeaders {
        var headers = HTTPHeaders()
        for (name, value) in http.allHeaderFields {
            headers.add(name: "\(name)", value: "\(value)")
        }
        return headers
    }

    private func makeResponse(_ http: HTTPURLResponse, state: State) -> TransportResponse {
        let headers = Self.headers(of: http)
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
