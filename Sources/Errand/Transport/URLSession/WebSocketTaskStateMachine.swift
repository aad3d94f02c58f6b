import Foundation

/// The life of a WebSocket connection over URLSession's WebSocket task, as the ``WebSocket`` above it reads it: the
/// handshake's outcome first (read back by the hop as a response head), then the frames of the messages, pongs and
/// the close the task reports, one read at a time.
///
/// At most one `receive` is asked of the task at once, and only while a reader waits, so a slow reader leaves
/// messages in URLSession rather than here; pongs and the peer's close come through the same queue, so that a reader
/// waiting for a message sees them at once.
struct WebSocketTaskStateMachine: Sendable {
    /// How a read ends.
    enum Outcome: Sendable {
        case bytes(Data)
        /// The end of the stream.
        case end
        case failure(ErrandError)
    }

    enum State: Sendable {
        /// The task is opening; the hop waits.
        case connecting
        /// The handshake is over (a 101 or another answer, as `head`); the hop has yet to write its request.
        case upgrading(head: Data)
        /// The hop wrote its request; its read takes `head`.
        case answering(head: Data)
        /// Frames flow.
        case open
        /// No more is received: the peer closed, the task failed, or this side released the connection.
        case ended
    }

    /// What to do for a read.
    enum ReadAction: Sendable {
        /// Return this to the reader.
        case deliver(Outcome)
        /// Ask the task for its next message, and wait.
        case receiveAndWait
        /// Wait: a receive is already asked for.
        case wait
    }

    /// What to do when something arrives.
    enum ArrivalAction: Sendable {
        /// Resume the waiting reader with this.
        case resume(Outcome)
        case none
    }

    private(set) var state = State.connecting
    private var queue: [Outcome] = []
    private var receiving = false
    private var readerWaits = false
    private var closeQueued = false

    // MARK: Handshake

    /// The task opened or failed with an answer (`head`). Returns whether the hop is to be told.
    mutating func answered(head: Data) -> Bool {
        guard case .connecting = state else { return false }
        state = .upgrading(head: head)
        return true
    }

    /// The hop wrote its request.
    mutating func requestWritten() {
        guard case .upgrading(let head) = state else { return }
        state = .answering(head: head)
    }

    /// Whether the hop's write is the handshake's request (which URLSession has sent already, in its own words).
    var expectsRequest: Bool {
        if case .upgrading = state { return true }
        return false
    }

    // MARK: Reading

    mutating func read() -> ReadAction {
        switch state {
        case .connecting, .upgrading:
            return .deliver(.failure(.invalidRequest("the WebSocket handshake was read before it was written.")))
        case .answering(let head):
            state = .open
            return .deliver(.bytes(head))
        case .open, .ended:
            if !queue.isEmpty { return .deliver(queue.removeFirst()) }
            if case .ended = state { return .deliver(.end) }
            readerWaits = true
            if receiving { return .wait }
            receiving = true
            return .receiveAndWait
        }
    }

    /// The waiting reader was cancelled.
    mutating func readerCancelled() -> ArrivalAction {
        guard readerWaits else { return .none }
        readerWaits = false
        return .resume(.failure(.cancelled))
    }

    /// The task's receive returned: a message's frame, or how it ended (the peer's close frame, then `.end`).
    mutating func received(_ outcomes: [Outcome]) -> ArrivalAction {
        receiving = false
        return arrived(outcomes)
    }

    /// A pong came back for a ping sent.
    mutating func pongArrived(_ frame: Data) -> ArrivalAction {
        arrived([.bytes(frame)])
    }

    /// The peer's close frame, reported apart from a receive (a delegate's call); a second one is dropped.
    mutating func peerClosed(_ frame: Data) -> ArrivalAction {
        arrived([.bytes(frame)], isClose: true)
    }

    /// This side released the connection: a waiting reader sees the end.
    mutating func released() -> ArrivalAction {
        state = .ended
        queue.removeAll()
        guard readerWaits else { return .none }
        readerWaits = false
        return .resume(.end)
    }

    private mutating func arrived(_ outcomes: [Outcome], isClose: Bool = false) -> ArrivalAction {
        guard case .open = state else { return .none }
        if isClose {
            guard !closeQueued else { return .none }
            closeQueued = true
        }
        for outcome in outcomes {
            switch outcome {
            case .bytes(let bytes) where Self.isClose(bytes):
                if closeQueued, !isClose { continue }
                closeQueued = true
                queue.append(outcome)
            case .end, .failure:
                queue.append(outcome)
                state = .ended
            case .bytes:
                queue.append(outcome)
            }
            if case .ended = state { break }
        }
        guard readerWaits, !queue.isEmpty else { return .none }
        readerWaits = false
        return .resume(queue.removeFirst())
    }

    /// Whether `bytes` are a close frame (the frames queued here are whole, one per outcome).
    private static func isClose(_ bytes: Data) -> Bool {
        bytes.first.map { $0 & 0x0F == WebSocketFrame.Opcode.close.rawValue } ?? false
    }
}
