import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A WebSocket connection that URLSession's WebSocket task keeps, presented as the byte stream a ``WebSocket`` frames
/// over: the handshake's outcome as a response head, each message as its frame, and the frames written as the task's
/// calls (``WebSocketTaskMapping``). The life of it is ``WebSocketTaskStateMachine``'s.
final class WebSocketTaskConnection: WebSocketByteStream {
    private struct Inner {
        var machine = WebSocketTaskStateMachine()
        var opener: CheckedContinuation<Void, Never>?
        var openFailure: ErrandError?
        var reader: CheckedContinuation<WebSocketTaskStateMachine.Outcome, Never>?
        var frames = WebSocketClientFrameReader()
        var closeSent = false
        var released = false
        /// URLSession reported the task complete. FoundationNetworking traps when a completed task is cancelled (its
        /// cancel looks the task up in a registry it has already left), so nothing cancels it after this.
        var taskCompleted = false
    }

    private let task: any WebSocketTaskDriving
    private let url: URL
    /// The `Sec-WebSocket-Key` of the request the hop writes, which the response head it reads must answer.
    private let key: String?
    /// Lets go of what keeps the task (its session), once the connection is released.
    private let finish: @Sendable () -> Void
    private let inner = Mutex(Inner())

    init(task: any WebSocketTaskDriving, url: URL, key: String?, finish: @escaping @Sendable () -> Void = {}) {
        self.task = task
        self.url = url
        self.key = key
        self.finish = finish
    }

    // MARK: Opening

    /// Starts the task and returns once the handshake is over: opened, or answered with another status (which the
    /// hop reads as the response). Throws when no answer came.
    func open() async throws(ErrandError) {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                inner.withLock { $0.opener = continuation }
                task.resume()
            }
        } onCancel: {
            if !inner.withLock({ $0.taskCompleted }) { task.cancel() }
        }
        if let failure = inner.withLock({ $0.openFailure }) { throw failure }
    }

    /// The task opened, with the subprotocol the server chose (`nil` or empty for none).
    func opened(subprotocol: String?, response: URLResponse?) {
        let head = WebSocketTaskMapping.upgradeHead(
            status: 101, headers: WebSocketTaskMapping.headers(of: response), key: key, subprotocol: subprotocol)
        answer(head: head, failure: nil)
    }

    /// The task completed. Before it opened, an HTTP answer is the handshake's response (a 401, a redirect) and
    /// anything else a failure; after, its receive reports how it ended.
    func completed(error: (any Error)?, response: URLResponse?) {
        inner.withLock { $0.taskCompleted = true }
        if let http = response as? HTTPURLResponse, http.statusCode != 101 {
            let head = WebSocketTaskMapping.upgradeHead(
                status: http.statusCode, headers: WebSocketTaskMapping.headers(of: http), key: key, subprotocol: nil)
            answer(head: head, failure: nil)
            return
        }
        let failure = WebSocketTaskMapping.failure(
            error ?? URLError(.badServerResponse), url: url, beforeOpening: true,
            foundationNetworking: Self.isFoundationNetworking)
        answer(head: nil, failure: failure)
    }

    /// The handshake was refused before an answer (a server certificate the transport's trust rejects): the
    /// refusal's reason is the failure, not the cancellation URLSession reports next.
    func failed(_ failure: ErrandError) {
        answer(head: nil, failure: failure)
    }

    private func answer(head: Data?, failure: ErrandError?) {
        let opener: CheckedContinuation<Void, Never>? = inner.withLock { inner in
            guard inner.machine.answered(head: head ?? Data()) else { return nil }
            inner.openFailure = head == nil ? failure : nil
            defer { inner.opener = nil }
            return inner.opener
        }
        opener?.resume()
    }

    /// The server's close frame, as URLSession's delegate reports it.
    func peerClosed(code: URLSessionWebSocketTask.CloseCode, reason: Data?) {
        let frame = WebSocketTaskMapping.serverCloseFrame(code: code, reason: reason)
        arrive { $0.peerClosed(frame) }
    }

    // MARK: WebSocketByteStream

    func write(_ bytes: Data) async throws(ErrandError) {
        let frames: [WebSocketFrame] = try inner.withLock { (inner) throws(ErrandError) -> [WebSocketFrame] in
            guard !inner.released else {
                throw .transport(
                    TransportFailure(kind: .connectionLost, url: url, underlying: "the WebSocket connection is closed"))
            }
            if inner.machine.expectsRequest {
                // URLSession wrote the handshake's request itself, with the same fields.
                inner.machine.requestWritten()
                return []
            }
            inner.frames.append(bytes)
            var frames: [WebSocketFrame] = []
            while let frame = try inner.frames.nextFrame() { frames.append(frame) }
            return frames
        }
        for frame in frames { try await perform(WebSocketTaskMapping.call(for: frame)) }
    }

    func read() async throws(ErrandError) -> Data {
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let action = inner.withLock { inner in
                    if Task.isCancelled { return WebSocketTaskStateMachine.ReadAction.deliver(.failure(.cancelled)) }
                    let action = inner.machine.read()
                    if case .deliver = action { return action }
                    inner.reader = continuation
                    return action
                }
                switch action {
                case .deliver(let outcome): continuation.resume(returning: outcome)
                case .receiveAndWait: receive()
                case .wait: break
                }
            }
        } onCancel: {
            arrive { $0.readerCancelled() }
        }
        switch outcome {
        case .bytes(let bytes): return bytes
        case .end: return Data()
        case .failure(let error): throw error
        }
    }

    func close() {
        let cancels = inner.withLock { inner in
            inner.released = true
            return !inner.closeSent && !inner.taskCompleted
        }
        arrive { $0.released() }
        if cancels { task.cancel(with: .goingAway, reason: nil) }
        finish()
    }

    // MARK: Acting

    private func perform(_ call: WebSocketTaskMapping.Call) async throws(ErrandError) {
        switch call {
        case .none:
            return
        case .send(let message):
            do {
                try await task.send(message)
            } catch {
                throw WebSocketTaskMapping.failure(
                    error, url: url, beforeOpening: false, foundationNetworking: Self.isFoundationNetworking)
            }
        case .ping(let payload):
            let frame = WebSocketTaskMapping.serverFrame(.pong, payload: payload)
            task.sendPing { [weak self] error in
                guard error == nil, let self else { return }
                self.arrive { $0.pongArrived(frame) }
            }
        case .close(let code, let reason):
            let cancels = inner.withLock { inner in
                inner.closeSent = true
                return !inner.taskCompleted
            }
            if cancels { task.cancel(with: code, reason: reason) }
        }
    }

    /// Asks the task for one message and hands what came to the reader.
    private func receive() {
        Task { [task] in
            let outcomes: [WebSocketTaskStateMachine.Outcome]
            do {
                outcomes = [.bytes(WebSocketTaskMapping.serverFrame(for: try await task.receive()))]
            } catch {
                outcomes = self.ending(error)
            }
            self.arrive { $0.received(outcomes) }
        }
    }

    /// How a failed receive ends the stream: after the server's close frame, after this side's release, or with the
    /// error.
    private func ending(_ error: any Error) -> [WebSocketTaskStateMachine.Outcome] {
        if task.closeCode != .invalid {
            return [
                .bytes(WebSocketTaskMapping.serverCloseFrame(code: task.closeCode, reason: task.closeReason)), .end,
            ]
        }
        if inner.withLock({ $0.released || $0.closeSent }) { return [.end] }
        return [
            .failure(
                WebSocketTaskMapping.failure(
                    error, url: url, beforeOpening: false, foundationNetworking: Self.isFoundationNetworking))
        ]
    }

    /// Runs `event` on the state machine and resumes the waiting reader if it says so, the reader taken under the
    /// same lock as the decision.
    private func arrive(_ event: (inout WebSocketTaskStateMachine) -> WebSocketTaskStateMachine.ArrivalAction) {
        let resumption = inner.withLock {
            inner -> (CheckedContinuation<WebSocketTaskStateMachine.Outcome, Never>, WebSocketTaskStateMachine.Outcome)?
            in
            guard case .resume(let outcome) = event(&inner.machine), let reader = inner.reader else { return nil }
            inner.reader = nil
            return (reader, outcome)
        }
        if let (reader, outcome) = resumption { reader.resume(returning: outcome) }
    }

    private static var isFoundationNetworking: Bool {
        #if canImport(FoundationNetworking)
        return true
        #else
        return false
        #endif
    }
}
