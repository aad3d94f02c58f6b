#if canImport(CCurl)
import CCurl
import Foundation
import Synchronization

/// One exchange on the wire, from the caller's request to its outcome: the resources of a transfer, driven by its
/// ``CurlTransferStateMachine``.
///
/// The calling task creates it with a plain ``TransportRequest`` and a continuation and hands it to the loop; from
/// then on one thread, the loop's, owns the transfer's whole life: it takes an easy handle from its pool, sets it up,
/// waits for a connection slot, runs libcurl's callbacks, reads the metrics, and resumes the caller with a plain
/// ``CurlResponse``. A redirect is a response like any other: the client's redirect follower decides what follows. The handle never travels between threads.
///
/// `@unchecked Sendable` because its mutable state is confined to the loop thread: the calling task writes
/// ``requestBody`` (in the initialiser) and ``delivery`` before ``start(_:)`` hands the transfer over through the
/// loop's locked inbox, and afterwards touches
/// nothing but ``cancel()`` and ``resume()``, which go through that inbox too (and read an atomic).
final class CurlTransfer: @unchecked Sendable, BodyProducer {
    /// Who waits for the outcome.
    ///
    /// Checked continuations, though an unsafe one would save an allocation per request: the loop may resume a
    /// caller that has not finished suspending yet, a race the concurrency runtime settles with atomics that
    /// ThreadSanitizer cannot see when the resumption is inlined into Errand's instrumented code, so with unsafe
    /// continuations a sanitizer run reported it.
    enum Delivery {
        /// The buffered response.
        case buffered(CheckedContinuation<CurlResponse, any Error>)
        /// The head of a streamed response; the body then flows through ``channel``.
        case streaming(CheckedContinuation<StreamingResponse, any Error>)
    }

    let request: TransportRequest
    /// Keeps the transport (and so its loop) alive while the transfer or its stream lives.
    let owner: CurlTransport
    /// The streamed body's hand-off; `nil` when buffering.
    let channel: BodyChannel?
    let started: ContinuousClock.Instant
    let deadline: ContinuousClock.Instant?
    /// Where the transfer's progress goes, when someone watches it.
    let progress: TransferProgressStream?
    /// Set by the loop when the outcome went out, so a late cancellation or resumption costs no wake-up.
    private let isDone = Atomic<Bool>(false)

    // Confined to the loop thread once started. Their dynamic exclusivity checks are off: no two accesses can overlap
    // on one thread that runs nothing but the loop, and the checks cost a thread-local lookup per access, twenty-odd
    // per request in the header callback alone (about 4% of a small request's instructions under callgrind).
    @exclusivity(unchecked) var machine: CurlTransferStateMachine
    @exclusivity(unchecked) var delivery: Delivery?
    @exclusivity(unchecked) var easy: CurlEasyHandle?
    /// The request's server (``ServerIdentity``'s text), whose connection slot the transfer asks for, set when the
    /// handle is set up.
    @exclusivity(unchecked) var hostKey: String
    /// The lane whose connection slot the transfer holds, while it holds one.
    @exclusivity(unchecked) var slotHost: AdmissionLane<String>?
    /// The lane the transfer asks for a slot in: its server's streams or its buffered exchanges.
    var admissionLane: AdmissionLane<String> { AdmissionLane(server: hostKey, isStream: channel != nil) }
    /// Whether the request goes over TLS (its URL is https).
    @exclusivity(unchecked) var isTLS = false
    @exclusivity(unchecked) var requestBody: CurlRequestBody?
    /// The response head, as bytes.
    @exclusivity(unchecked) var head = ResponseHead()
    @exclusivity(unchecked) var body: ResponseBodyBuffer
    /// Decodes the body when it is content-coded.
    @exclusivity(unchecked) var decoder: ContentDecoder?
    @exclusivity(unchecked) var bytesReceived = 0
    @exclusivity(unchecked) var lastActivity: ContinuousClock.Instant

    /// A transfer of `request`, its body opened here, by the calling task: opening a file never happens on the
    /// loop thread, whose every transfer would wait for it.
    init(request: TransportRequest, owner: CurlTransport, channel: BodyChannel?) throws(ErrandError) {
        requestBody = try CurlRequestBody.open(request.body)
        self.request = request
        self.owner = owner
        self.channel = channel
        let started = ContinuousClock.now
        self.started = started
        deadline = request.timeouts.total.map { started + $0 }
        progress = request.options.progress
        hostKey = ""
        lastActivity = started
        body = ResponseBodyBuffer(pool: owner.loop.bodies)
        machine = CurlTransferStateMachine(
            mode: channel == nil ? .buffered : .streaming, url: request.url, maxBodySize: request.maxResponseBodySize)
    }

    // MARK: Any thread

    /// Hands the transfer to the loop; the outcome goes to `delivery`.
    func start(_ delivery: Delivery) {
        self.delivery = delivery
        // Started before the loop owns the transfer, so the first chunk may be ready by the first read.
        requestBody?.start { [weak self] in self?.bodyReady() }
        owner.loop.submit(.start(self))
    }

    /// Asks the loop to resume a transfer paused because its streamed body had no bytes ready.
    func bodyReady() {
        guard !isDone.load(ordering: .acquiring) else { return }
        owner.loop.submit(.sendMore(self))
    }

    /// Asks the loop to stop the transfer and fail it with ``ErrandError/cancelled``; does nothing once finished.
    func cancel() {
        guard !isDone.load(ordering: .acquiring) else { return }
        owner.loop.submit(.cancel(self))
    }

    /// Asks the loop to resume a transfer paused because the stream's reader fell behind.
    func resume() {
        guard !isDone.load(ordering: .acquiring) else { return }
        owner.loop.submit(.resume(self))
    }

    // MARK: Loop thread

    /// Notes that bytes arrived, for the idle timeout.
    func touch() {
        if request.timeouts.idle != nil { lastActivity = .now }
    }

    /// When the idle timeout fires unless bytes arrive first; `nil` when none applies right now.
    var idleDeadline: ContinuousClock.Instant? {
        guard let idle = request.timeouts.idle, machine.isRunning, !machine.isPausedForReader else { return nil }
        return lastActivity + idle
    }

    /// When the total timeout fires for a transfer waiting for a slot (libcurl enforces it once running).
    var queueDeadline: ContinuousClock.Instant? {
        guard case .waitingForSlot = machine.state else { return nil }
        return deadline
    }

    /// The failure of a transfer that received nothing for longer than its idle timeout.
    var idleTimeoutFailure: ErrandError {
        .transport(
            TransportFailure(
                kind: .timedOut, url: request.url, underlying: "no data received for \(request.timeouts.idle ?? .zero)")
        )
    }

    /// Resumes the caller with the buffered response (``succeed``) and marks the transfer done.
    func deliverResponse() {
        guard case .buffered(let continuation) = delivery else {
            finishStream(nil)
            return
        }
        let total = ContinuousClock.now - started
        let metrics = easy.map { makeMetrics($0, total: total) } ?? TransferMetrics(total: total)
        let response = CurlResponse(
            status: head.status, head: head, body: body.takeData(), url: request.url, metrics: metrics)
        if let progress, let easy { reportFinalProgress(easy, to: progress) }
        markDone()
        continuation.resume(returning: response)
    }

    /// Resumes the streaming caller with the response head; the body follows through the channel.
    func deliverHead() {
        guard case .streaming(let continuation) = delivery, let channel else { return }
        delivery = nil
        let reader = BodyReader(channel: channel, producer: self)
        continuation.resume(
            returning: StreamingResponse(
                status: head.status, headers: head.headers(), url: request.url, body: reader.byteStream))
    }

    /// Fails the caller that is still waiting for a response or a head, and marks the transfer done.
    func failCaller(_ failure: ErrandError) {
        markDone()
        let waiting = delivery
        delivery = nil
        switch waiting {
        case .buffered(let continuation): continuation.resume(throwing: failure)
        case .streaming(let continuation): continuation.resume(throwing: failure)
        case nil: channel?.finish(failure)
        }
    }

    /// Ends a streamed body, normally or with a failure, and marks the transfer done.
    func finishStream(_ failure: ErrandError?) {
        markDone()
        channel?.finish(failure)
    }

    private func markDone() {
        requestBody?.close()
        requestBody = nil
        isDone.store(true, ordering: .releasing)
    }
}

/// A buffered response as the loop hands it to its caller: plain values, the head still as bytes.
struct CurlResponse: Sendable {
    let status: Int
    let head: ResponseHead
    let body: Data
    let url: URL
    let metrics: TransferMetrics

    /// The response as the ``Transport`` protocol returns it; the header strings are made here, by the caller.
    var transportResponse: TransportResponse {
        TransportResponse(status: status, headers: head.headers(), body: body, url: url, metrics: metrics)
    }
}
#endif
