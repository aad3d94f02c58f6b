import Foundation
import Synchronization

@testable import Errand

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A WebSocket task that plays an echo server: what is sent comes back, a ping is answered, a close is answered
/// with the same code; the test can make the server close first. Every call is recorded.
final class ScriptedWebSocketTask: WebSocketTaskDriving {
    struct Script {
        var incoming: [Result<URLSessionWebSocketTask.Message, any Error>] = []
        var receiver: CheckedContinuation<Result<URLSessionWebSocketTask.Message, any Error>, Never>?
        var sent: [URLSessionWebSocketTask.Message] = []
        var pings = 0
        var cancels: [(URLSessionWebSocketTask.CloseCode, Data?)] = []
        var closeCode = URLSessionWebSocketTask.CloseCode.invalid
        var closeReason: Data?
        var onResume: (@Sendable () -> Void)?
    }

    let script = Mutex(Script())

    func resume() { script.withLock { $0.onResume }?() }

    func send(_ message: URLSessionWebSocketTask.Message) async throws {
        script.withLock { $0.sent.append(message) }
        deliver(.success(message))
    }

    func receive() async throws -> URLSessionWebSocketTask.Message {
        let result = await withCheckedContinuation { continuation in
            let ready: Result<URLSessionWebSocketTask.Message, any Error>? = script.withLock { script in
                guard script.incoming.isEmpty else { return script.incoming.removeFirst() }
                script.receiver = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
        return try result.get()
    }

    func sendPing(pongReceived: @escaping @Sendable ((any Error)?) -> Void) {
        script.withLock { $0.pings += 1 }
        pongReceived(nil)
    }

    func cancel(with closeCode: URLSessionWebSocketTask.CloseCode, reason: Data?) {
        script.withLock { script in
            script.cancels.append((closeCode, reason))
            if script.closeCode == .invalid {
                script.closeCode = closeCode
                script.closeReason = reason
            }
        }
        deliver(.failure(URLError(.networkConnectionLost)))
    }

    func cancel() { cancel(with: .invalid, reason: nil) }

    /// The server sends its close frame first.
    func serverCloses(_ code: URLSessionWebSocketTask.CloseCode, reason: String) {
        script.withLock { script in
            script.closeCode = code
            script.closeReason = Data(reason.utf8)
        }
        deliver(.failure(URLError(.networkConnectionLost)))
    }

    var closeCode: URLSessionWebSocketTask.CloseCode { script.withLock { $0.closeCode } }
    var closeReason: Data? { script.withLock { $0.closeReason } }

    private func deliver(_ result: Result<URLSessionWebSocketTask.Message, any Error>) {
        let receiver = script.withLock { script in
            guard let receiver = script.receiver else {
                script.incoming.append(result)
                return nil as CheckedContinuation<Result<URLSessionWebSocketTask.Message, any Error>, Never>?
            }
            script.receiver = nil
            return receiver
        }
        receiver?.resume(returning: result)
    }
}

/// A transport whose WebSocket connections are ``WebSocketTaskConnection``s over one scripted task that answers the
/// handshake with `status` (and `subprotocol` for a 101).
final class ScriptedWebSocketTransport: Transport, WebSocketConnecting {
    let task = ScriptedWebSocketTask()
    let status: Int
    let subprotocol: String?
    private let requests = Mutex<[TransportRequest]>([])

    init(status: Int = 101, subprotocol: String? = nil) {
        self.status = status
        self.subprotocol = subprotocol
    }

    var handshakes: [TransportRequest] { requests.withLock { $0 } }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        throw ErrandError.invalidRequest("only WebSocket connections here")
    }

    func connect(for request: TransportRequest) async throws(ErrandError) -> any WebSocketByteStream {
        requests.withLock { $0.append(request) }
        let connection = WebSocketTaskConnection(
            task: task, url: request.url, key: request.headers["Sec-WebSocket-Key"])
        let status = status
        let subprotocol = subprotocol
        let url = request.url
        task.script.withLock { script in
            script.onResume = { [weak connection] in
                if status == 101 {
                    connection?.opened(subprotocol: subprotocol, response: nil)
                } else {
                    let response = HTTPURLResponse(
                        url: url, statusCode: status, httpVersion: "HTTP/1.1",
                        headerFields: ["WWW-Authenticate": "Bearer"])
                    connection?.completed(error: URLError(.userAuthenticationRequired), response: response)
                }
            }
        }
        try await connection.open()
        return connection
    }
}
