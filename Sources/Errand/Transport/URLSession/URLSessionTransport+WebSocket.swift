import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSessionTransport: WebSocketConnecting {
    /// A WebSocket task in a session of its own (this transport's configuration, a delegate that sees only this
    /// task), so that its events need no routing and the session goes with the connection.
    ///
    /// On Linux, FoundationNetworking's task opens only over a libcurl built with WebSocket support; without it (as
    /// with Debian 12's 7.88.1) the task fails at once, which is reported as ``ErrandError/invalidRequest(_:)``.
    func connect(for request: TransportRequest) async throws(ErrandError) -> any WebSocketByteStream {
        try Self.checkNotCancelled()
        try policy.checkEnforceable(for: request.url)
        let delegate = WebSocketTaskDelegate(policy: policy)
        let session = URLSession(configuration: session.configuration, delegate: delegate, delegateQueue: nil)
        let task = session.webSocketTask(with: WebSocketTaskMapping.urlRequest(request))
        task.maximumMessageSize = request.options[WebSocketMessageLimitKey.self]
        let connection = WebSocketTaskConnection(
            task: task, url: request.url, key: request.headers["Sec-WebSocket-Key"],
            finish: { session.finishTasksAndInvalidate() })
        delegate.attach(connection)
        do {
            try await connection.open()
        } catch {
            connection.close()
            throw error
        }
        return connection
    }

    private static func checkNotCancelled() throws(ErrandError) {
        if Task.isCancelled { throw .cancelled }
    }
}
