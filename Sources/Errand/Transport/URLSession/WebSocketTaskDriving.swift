import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The calls of URLSession's WebSocket task that a ``WebSocketTaskConnection`` makes: a seam so that the connection's
/// logic runs in tests against a scripted task, on Linux too, where FoundationNetworking's task cannot open.
protocol WebSocketTaskDriving: Sendable {
    func resume()
    func send(_ message: URLSessionWebSocketTask.Message) async throws
    func receive() async throws -> URLSessionWebSocketTask.Message
    /// Sends a ping; `pongReceived` is called with `nil` when its pong arrives, or with the error that ended the wait.
    func sendPing(pongReceived: @escaping @Sendable ((any Error)?) -> Void)
    func cancel(with closeCode: URLSessionWebSocketTask.CloseCode, reason: Data?)
    func cancel()
    /// The code of the server's close frame; `.invalid` before one arrived.
    var closeCode: URLSessionWebSocketTask.CloseCode { get }
    var closeReason: Data? { get }
}

extension URLSessionWebSocketTask: WebSocketTaskDriving {
    func sendPing(pongReceived: @escaping @Sendable ((any Error)?) -> Void) {
        sendPing(pongReceiveHandler: pongReceived)
    }
}
