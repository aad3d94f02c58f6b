import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One URLSession exchange, driven by its ``URLSessionExchangeStateMachine``: the awaiting task, the session delegate
/// and the timeout timer feed the machine their events under one lock, and what it decides — resume the caller, hand a
/// chunk to the stream, cancel the task — is carried out after the lock is let go.
///
/// A streaming exchange resumes its caller with the head as soon as it arrives and hands the body to a
/// ``BodyChannel`` chunk by chunk; URLSession cannot pause a data task, so the channel never refuses a chunk.
final class URLSessionExchange: Sendable, BodyProducer {
    typealias Machine = URLSessionExchangeStateMachine

    /// Who waits for the outcome.
    enum Delivery {
        /// The buffered response.
        case buffered(CheckedContinuation<TransportResponse, any Error>)
        /// The head of a streamed response; the body then flows through ``channel``.
        case streaming(CheckedContinuation<StreamingResponse, any Error>)
    }

    private struct Locked {
        var machine: Machine
        var delivery: Delivery?
        var timer: Task<Void, Never>?
        var timings: TransactionTimings?
    }

    let request: TransportRequest
    let task: URLSessionTask
    /// The length of a file or multipart body, measured when its files were opened.
    let bodyLength: Int?
    /// The streamed body's hand-off; `nil` when buffering.
    let channel: BodyChannel?
    /// Where progress goes, when someone asks.
    let progress: TransferProgressStream?
    private let started = ContinuousClock.now
    private let locked: Mutex<Locked>

    init(request: TransportRequest, task: URLSessionTask, bodyLength: Int? = nil, streaming: Bool = false) {
        self.request = request
        self.task = task
        self.bodyLength = bodyLength
        self.channel = streaming ? BodyChannel() : nil
        self.progress = request.options.progress
        let machine = Machine(
            mode: streaming ? .streaming : .buffered, url: request.url, maxBodySize: request.maxResponseBodySize)
        locked = Mutex(Locked(machine: machine))
    }

    // MARK: The awaiting task

    /// Stores who waits for the outcome and resumes the task (with the total timeout armed), unless the exchange
    /// failed before, in which case the caller hears of it at once.
    func start(_ delivery: Delivery) {
        let action = locked.withLock { locked in
            locked.delivery = delivery
            return locked.machine.start()
        }
        switch action {
        case .none:
            break
        case .resumeTask:
            if let total = request.timeouts.total { armTimer(after: total) }
            task.resume()
        case .failCaller(let failure):
            // The task was never resumed; cancelling it lets URLSession (and the delegate's table) let go of it.
            task.cancel()
            failCaller(failure)
        }
    }

    /// Fails the exchange after `duration` unless it finishes first.
    private func armTimer(after duration: Duration) {
        let timer = Task { [self] in
            guard (try? await Task.sleep(for: duration)) != nil else { return }
            fail(
                .transport(
                    TransportFailure(
                        kind: .timedOut, url: request.url, underlying: "no complete response within \(duration)")))
        }
        let finished = locked.withLock { locked in
            locked.timer = timer
            return locked.machine.isFinished
        }
        if finished { timer.cancel() }
    }

    /// Records a failure decided by Errand (a cancellation, a timeout); the first one wins.
    func fail(_ failure: ErrandError) {
        let (action, timer) = locked.withLock { locked in
            let action = locked.machine.fail(failure)
            return (action, Self.takeTimerIfFinished(&locked))
        }
        timer?.cancel()
        switch action {
        case .none:
            break
        case .cancelTask:
            task.cancel()
        case .cancelTaskAndFinishBody(let failure):
            task.cancel()
            channel?.finish(failure)
        }
    }

    // MARK: The stream's reader

    /// The reader is gone or its task was cancelled: the transfer stops.
    func cancel() {
        fail(.cancelled)
    }

    /// Nothing to do: URLSession cannot pause, so the channel never asks to resume.
    func resume() {}

    // MARK: The session delegate

    /// Handles the response head; returns false when the body must be refused.
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
        let head = Self.head(of: http, fallbackURL: request.url)
        let firstByte = ContinuousClock.now - started
        let (action, timer) = locked.withLock { locked in
            let action = locked.machine.headReceived(head, firstByte: firstByte)
            return (action, Self.takeTimerIfFinished(&locked))
        }
        timer?.cancel()
        switch action {
        case .proceed:
            reportExpectedLength(of: head)
            return true
        case .deliverHead(let head):
            reportExpectedLength(of: head)
            deliverHead(head)
            return true
        case .cancelTask:
            return false
        }
    }

    /// Handles body bytes; returns false when the task must stop (the body grew past its limit).
    func receive(_ data: Data) -> Bool {
        let action = locked.withLock { $0.machine.bodyReceived(data) }
        switch action {
        case .buffered(let total):
            progress?.report(TransferProgress(bytesReceived: total))
            return true
        case .yield(let data, let total):
            channel?.append(data)
            progress?.report(TransferProgress(bytesReceived: total))
            return true
        case .drop:
            return true
        case .cancelTask:
            return false
        case .cancelTaskAndFinishBody(let failure):
            locked.withLock { Self.takeTimerIfFinished(&$0) }?.cancel()
            channel?.finish(failure)
            return false
        }
    }

    /// Reports request body bytes sent, as URLSession counts them.
    func sent(_ bytes: Int64, of total: Int64) {
        progress?.report(TransferProgress(bytesSent: bytes, totalBytesToSend: total > 0 ? total : nil))
    }

    /// Keeps the response of an authentication challenge (a 401 or 407), the outcome when URLSession cancels.
    func receiveChallenge(_ response: URLResponse) {
        guard let http = response as? HTTPURLResponse else { return }
        let head = Self.head(of: http, fallbackURL: request.url)
        locked.withLock { $0.machine.challenged(head) }
    }

    /// Keeps the transaction's timings (Apple platforms only) for the response's metrics.
    func collect(_ timings: TransactionTimings) {
        locked.withLock { $0.timings = timings }
    }

    /// URLSession reported the end, with `error` when the task failed.
    func complete(error: (any Error)?) {
        let reported = error.map { Self.map($0, url: request.url) }
        // The task's response stands in for a head FoundationNetworking never announced (see the machine).
        let awaitingHead = reported == nil && locked.withLock { $0.machine.isAwaitingHead }
        let fallback =
            awaitingHead ? (task.response as? HTTPURLResponse).map { Self.head(of: $0, fallbackURL: request.url) } : nil
        let (action, timer, firstByte, timings) = locked.withLock { locked in
            let action = locked.machine.completed(reported, fallbackHead: fallback)
            return (action, Self.takeTimerIfFinished(&locked), locked.machine.firstByte, locked.timings)
        }
        timer?.cancel()
        switch action {
        case .none:
            break
        case .succeed(let head, let body):
            succeed(head, body: body, firstByte: firstByte, timings: timings)
        case .deliverHeadWithoutBody(let head):
            channel?.finish(nil)
            deliverHead(head)
        case .failCaller(let failure):
            failCaller(failure)
        case .finishBody(let failure):
            channel?.finish(failure)
        }
    }

    // MARK: Carrying out actions

    private static func takeTimerIfFinished(_ locked: inout Locked) -> Task<Void, Never>? {
        guard locked.machine.isFinished else { return nil }
        defer { locked.timer = nil }
        return locked.timer
    }

    private func takeDelivery() -> Delivery? {
        locked.withLock { locked in
            defer { locked.delivery = nil }
            return locked.delivery
        }
    }

    private func failCaller(_ failure: ErrandError) {
        switch takeDelivery() {
        case .buffered(let continuation): continuation.resume(throwing: failure)
        case .streaming(let continuation): continuation.resume(throwing: failure)
        case nil: channel?.finish(failure)
        }
    }

    /// Resumes a streaming caller with the head; the body follows through ``channel``.
    private func deliverHead(_ head: Machine.Head) {
        guard let channel, case .streaming(let continuation) = takeDelivery() else { return }
        let reader = BodyReader(channel: channel, producer: self)
        continuation.resume(
            returning: StreamingResponse(
                status: head.status, headers: head.headers, url: head.url, body: reader.byteStream))
    }

    private func succeed(_ head: Machine.Head, body: Data, firstByte: Duration?, timings: TransactionTimings?) {
        guard case .buffered(let continuation) = takeDelivery() else { return }
        let sent: Int
        switch request.body {
        case .data(let data): sent = data.count
        case .file, .multipart, .stream: sent = bodyLength ?? 0
        case .none: sent = 0
        }
        var metrics = TransferMetrics(
            firstByte: firstByte, total: ContinuousClock.now - started, bytesSent: sent, bytesReceived: body.count)
        timings?.apply(to: &metrics)
        continuation.resume(
            returning: TransportResponse(
                status: head.status, headers: head.headers, body: body, url: head.url, metrics: metrics))
    }

    /// Reports `Content-Length` as the total to receive, unless the body is content-coded: URLSession hands over the
    /// decoded bytes, which are what is counted then, and the coded length is no total for them.
    private func reportExpectedLength(of head: Machine.Head) {
        guard let declared = head.declaredLength else { return }
        let coding = head.headers["Content-Encoding"]?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        guard coding.isEmpty || coding == "identity" else { return }
        progress?.report(TransferProgress(totalBytesToReceive: declared))
    }

    private static func head(of http: HTTPURLResponse, fallbackURL: URL) -> Machine.Head {
        // FoundationNetworking has joined a field's repeated lines into one by now (values joined with ", "), where
        // curl keeps them apart; the cache stores both the joined way (CachedResponse.storedFields), so a cached
        // response does not depend on the transport that fetched it. `Set-Cookie` is taken apart again here.
        let headers = HTTPHeaders(urlSessionResponse: http)
        let declared = http.expectedContentLength
        return Machine.Head(
            status: http.statusCode, headers: headers, url: http.url ?? fallbackURL,
            declaredLength: declared >= 0 ? declared : nil)
    }

    /// The content coding of a response that the transport asked to come as it is (`Accept-Encoding: identity`, sent
    /// on Linux when the request names no encoding), or `nil` when the answer is acceptable.
    ///
    /// FoundationNetworking decodes gzip and deflate itself and never checks that the compressed stream ended, so a
    /// compressed body cut short would arrive as a complete, shorter one. A server that compresses anyway has ignored
    /// the request: its answer is a bad response rather than a body nobody can check. A coding it does not know
    /// (`Content-Encoding: foo`) is not refused here; FoundationNetworking's libcurl fails it as a bad response,
    /// where Apple's URLSession and the curl transport hand the body over as sent.
    static func refusedCoding(of response: HTTPURLResponse, for request: TransportRequest) -> String? {
        #if canImport(FoundationNetworking)
        let decodedByFoundation: Set<String> = ["gzip", "x-gzip", "deflate", "br", "zstd"]
        guard !request.headers.contains("Accept-Encoding"),
            let coding = response.value(forHTTPHeaderField: "Content-Encoding")?
                .trimmingCharacters(in: .whitespaces).lowercased(),
            coding.split(separator: ",").contains(where: {
                decodedByFoundation.contains($0.trimmingCharacters(in: .whitespaces))
            })
        else { return nil }
        return coding
        #else
        return nil
        #endif
    }

    /// FoundationNetworking reports many of libcurl's failures as code -1 with libcurl's message: read the message.
    private static func classify(unknown text: String) -> TransportFailure.Kind {
        if text.contains("ssl") || text.contains("certificate") { return .tls }
        // A body shorter than its Content-Length, or a chunked body cut off: libcurl's CURLE_PARTIAL_FILE.
        if text.contains("transfer closed") || text.contains("remaining to read") { return .connectionLost }
        // A header line longer than libcurl's limit (CURLE_OUT_OF_MEMORY): the answer, not the machine.
        // ... and a head larger than libcurl's 300 KiB.
        if text.contains("out of memory") || text.contains("too large response headers") { return .badResponse }
        // A content coding libcurl does not know (CURLE_BAD_CONTENT_ENCODING): it will not hand the body over as sent.
        if text.contains("unrecognized content encoding") { return .badResponse }
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
