#if canImport(CCurl)
import Foundation

/// The life of one curl transfer as states and transitions, with no libcurl, no thread and no socket in it.
///
/// The loop thread feeds it what happens — the start, a connection slot, the final head, body bytes, a reader that
/// fell behind or caught up, the end reported by libcurl, a cancellation or a timeout — and does what each transition
/// returns. Every way out of the transfer goes through ``fail(_:)``, ``completed(_:)`` or ``start()``, and only those
/// reach ``State/finished``, so the outcome is delivered exactly once whatever order events race in.
///
/// ```
/// initialized ─start─▶ configuring ─configured─▶ waitingForSlot ─admitted─▶ running(awaitingHead)
/// initialized ─fail─▶ cancelledBeforeStart ─start─▶ finished
/// running(awaitingHead) ─headReceived─▶ running(buffering | streaming(paused: false))
/// running(streaming(paused: false)) ─streamRefused─▶ running(streaming(paused: true)) ─readerCaughtUp─▶ (paused: false)
/// running(buffering | streaming) ─completed─▶ finished                  (the outcome goes out)
/// running(any) ─callbackFailed─▶ running(aborting) ─completed─▶ finished (the callback's failure goes out)
/// every state but finished ─fail (cancellation, a timeout, a handle that cannot be set up)─▶ finished
/// ```
///
/// A redirect is a response like any other here: the client's redirect follower, above every transport, decides
/// whether another request follows.
struct CurlTransferStateMachine: Sendable {
    /// How the response reaches its caller.
    enum Mode: Sendable {
        /// The whole body, at the end.
        case buffered
        /// The head as soon as it is complete; the body through a channel, with backpressure.
        case streaming
    }

    /// Where a transfer is, which says what leaving it takes.
    enum State: Sendable {
        /// Created by the caller; the loop has not seen its start yet.
        case initialized
        /// A cancellation (or another failure) reached the loop before the start did; the start fails at once.
        case cancelledBeforeStart(ErrandError)
        /// The loop is setting up the handle.
        case configuring
        /// Set up; waiting in its host's queue for a connection slot.
        case waitingForSlot
        /// In the multi handle, holding a slot at its host.
        case running(Response)
        /// The outcome went out; every later event is ignored.
        case finished
    }

    /// What a running hop is receiving.
    enum Response: Sendable {
        /// Nothing of the final head yet (interim 1xx heads are skipped before this machine hears of them).
        case awaitingHead
        /// The body goes into a buffer, delivered at the end.
        case buffering
        /// The head went to the caller; the body goes to the stream's channel, `paused` while its reader lags.
        case streaming(paused: Bool)
        /// A callback decided the transfer fails and told libcurl to stop; `failure` goes out when libcurl reports
        /// the end. `headDelivered` says whether the stream, rather than the caller, hears of it.
        case aborting(ErrandError, headDelivered: Bool)
    }

    /// Where a failing transfer must be taken out of.
    enum Place: Sendable, Equatable {
        /// Nowhere: it never entered a queue or the multi handle.
        case nowhere
        /// Its host's queue.
        case queue
        /// The multi handle, and then its slot.
        case multi
        /// Only its slot: libcurl has already let go of it.
        case slot
    }

    /// Who hears of a failure.
    enum Recipient: Sendable, Equatable {
        /// The suspended caller (nothing was delivered yet).
        case caller
        /// The stream's reader (the head was delivered).
        case stream
    }

    /// What the loop does after a transition.
    enum Action: Sendable {
        /// Nothing.
        case none
        /// Set up the handle, then report ``configured()`` or ``fail(_:)``.
        case configure
        /// Join the host's queue.
        case waitForSlot
        /// Put the handle into the multi handle (with the time left of the total timeout).
        case addToMulti
        /// From a callback: return libcurl's abort value; the end follows through ``completed(_:)``.
        case abort
        /// From the write callback: return libcurl's pause value; the same bytes come again on resume.
        case pause
        /// Resume the paused transfer.
        case unpause
        /// Resume the streaming caller with the head.
        case deliverHead
        /// Release the slot and deliver the outcome: the buffered response to the caller, or the end of the body to
        /// the stream.
        case succeed
        /// Take the transfer out of `place` and deliver `failure` to `recipient`.
        case fail(ErrandError, leaving: Place, notifying: Recipient)
    }

    /// What to do with body bytes that arrived.
    enum BodyAction: Sendable, Equatable {
        /// Append them to the buffer.
        case buffer
        /// Offer them to the stream's channel.
        case stream
        /// Refuse them: return libcurl's abort value.
        case abort
    }

    let mode: Mode
    /// The request's URL, named in failures the machine decides.
    let url: URL
    let maxBodySize: Int
    private(set) var state: State = .initialized

    init(mode: Mode, url: URL, maxBodySize: Int) {
        self.mode = mode
        self.url = url
        self.maxBodySize = maxBodySize
    }

    // MARK: Queries

    /// Whether the transfer waits for its stream's reader, a time the idle timeout does not count.
    var isPausedForReader: Bool {
        if case .running(.streaming(paused: true)) = state { return true }
        return false
    }

    /// Whether libcurl's progress counts are the response's and the request's: while running, except while the
    /// transfer is aborting.
    var countsProgress: Bool {
        guard case .running(let response) = state else { return false }
        switch response {
        case .awaitingHead, .buffering, .streaming: return true
        case .aborting: return false
        }
    }

    /// Whether the transfer is in the multi handle.
    var isRunning: Bool {
        if case .running = state { return true }
        return false
    }

    /// Whether the outcome went out.
    var isFinished: Bool {
        if case .finished = state { return true }
        return false
    }

    // MARK: Transitions the loop drives

    /// The loop picked up the transfer.
    mutating func start() -> Action {
        switch state {
        case .initialized:
            state = .configuring
            return .configure
        case .cancelledBeforeStart(let failure):
            state = .finished
            return .fail(failure, leaving: .nowhere, notifying: .caller)
        case .configuring, .waitingForSlot, .running, .finished:
            return .none
        }
    }

    /// The first hop's handle is set up.
    mutating func configured() -> Action {
        guard case .configuring = state else { return .none }
        state = .waitingForSlot
        return .waitForSlot
    }

    /// The host has a free slot for this transfer.
    mutating func admitted() -> Action {
        guard case .waitingForSlot = state else { return .none }
        state = .running(.awaitingHead)
        return .addToMulti
    }

    /// The reader of a paused stream caught up.
    mutating func readerCaughtUp() -> Action {
        guard case .running(.streaming(paused: true)) = state else { return .none }
        state = .running(.streaming(paused: false))
        return .unpause
    }

    /// libcurl reported the transfer's end (the handle is already out of the multi handle): `.success` when it ended
    /// cleanly, else what it failed with.
    mutating func completed(_ outcome: Result<Void, ErrandError>) -> Action {
        guard case .running(let response) = state else { return .none }
        if case .aborting(let failure, let delivered) = response {
            state = .finished
            return .fail(failure, leaving: .slot, notifying: delivered ? .stream : .caller)
        }
        if case .failure(let failure) = outcome {
            state = .finished
            return .fail(failure, leaving: .slot, notifying: Self.hasDeliveredHead(response) ? .stream : .caller)
        }
        switch response {
        case .awaitingHead:
            state = .finished
            return .fail(
                .transport(
                    TransportFailure(
                        kind: .badResponse, url: url, underlying: "the transfer ended without a response head")),
                leaving: .slot, notifying: .caller)
        case .buffering, .streaming:
            state = .finished
            return .succeed
        case .aborting:
            return .none
        }
    }

    /// A failure decided outside libcurl's callbacks — cancellation, a timeout, a handle that cannot be set up —
    /// ends the transfer wherever it is. The first failure wins; after the end, nothing happens.
    mutating func fail(_ failure: ErrandError) -> Action {
        switch state {
        case .initialized:
            state = .cancelledBeforeStart(failure)
            return .none
        case .cancelledBeforeStart, .finished:
            return .none
        case .configuring:
            state = .finished
            return .fail(failure, leaving: .nowhere, notifying: .caller)
        case .waitingForSlot:
            state = .finished
            return .fail(failure, leaving: .queue, notifying: .caller)
        case .running(let response):
            state = .finished
            if case .aborting(let first, let delivered) = response {
                return .fail(first, leaving: .multi, notifying: delivered ? .stream : .caller)
            }
            return .fail(failure, leaving: .multi, notifying: Self.hasDeliveredHead(response) ? .stream : .caller)
        }
    }

    // MARK: Transitions libcurl's callbacks drive (no handle may leave the multi handle from there)

    /// The final head arrived, with the decoded body size its `Content-Length` announces (when that is known).
    mutating func headReceived(declaredBodySize: Int?) -> Action {
        guard case .running(.awaitingHead) = state else { return .none }
        if let declaredBodySize, declaredBodySize > maxBodySize {
            return abort(.bodyTooLarge(limit: maxBodySize))
        }
        switch mode {
        case .buffered:
            state = .running(.buffering)
            return .none
        case .streaming:
            state = .running(.streaming(paused: false))
            return .deliverHead
        }
    }

    /// Body bytes arrived: what to do with them.
    mutating func bodyArrived() -> BodyAction {
        guard case .running(let response) = state else { return .abort }
        switch response {
        case .buffering: return .buffer
        case .streaming: return .stream
        case .aborting: return .abort
        case .awaitingHead:
            _ = abort(
                .transport(
                    TransportFailure(
                        kind: .badResponse, url: url, underlying: "body bytes arrived before the response head")))
            return .abort
        }
    }

    /// The stream's channel refused bytes because its reader is behind.
    mutating func streamRefused() -> Action {
        guard case .running(.streaming) = state else { return .abort }
        state = .running(.streaming(paused: true))
        return .pause
    }

    /// A callback decided the transfer fails (the body is too large, the head is too large or malformed, a body
    /// file cannot be read, memory ran out).
    mutating func callbackFailed(_ failure: ErrandError) -> Action {
        guard case .running = state else { return .abort }
        return abort(failure)
    }

    private mutating func abort(_ failure: ErrandError) -> Action {
        guard case .running(let response) = state else { return .abort }
        if case .aborting = response { return .abort }
        state = .running(.aborting(failure, headDelivered: Self.hasDeliveredHead(response)))
        return .abort
    }

    private static func hasDeliveredHead(_ response: Response) -> Bool {
        switch response {
        case .streaming: true
        case .aborting(_, let delivered): delivered
        case .awaitingHead, .buffering: false
        }
    }
}
#endif
