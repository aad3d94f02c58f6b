#if canImport(CCurl)
import CCurl
import Foundation
import Synchronization

/// One exchange on the wire, from the first hop to the resumed continuation.
///
/// States: created (an easy handle taken from the pool and configured by the calling task) → started (handed to the
/// loop) → running (in the multi handle; a followed redirect reconfigures the same handle and runs again) → finished
/// (the outcome delivered exactly once; the handle back in the pool, or, after a buffered success, handed with the
/// transfer to the caller, who reads the head and metrics from it in ``takeResponse(_:)`` and then gives it back).
/// A failure Errand decides (cancelled, timed out, too large, refused redirect) is recorded in ``failure`` and wins
/// over the code libcurl reports for the abort.
///
/// `@unchecked Sendable` because its mutable state is confined: the calling task writes it before ``start(_:)``
/// hands the transfer to the loop through the loop's locked queue; from then on only the loop thread (running
/// libcurl's callbacks and the completion) touches it, until the outcome's hand-off (release, then acquire) passes it
/// back to the calling task with the handle out of the multi handle. What other threads may call — ``cancel()`` and
/// ``resume()`` — goes through atomics and that same queue.
final class CurlTransfer: @unchecked Sendable {
    /// Who waits for the outcome.
    ///
    /// A buffered response goes through ``BufferedHandoff``: its caller either waits briefly without suspending or
    /// suspends on a continuation. A streamed response's head resumes an unsafe continuation (no checking object
    /// allocated per request) exactly once: only ``finish(code:)`` and ``deliverHead()`` resume it, on the loop
    /// thread, and both take it out of ``delivery`` first.
    enum Delivery {
        /// A buffered response, handed over by ``handoff``.
        case buffered
        /// The head of a streamed response; the body then flows through the channel.
        case streaming(UnsafeContinuation<StreamingResponse, any Error>)
    }

    let request: TransportRequest
    /// Keeps the transport (and so its loop) alive while the transfer or its stream lives.
    let owner: CurlTransport
    /// The streamed body's hand-off; `nil` when buffering.
    let channel: CurlBodyChannel?
    let started: ContinuousClock.Instant
    let deadline: ContinuousClock.Instant?
    private let cancelRequested = Atomic<Bool>(false)
    private let finished = Atomic<Bool>(false)
    /// How a buffered outcome reaches its caller.
    let handoff = BufferedHandoff()
    /// Whether header lines come through libcurl's header callback as they arrive. A stream needs its head the
    /// moment it is complete, and an idle timeout counts header bytes as activity; any other transfer reads its head
    /// from libcurl's header store once, which keeps the per-line callbacks off the loop thread.
    let readsHeadLive: Bool

    // Confined to the loop thread once started.
    var easy: CurlEasyHandle?
    var delivery: Delivery?
    var hop: CurlHop
    var hopStarted: ContinuousClock.Instant
    /// Whether the current hop goes over TLS (its URL is https).
    var isTLS = false
    var requestBody: CurlRequestBody?
    var status = 0
    /// The current head's fields, as bytes until the response is taken.
    var head = ResponseHead()
    var headersComplete = false
    var followsRedirect = false
    var body: ResponseBodyBuffer
    var bytesReceived = 0
    var bytesSentBefore = 0
    var redirectCount = 0
    var failure: ErrandError?
    var lastActivity: ContinuousClock.Instant
    var isPausedForReader = false
    var isInMulti = false

    /// Takes a handle from the pool and configures it for the request's first hop.
    init(request: TransportRequest, owner: CurlTransport, channel: CurlBodyChannel?) throws(ErrandError) {
        self.request = request
        self.owner = owner
        self.channel = channel
        let started = ContinuousClock.now
        self.started = started
        deadline = request.timeouts.total.map { started + $0 }
        hop = CurlHop(request)
        hopStarted = started
        lastActivity = started
        body = ResponseBodyBuffer(pool: owner.loop.bodies)
        readsHeadLive = channel != nil || request.timeouts.idle != nil
        let easy = try owner.loop.pool.take()
        self.easy = easy
        do {
            try configure(easy)
        } catch {
            releaseResources()
            owner.loop.pool.recycle(easy, clean: false)
            self.easy = nil
            throw error
        }
    }

    deinit {
        releaseResources()
        // A buffered response's handle waits for its caller in ``takeResponse(_:)``; one never taken goes back here.
        if let easy { owner.loop.pool.recycle(easy, clean: false) }
    }

    // MARK: Any thread

    /// Hands the transfer to the loop; the outcome goes to `delivery`.
    func start(_ delivery: Delivery) {
        self.delivery = delivery
        owner.loop.inFlight.add(1, ordering: .relaxed)
        owner.loop.submit(.start(self))
    }

    /// Asks the loop to stop the transfer and fail it with ``ErrandError/cancelled``; does nothing once finished.
    func cancel() {
        guard !finished.load(ordering: .acquiring) else { return }
        guard !cancelRequested.exchange(true, ordering: .acquiringAndReleasing) else { return }
        owner.loop.submit(.cancel(self))
    }

    /// Asks the loop to resume a transfer paused because the stream's reader fell behind.
    func resume() {
        guard !finished.load(ordering: .acquiring) else { return }
        owner.loop.submit(.resume(self))
    }

    var isCancelRequested: Bool { cancelRequested.load(ordering: .acquiring) }

    // MARK: Loop thread

    /// Records a failure Errand decided; the first one wins.
    func fail(_ error: ErrandError) {
        if failure == nil { failure = error }
    }

    /// Notes that bytes arrived, for the idle timeout.
    func touch() {
        if request.timeouts.idle != nil { lastActivity = .now }
    }

    /// The time left before the idle timeout fires, or `nil` when none applies right now.
    func idleTimeLeft(at now: ContinuousClock.Instant) -> Duration? {
        guard let idle = request.timeouts.idle, !isPausedForReader else { return nil }
        return lastActivity + idle - now
    }

    /// Whether the hop that just ended successfully was a redirect to follow.
    func shouldFollowRedirect(after code: CURLcode) -> Bool {
        code == CURLE_OK && failure == nil && followsRedirect
    }

    /// Reconfigures the handle for the redirect's target; false (with ``failure`` set) when it must not be followed.
    func prepareRedirect() -> Bool {
        guard let easy else { return false }
        guard let location = easy.info(string: CURLINFO_REDIRECT_URL), let target = URL(string: location) else {
            fail(.transport(TransportFailure(
                kind: .badResponse, url: hop.url, underlying: "a \(status) redirect without a usable Location")))
            return false
        }
        switch hop.following(status: status, to: target) {
        case .failure(let error):
            fail(error)
            return false
        case .success(let next):
            bytesSentBefore += easy.info(offset: CURLINFO_SIZE_UPLOAD_T).map { Int($0) } ?? 0
            redirectCount += 1
            hop = next
            hopStarted = .now
            resetResponse()
            releaseResources()
            do {
                try configure(easy)
                return true
            } catch {
                fail(error)
                return false
            }
        }
    }

    /// Delivers the outcome (once), with the resumption of a buffered caller that had suspended for the caller of
    /// this method to perform, and gives back the easy handle for the pool — except after a buffered success, when
    /// the handle stays with the transfer until its caller has read the head and metrics from it
    /// (``takeResponse(_:)``). The handle must be out of the multi handle.
    func finish(code: CURLcode) -> (handle: CurlEasyHandle?, resumption: Resumption?) {
        finished.store(true, ordering: .releasing)
        var outcome: ErrandError? = failure
        if outcome == nil && code != CURLE_OK {
            outcome = CurlFailure.error(for: code, message: easy?.errorMessage, url: hop.url)
        }
        // A buffered success keeps its handle for the caller's ``takeResponse(_:)``.
        var keepsHandle = false
        if case .buffered = delivery { keepsHandle = outcome == nil }
        let handle = keepsHandle ? nil : easy
        if !keepsHandle { easy = nil }
        let total = ContinuousClock.now - started
        releaseResources()
        owner.loop.inFlight.subtract(1, ordering: .relaxed)
        owner.loop.noteExchange(lasting: total)
        var resumption: Resumption?
        switch delivery {
        case .buffered:
            if let outcome {
                resumption = handoff.deliver(.failure(outcome))
            } else {
                resumption = handoff.deliver(.success(CurlResponse(
                    status: status, head: head, body: body.takeData(), url: hop.url, total: total)))
            }
        case .streaming(let continuation):
            continuation.resume(throwing: outcome ?? .transport(TransportFailure(
                kind: .badResponse, url: hop.url, underlying: "the transfer ended without a response")))
        case nil:
            channel?.finish(outcome)
        }
        delivery = nil
        return (handle, resumption)
    }

    /// Caller, once: completes a buffered response handed over by ``finish(code:)`` with its header fields and
    /// metrics, read from the handle, and gives the handle back to the pool.
    func takeResponse(_ response: CurlResponse) -> TransportResponse {
        let handle = easy
        easy = nil
        defer { if let handle { owner.loop.pool.recycle(handle, clean: true) } }
        let fromStore = readsHeadLive ? nil : handle?.responseHeaders()
        return TransportResponse(
            status: response.status, headers: fromStore ?? response.head.headers(), body: response.body,
            url: response.url,
            metrics: handle.map { makeMetrics($0, total: response.total) } ?? TransferMetrics(total: response.total))
    }

    /// Resumes the stream's waiting task with the response head; the body follows through the channel.
    func deliverHead() {
        guard case .streaming(let continuation) = delivery, let channel else { return }
        delivery = nil
        let reader = CurlBodyReader(channel: channel, transfer: self)
        continuation.resume(returning: StreamingResponse(
            status: status, headers: head.headers(), url: hop.url, body: reader.byteStream))
    }

    private func resetResponse() {
        status = 0
        head.removeAll()
        headersComplete = false
        followsRedirect = false
        bytesReceived = 0
        _ = body.takeData()
    }

    /// Frees what libcurl borrowed for the current hop: the request body (the header list stays with the handle).
    private func releaseResources() {
        requestBody = nil
    }
}
#endif
