import Foundation

/// The life of one URLSession exchange as states and transitions, with no URLSession, no task and no socket in it.
///
/// ``URLSessionExchange`` feeds it what happens — the caller suspended, the head, body bytes, an authentication
/// challenge, a failure Errand decided (cancellation, its own timeout, a reader gone), the completion URLSession
/// reports — and carries out what each transition returns, outside its lock. Only ``start()``, ``fail(_:)`` and
/// ``completed(_:fallbackHead:)`` reach ``State/finished``, so the outcome goes out exactly once whatever order the
/// delegate queue, the timer and the caller race in. A failure Errand decided wins over what URLSession reports after
/// it (a cancelled task completes with its own "cancelled" error).
///
/// ```
/// created ─start─▶ awaitingHead ─headReceived─▶ buffering ─completed─▶ finished      (the response goes out)
///                               └─────────────▶ streaming ─completed─▶ finished      (the body's end goes out)
/// created ─fail─▶ failedBeforeStart ─start─▶ finished                                (the caller fails at once)
/// awaitingHead | buffering ─fail, body too large─▶ cancelling ─completed─▶ finished  (the failure goes out)
/// streaming ─fail, body too large─▶ finished                                         (the body ends with it)
/// awaitingHead ─completed─▶ finished        (a challenge's status, a head URLSession never announced, or a failure)
/// ```
struct URLSessionExchangeStateMachine: Sendable {
    /// How the response reaches its caller.
    enum Mode: Sendable {
        /// The whole body, at the end.
        case buffered
        /// The head as soon as it arrives; the body through a channel, chunk by chunk.
        case streaming
    }

    /// A response head, as plain values.
    struct Head: Sendable {
        var status: Int
        var headers: HTTPHeaders
        var url: URL
        /// The body's length as `Content-Length` announces it, when it does.
        var declaredLength: Int64?
    }

    /// Where an exchange is, which says what leaving it takes.
    enum State: Sendable {
        /// Created; the caller has not suspended yet and the task has not been resumed.
        case created
        /// A failure (a cancellation) came before the caller suspended; the start fails at once.
        case failedBeforeStart(ErrandError)
        /// The task runs; no head yet.
        case awaitingHead
        /// A buffered exchange's head arrived; the body collects here.
        case buffering(Head, body: Data)
        /// A streaming exchange's head went to the caller; `received` bytes of body went to the channel.
        case streaming(received: Int64)
        /// Errand decided the exchange fails and stopped the task; the failure goes out when URLSession reports the
        /// end, so the task is over by the time the caller hears of it.
        case cancelling(ErrandError)
        /// The outcome went out; every later event is ignored.
        case finished
    }

    /// What the exchange does after ``start()``.
    enum StartAction: Sendable {
        /// Nothing (a second start).
        case none
        /// Resume the URLSession task and arm the total timeout.
        case resumeTask
        /// Resume the caller with the failure; the task is never resumed.
        case failCaller(ErrandError)
    }

    /// What the exchange does with a head.
    enum HeadAction: Sendable {
        /// Let the body come (URLSession's `.allow`).
        case proceed
        /// Let the body come, and resume the streaming caller with the head.
        case deliverHead(Head)
        /// Refuse the body (URLSession's `.cancel`); the outcome follows the completion.
        case cancelTask
    }

    /// What the exchange does with body bytes.
    enum BodyAction: Sendable {
        /// They were kept in the buffer; `total` bytes so far.
        case buffered(total: Int64)
        /// Append them to the stream's channel; `total` bytes so far.
        case yield(Data, total: Int64)
        /// Drop them: the outcome is decided (chunks URLSession had queued keep arriving after a cancellation).
        case drop
        /// Drop them and stop the task: the body grew past its limit (or came before a head); the failure goes out
        /// when URLSession reports the end.
        case cancelTask
        /// Drop them, stop the task and end the stream's body with the failure now: the body grew past its limit.
        case cancelTaskAndFinishBody(ErrandError)
    }

    /// What the exchange does after ``fail(_:)``.
    enum FailAction: Sendable {
        /// Nothing: the outcome is decided already, or the caller has not suspended yet.
        case none
        /// Stop the task; the failure goes out when URLSession reports the end.
        case cancelTask
        /// Stop the task and end the stream's body with the failure now.
        case cancelTaskAndFinishBody(ErrandError)
    }

    /// What the exchange does after ``completed(_:fallbackHead:)``.
    enum CompletionAction: Sendable {
        /// Nothing.
        case none
        /// Resume the buffered caller with the response.
        case succeed(Head, body: Data)
        /// Resume the streaming caller with the head and a body that has already ended.
        case deliverHeadWithoutBody(Head)
        /// Resume the waiting caller with the failure.
        case failCaller(ErrandError)
        /// End the stream's body, normally or with a failure.
        case finishBody(ErrandError?)
    }

    let mode: Mode
    /// The request's URL, named in failures the machine decides.
    let url: URL
    let maxBodySize: Int
    private(set) var state: State = .created
    /// When the head arrived, from the exchange's start.
    private(set) var firstByte: Duration?
    /// The status a 401 or 407 challenge stood for: URLSession cancels such a task, and this is its outcome.
    private(set) var challenge: Head?

    init(mode: Mode, url: URL, maxBodySize: Int) {
        self.mode = mode
        self.url = url
        self.maxBodySize = maxBodySize
    }

    // MARK: Queries

    /// Whether the task runs and no head arrived yet.
    var isAwaitingHead: Bool {
        if case .awaitingHead = state { return true }
        return false
    }

    /// Whether the outcome went out.
    var isFinished: Bool {
        if case .finished = state { return true }
        return false
    }

    // MARK: Transitions

    /// The caller suspended, its continuation stored.
    mutating func start() -> StartAction {
        switch state {
        case .created:
            state = .awaitingHead
            return .resumeTask
        case .failedBeforeStart(let failure):
            state = .finished
            return .failCaller(failure)
        case .awaitingHead, .buffering, .streaming, .cancelling, .finished:
            return .none
        }
    }

    /// The response head arrived, `firstByte` after the start.
    mutating func headReceived(_ head: Head, firstByte: Duration) -> HeadAction {
        guard case .awaitingHead = state else {
            switch state {
            case .cancelling, .finished: return .cancelTask
            default: return .proceed
            }
        }
        self.firstByte = firstByte
        if let declared = head.declaredLength, declared > Int64(maxBodySize) {
            state = .cancelling(.bodyTooLarge(limit: maxBodySize))
            return .cancelTask
        }
        switch mode {
        case .buffered:
            var body = Data()
            if let declared = head.declaredLength, declared > 0 { body.reserveCapacity(Int(declared)) }
            state = .buffering(head, body: body)
            return .proceed
        case .streaming:
            state = .streaming(received: 0)
            return .deliverHead(head)
        }
    }

    /// Body bytes arrived.
    mutating func bodyReceived(_ data: Data) -> BodyAction {
        switch state {
        case .buffering(let head, var body):
            guard body.count + data.count <= maxBodySize else {
                // The body so far goes at once: a decompression bomb must not stay inflated in memory.
                state = .cancelling(.bodyTooLarge(limit: maxBodySize))
                return .cancelTask
            }
            // Out of the enum while appending, so that the buffer is not copied.
            state = .finished
            body.append(data)
            let total = Int64(body.count)
            state = .buffering(head, body: body)
            return .buffered(total: total)
        case .streaming(let received):
            let total = received + Int64(data.count)
            guard total <= Int64(maxBodySize) else {
                state = .finished
                return .cancelTaskAndFinishBody(.bodyTooLarge(limit: maxBodySize))
            }
            state = .streaming(received: total)
            return .yield(data, total: total)
        case .awaitingHead:
            state = .cancelling(
                .transport(
                    TransportFailure(
                        kind: .badResponse, url: url, underlying: "body bytes arrived before the response head")))
            return .cancelTask
        case .created, .failedBeforeStart, .cancelling, .finished:
            return .drop
        }
    }

    /// A 401 or 407 challenge arrived, standing for `head`; the task is cancelled by the challenge's answer.
    mutating func challenged(_ head: Head) {
        guard challenge == nil, !isFinished else { return }
        challenge = head
    }

    /// A failure Errand decided: a cancellation, its own timeout, a reader gone, a head it refuses. The first one
    /// wins; after the end, nothing happens.
    mutating func fail(_ failure: ErrandError) -> FailAction {
        switch state {
        case .created:
            state = .failedBeforeStart(failure)
            return .none
        case .failedBeforeStart, .cancelling, .finished:
            return .none
        case .awaitingHead, .buffering:
            state = .cancelling(failure)
            return .cancelTask
        case .streaming:
            state = .finished
            return .cancelTaskAndFinishBody(failure)
        }
    }

    /// URLSession reported the end: `error` when the task failed. `fallbackHead` is the task's response when
    /// URLSession never announced it: FoundationNetworking keeps a 301–308 to itself when its `Location` is missing,
    /// empty or unusable, and completes without a head or a body.
    mutating func completed(_ error: ErrandError?, fallbackHead: Head?) -> CompletionAction {
        switch state {
        case .created:
            state = .failedBeforeStart(error ?? .cancelled)
            return .none
        case .failedBeforeStart, .finished:
            return .none
        case .cancelling(let failure):
            state = .finished
            return .failCaller(failure)
        case .streaming:
            state = .finished
            return .finishBody(challenge == nil ? error : nil)
        case .buffering(let head, let body):
            state = .finished
            if let error, challenge == nil { return .failCaller(error) }
            return .succeed(head, body: body)
        case .awaitingHead:
            state = .finished
            if let head = challenge ?? (error == nil ? fallbackHead : nil) {
                switch mode {
                case .buffered: return .succeed(head, body: Data())
                case .streaming: return .deliverHeadWithoutBody(head)
                }
            }
            return .failCaller(
                error
                    ?? .transport(
                        TransportFailure(kind: .badResponse, url: url, underlying: "the task ended without a response")
                    ))
        }
    }
}
