import Foundation

/// A connection that carries raw bytes both ways once a transport has opened it: what a WebSocket frames over.
protocol WebSocketByteStream: Sendable {
    /// Writes all of `bytes`; returns when the connection has taken them.
    func write(_ bytes: Data) async throws(ErrandError)
    /// The next bytes the peer sent; empty at the end of the stream. Nothing is read from the socket while no one
    /// calls this (beyond a small buffer): a slow reader slows the peer, through TCP, instead of filling memory.
    func read() async throws(ErrandError) -> Data
    /// Closes the connection at once: writes not yet taken whole fail, pending reads end. Safe from any thread
    /// (a cancellation handler calls it), and closing twice does nothing.
    func close()
}

/// A transport that can open a connection for a WebSocket's opening handshake and the frames after it.
protocol WebSocketConnecting: Sendable {
    /// Opens a connection to the request's host and port (TLS for https), sending nothing yet.
    func connect(for request: TransportRequest) async throws(ErrandError) -> any WebSocketByteStream
}
