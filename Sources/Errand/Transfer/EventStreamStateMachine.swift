import Foundation

/// When and how an event stream reconnects after its connection ends.
///
/// The server's `retry:` field, once sent, sets the wait before each reconnection; until then ``initialDelay`` does,
/// spread by jitter so that many clients dropped at once do not return at once. Attempts that fail to connect, or
/// connections that end before delivering an event, double the wait each time, up to ``maximumDelay`` (or the
/// server's `retry:`, when it asks for longer). No wait is shorter than ``minimumDelay``, whatever the server asks
/// (`retry: 0` would otherwise reconnect as fast as the network allows), and the doubling starts from at least that
/// floor, so that a wait of zero grows too. After ``maxConsecutiveFailures`` failed attempts in a row the stream
/// fails with the last failure.
public struct ReconnectionPolicy: Sendable, Hashable {
    /// The wait before reconnecting while the server has not sent `retry:`.
    public var initialDelay: Duration
    /// The longest wait between two attempts, unless the server's `retry:` asks for longer.
    public var maximumDelay: Duration
    /// The shortest wait between two connections: a floor under the server's `retry:` and under every backoff.
    /// Values below one millisecond count as one millisecond.
    public var minimumDelay: Duration
    /// Whether waits not set by the server are spread randomly over their upper half.
    public var jitter: Bool
    /// How many attempts in a row may fail (not connect, or end without an event) before the stream fails with the
    /// last failure; `nil` retries for as long as the stream is read, as the HTML standard's `EventSource` does.
    public var maxConsecutiveFailures: Int?

    /// Creates a policy.
    public init(
        initialDelay: Duration = .seconds(1), maximumDelay: Duration = .seconds(30),
        minimumDelay: Duration = .milliseconds(100), jitter: Bool = true, maxConsecutiveFailures: Int? = 10
    ) {
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.minimumDelay = minimumDelay
        self.jitter = jitter
        self.maxConsecutiveFailures = maxConsecutiveFailures
    }

    /// One second at first, doubling up to 30 s, with jitter, never less than 100 ms apart, failing after 10 failed
    /// attempts in a row (about three minutes of waiting).
    public static let `default` = ReconnectionPolicy()
}

/// The life of an event stream's connections as states and transitions, without a socket: the stream feeds it what
/// happened and does what each transition returns.
///
/// ```
/// idle ─start─▶ connecting ─opened(200, text/event-stream)─▶ open ─ended─▶ waiting ─waited─▶ connecting …
///                connecting ─opened(204)─▶ finished                 (the server says: no more events)
///                connecting ─opened(other status or type)─▶ finished (the stream fails)
///                connecting ─connectFailed(transport failure)─▶ waiting (backoff) ─waited─▶ connecting
///                open ─refused(an event over the cap)─▶ finished (the stream fails)
/// every state ─cancelled─▶ finished
/// ```
struct EventStreamStateMachine: Sendable {
    enum State: Sendable, Equatable {
        case idle
        case connecting
        case open(eventsReceived: Bool)
        case waiting
        case finished
    }

    /// What the stream does next.
    enum Action: Sendable, Equatable {
        /// Nothing: what happened does not apply in the current state.
        case none
        /// Open a connection.
        case connect
        /// Read the open connection's body.
        case read
        /// Wait, then report ``waited()``.
        case wait(Duration)
        /// End the sequence normally.
        case finish
        /// End the sequence with this failure.
        case fail(Rejection)
    }

    /// Why a stream fails.
    enum Rejection: Sendable, Equatable {
        /// The server answered with a status other than 200 or 204.
        case status(Int)
        /// The server answered 200 with another content type than `text/event-stream`.
        case contentType(String?)
        /// Connecting failed too often in a row, or failed in a way no reconnection mends.
        case failure(ErrandError)

        static func == (lhs: Rejection, rhs: Rejection) -> Bool {
            switch (lhs, rhs) {
            case (.status(let a), .status(let b)): a == b
            case (.contentType(let a), .contentType(let b)): a == b
            case (.failure(let a), .failure(let b)): "\(a)" == "\(b)"
            default: false
            }
        }
    }

    let policy: ReconnectionPolicy
    private(set) var state: State = .idle
    /// Attempts in a row that did not connect or ended without an event.
    private(set) var consecutiveFailures = 0
    /// A number in `0...1` for jitter; tests pass a fixed one.
    private let random: @Sendable () -> Double

    init(policy: ReconnectionPolicy, random: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }) {
        self.policy = policy
        self.random = random
    }

    mutating func start() -> Action {
        guard case .idle = state else { return .none }
        state = .connecting
        return .connect
    }

    /// The server answered with `status` and `contentType`.
    mutating func opened(status: Int, contentType: String?) -> Action {
        guard case .connecting = state else { return .none }
        if status == 204 {
            state = .finished
            return .finish
        }
        guard status == 200 else {
            state = .finished
            return .fail(.status(status))
        }
        guard Self.isEventStream(contentType) else {
            state = .finished
            return .fail(.contentType(contentType))
        }
        state = .open(eventsReceived: false)
        return .read
    }

    /// The open connection delivered an event.
    mutating func eventReceived() {
        guard case .open = state else { return }
        state = .open(eventsReceived: true)
        consecutiveFailures = 0
    }

    /// Connecting failed with `failure` before a response arrived.
    mutating func connectFailed(_ failure: ErrandError, serverRetry: Duration?) -> Action {
        guard case .connecting = state else { return .none }
        guard case .transport = failure else {
            state = .finished
            return .fail(.failure(failure))
        }
        return backOff(after: failure, serverRetry: serverRetry)
    }

    /// The open connection ended, cleanly or with `failure` (a dropped connection, a timeout).
    mutating func ended(_ failure: ErrandError?, serverRetry: Duration?) -> Action {
        guard case .open(let eventsReceived) = state else { return .none }
        if case .cancelled = failure {
            state = .finished
            return .fail(.failure(.cancelled))
        }
        if eventsReceived {
            state = .waiting
            return .wait(delay(serverRetry: serverRetry))
        }
        return backOff(
            after: failure
                ?? .transport(
                    TransportFailure(
                        kind: .connectionLost, underlying: "the event stream ended before sending an event")),
            serverRetry: serverRetry)
    }

    /// The open connection's body broke a limit of the stream (an event or a line over the size cap): the stream
    /// fails, since reconnecting would most likely bring the same bytes again.
    mutating func refused(_ failure: ErrandError) -> Action {
        guard case .open = state else { return .none }
        state = .finished
        return .fail(.failure(failure))
    }

    /// The wait is over.
    mutating func waited() -> Action {
        guard case .waiting = state else { return .none }
        state = .connecting
        return .connect
    }

    /// The reader stopped.
    mutating func cancelled() -> Action {
        guard state != .finished else { return .none }
        state = .finished
        return .fail(.failure(.cancelled))
    }

    private mutating func backOff(after failure: ErrandError, serverRetry: Duration?) -> Action {
        consecutiveFailures += 1
        if let limit = policy.maxConsecutiveFailures, consecutiveFailures > limit {
            state = .finished
            return .fail(.failure(failure))
        }
        state = .waiting
        return .wait(delay(serverRetry: serverRetry))
    }

    /// The wait before the next attempt: the server's `retry:` (or the policy's initial delay, with jitter), at least
    /// the policy's minimum, doubled for each failure in a row, at most the policy's maximum (or the server's
    /// `retry:`, when longer).
    ///
    /// Doubled only while below half the ceiling, so that any `retry:` and any count of failures gives a wait, never
    /// an overflow (`Duration` multiplication traps).
    func delay(serverRetry: Duration?) -> Duration {
        let floor = max(policy.minimumDelay, .milliseconds(1))
        let ceiling = max(policy.maximumDelay, serverRetry ?? .zero, floor)
        var delay = min(max(serverRetry ?? policy.initialDelay, floor), ceiling)
        for _ in 0..<max(consecutiveFailures - 1, 0) {
            guard delay < ceiling else { break }
            delay = delay > ceiling / 2 ? ceiling : delay * 2
        }
        guard serverRetry == nil, policy.jitter else { return delay }
        return max(delay * (0.5 + 0.5 * min(max(random(), 0), 1)), floor)
    }

    /// Whether a `Content-Type` names an event stream (parameters and case aside).
    static func isEventStream(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let type = contentType.split(separator: ";", maxSplits: 1).first ?? ""
        return type.trimmingCharacters(in: .whitespaces).lowercased() == "text/event-stream"
    }
}
