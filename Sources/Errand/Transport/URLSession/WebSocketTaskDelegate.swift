import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The delegate of a WebSocket task's own session: it tells the task's ``WebSocketTaskConnection`` when the task
/// opened, when the server's close frame came and when the task ended, and answers redirects and challenges as
/// ``SessionDelegate`` does for every other exchange.
final class WebSocketTaskDelegate: NSObject, URLSessionWebSocketDelegate, Sendable {
    private struct Reference {
        weak var connection: WebSocketTaskConnection?
    }

    private let reference = Mutex(Reference())
    /// What the transport was configured with that challenges need.
    private let policy: ChallengePolicy

    init(policy: ChallengePolicy) {
        self.policy = policy
    }

    func attach(_ connection: WebSocketTaskConnection) {
        reference.withLock { $0.connection = connection }
    }

    private var connection: WebSocketTaskConnection? { reference.withLock { $0.connection } }

    func urlSession(
        _ session: URLSession, webSocketTask: URLSessionWebSocketTask, didOpenWithProtocol protocol: String?
    ) {
        connection?.opened(subprotocol: `protocol`, response: webSocketTask.response)
    }

    func urlSession(
        _ session: URLSession, webSocketTask: URLSessionWebSocketTask,
        didCloseWith closeCode: URLSessionWebSocketTask.CloseCode, reason: Data?
    ) {
        connection?.peerClosed(code: closeCode, reason: reason)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        connection?.completed(error: error, response: task.response)
    }

    // A 3xx to the handshake is its answer: the redirect policy above the transports decides on it.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        connection?.completed(error: nil, response: response)
        completionHandler(nil)
    }

    // As in ``SessionDelegate``, there is deliberately no session-level challenge method, so that Apple's URLSession
    // brings server-trust and client-certificate challenges here, with the task, and the transport's trust, client
    // certificate and proxy credentials apply to the WebSocket as to every exchange. A 401 or 407 to the handshake is
    // its answer too, for the caller's middleware (a token refresh) to act on.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        let connection = connection
        SessionDelegate.answer(
            challenge, task: task, policy: policy, report: { connection?.completed(error: nil, response: $0) },
            fail: { connection?.failed($0) }, completionHandler: completionHandler)
    }
}
