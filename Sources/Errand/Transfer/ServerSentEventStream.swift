import Foundation

/// The events of a `text/event-stream` resource, reconnecting as the HTML standard's `EventSource` does.
///
/// Made by ``APIClient/events(_:reconnection:maxEventSize:)``; nothing is sent until iteration starts. Each connection sends
/// `Accept: text/event-stream` and, once the server has named an event ID, `Last-Event-ID` (a request's own
/// `Last-Event-ID` is where the first connection resumes). When a connection drops or
/// ends, the stream waits the server's `retry:` time (or ``ReconnectionPolicy``'s), on the client's
/// ``ClientConfiguration/clock``, and reconnects. It ends normally
/// when the server answers 204 No Content, and fails with ``ErrandError/unacceptableStatus(_:)`` for any status but
/// 200 and 204, with ``ErrandError/decoding(_:)`` for a 200 that is not `text/event-stream`, and with
/// ``ErrandError/cancelled`` when the reading task is cancelled — which closes the connection at once, as does
/// leaving the loop early. No total timeout applies (an event stream is meant to stay open) unless the request sets
/// one, and neither does the client's body-size cap (events are not buffered whole). Instead, no event and no line
/// may be larger than the stream's `maxEventSize` (1 MiB unless ``APIClient/events(_:reconnection:maxEventSize:)``
/// says otherwise): one that is fails the stream with ``ErrandError/bodyTooLarge(limit:)`` naming that cap, after the
/// events before it, so a server that never ends a line or an event cannot fill memory. Whenever the stream ends,
/// however it ends, its buffers are let go.
///
/// Reconnections follow the ``ReconnectionPolicy``: never less than its `minimumDelay` (100 ms) apart, whatever the
/// server's `retry:` says, backing off from there while attempts fail, and failing with the last failure after its
/// `maxConsecutiveFailures` (10) in a row.
///
/// Every connection goes through the client's middleware like any request: authentication and keys, rate limits, a
/// concurrency limit (whose slot a connection holds for as long as it stays open), retries before the stream opens,
/// and observers (which see each connection when it ends); the cache passes it through. Errors are redacted by the
/// client's ``Redaction`` like every other.
public struct ServerSentEventStream: AsyncSequence, Sendable {
    /// An event.
    public typealias Element = ServerSentEvent
    /// How the stream fails.
    public typealias Failure = ErrandError

    let client: APIClient
    let request: Request<Data>
    let reconnection: ReconnectionPolicy
    let maxEventSize: Int

    /// Makes the iterator; each iterator opens its own connections.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(
            client: client, request: request, machine: EventStreamStateMachine(policy: reconnection),
            maxEventSize: maxEventSize)
    }

    /// Reads events, connecting and reconnecting as needed.
    public struct AsyncIterator: AsyncIteratorProtocol {
        /// An event.
        public typealias Element = ServerSentEvent
        /// How the stream fails.
        public typealias Failure = ErrandError

        let client: APIClient
        let request: Request<Data>
        var machine: EventStreamStateMachine
        var parser = ServerSentEventParser()
        var pending: [ServerSentEvent] = []
        var body: ByteStream.AsyncIterator?
        var next: EventStreamStateMachine.Action?

        init(client: APIClient, request: Request<Data>, machine: EventStreamStateMachine, maxEventSize: Int) {
            self.client = client
            self.request = request
            self.machine = machine
            // A request that names a Last-Event-ID resumes from there, as a reconnection would.
            self.parser = ServerSentEventParser(
                lastEventID: request.headers["Last-Event-ID"], maxEventSize: maxEventSize)
        }

        /// The next event; `nil` after the server's 204 or once the stream failed.
        public mutating func next() async throws(ErrandError) -> ServerSentEvent? {
            var action = next ?? machine.start()
            next = nil
            while true {
                if !pending.isEmpty {
                    next = action
                    return pending.removeFirst()
                }
                if Task.isCancelled, machine.state != .finished {
                    action = machine.cancelled()
                }
                switch action {
                case .none, .finish:
                    release()
                    return nil
                case .fail(let rejection):
                    release()
                    throw rejection.failure
                case .connect:
                    action = await connect()
                case .wait(let delay):
                    do {
                        try await client.configuration.timeline.sleep(for: delay)
                        action = machine.waited()
                    } catch {
                        action = machine.cancelled()
                    }
                case .read:
                    action = await read()
                }
            }
        }

        /// Opens a connection and checks its answer.
        private mutating func connect() async -> EventStreamStateMachine.Action {
            let response: TransportResponse
            let lastEventID = parser.lastEventID
            let request = request
            do {
                response = try await client.open(request, delivery: .streamed, checksStatus: false) { built in
                    Self.prepare(&built, for: request, lastEventID: lastEventID)
                }
            } catch {
                return machine.connectFailed(error, serverRetry: parser.reconnectionTime)
            }
            let body = response.bodyStream ?? ByteStream(buffered: response.body)
            let action = machine.opened(status: response.status, contentType: response.headers["Content-Type"])
            switch action {
            case .read:
                parser.reset()
                self.body = body.makeAsyncIterator()
            case .fail(.status):
                return .fail(.failure(await client.failure(for: response)))
            case .fail(.contentType(let type)):
                let excerpt = (try? await body.prefix(bytes: StatusFailure.excerptLimit)) ?? Data()
                return .fail(
                    .failure(
                        .decoding(
                            DecodingFailure(
                                targetType: "ServerSentEvent", codingPath: "",
                                reason: "expected Content-Type text/event-stream, got \(type ?? "none")", body: excerpt,
                                contentType: type))))
            default:
                break
            }
            return action
        }

        /// Reads the next chunk of the open connection into events.
        private mutating func read() async -> EventStreamStateMachine.Action {
            guard var iterator = body else { return machine.ended(nil, serverRetry: parser.reconnectionTime) }
            do {
                guard let chunk = try await iterator.next() else {
                    body = nil
                    return machine.ended(nil, serverRetry: parser.reconnectionTime)
                }
                body = iterator
                pending = parser.parse(chunk)
                if !pending.isEmpty { machine.eventReceived() }
                if let failure = parser.failure { return machine.refused(failure) }
                return .read
            } catch {
                body = nil
                if Task.isCancelled { return machine.cancelled() }
                return machine.ended(client.redacted(ErrandError(error)), serverRetry: parser.reconnectionTime)
            }
        }

        /// Lets go of the connection and of every buffer: the stream is over.
        private mutating func release() {
            body = nil
            pending = []
            parser.releaseBuffers()
        }

        /// What every connection of the stream sends, on top of the request as the client builds it.
        private static func prepare(_ built: inout TransportRequest, for request: Request<Data>, lastEventID: String?) {
            // The client's default Accept (JSON) is not what an event stream answers to; a request's own Accept stays.
            built.headers["Accept"] = request.headers["Accept"] ?? "text/event-stream"
            built.headers["Cache-Control"] = "no-cache"
            if let lastEventID {
                built.headers["Last-Event-ID"] = lastEventID
            } else {
                built.headers.remove("Last-Event-ID")
            }
            // A stream stays open: only a timeout the request itself sets ends it; events are never buffered whole.
            built.timeouts.total = request.timeout
            built.maxResponseBodySize = .max
        }
    }
}

extension EventStreamStateMachine.Rejection {
    /// The error a rejection fails the stream with, when it carries one (status and content-type rejections are
    /// turned into errors by the stream, which has the response).
    var failure: ErrandError {
        switch self {
        case .failure(let error): error
        case .status(let status):
            .unacceptableStatus(StatusFailure(status: status, headers: [:], body: Data(), url: nil))
        case .contentType(let type):
            .decoding(
                DecodingFailure(
                    targetType: "ServerSentEvent", codingPath: "",
                    reason: "expected Content-Type text/event-stream, got \(type ?? "none")", body: Data(),
                    contentType: type))
        }
    }
}

extension APIClient {
    /// The Server-Sent Events of a resource, as an `AsyncSequence` that reconnects when the connection ends.
    ///
    /// ```swift
    /// for try await event in client.events(Request(path: "updates")) {
    ///     print(event.event, event.data)
    /// }
    /// ```
    ///
    /// An event or a line larger than `maxEventSize` bytes (1 MiB by default; values below 1 count as 1) fails the
    /// stream with ``ErrandError/bodyTooLarge(limit:)``. See ``ServerSentEventStream`` for reconnection,
    /// `Last-Event-ID`, how it ends and how it fails.
    public func events(
        _ request: Request<Data>, reconnection: ReconnectionPolicy = .default,
        maxEventSize: Int = ServerSentEventParser.defaultMaxEventSize
    ) -> ServerSentEventStream {
        ServerSentEventStream(client: self, request: request, reconnection: reconnection, maxEventSize: maxEventSize)
    }
}
