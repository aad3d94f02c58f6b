#if canImport(CCurl)
import Foundation

extension CurlTransport: WebSocketConnecting {
    /// A connection of its own per WebSocket, with this transport's TLS trust and pinning; never one of the pool's.
    func connect(for request: TransportRequest) async throws(ErrandError) -> any WebSocketByteStream {
        try await CurlSocketConnection.open(
            request.url, configuration: configuration, connectTimeout: request.timeouts.connect)
    }
}
#endif
