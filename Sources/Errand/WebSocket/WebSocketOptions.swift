import Foundation

/// How a WebSocket connection is opened and kept.
public struct WebSocketOptions: Sendable, Hashable {
    /// The subprotocols to offer (`Sec-WebSocket-Protocol`), most preferred first; the server picks one or none
    /// (``WebSocket/subprotocol``). A server that picks one not offered fails the handshake.
    public var subprotocols: [String]
    /// The largest message accepted, in bytes, whole (not per frame); a larger one fails the connection with 1009.
    /// Default 1 MiB.
    public var maxMessageSize: Int
    /// How often to send a keep-alive ping; `nil` (the default) sends none. Time runs on the client's
    /// ``ClientConfiguration/clock``.
    public var pingInterval: Duration?
    /// How long a keep-alive ping may go unanswered before the connection fails (close 1011). Pongs are read with
    /// the messages, so a reader that stops reading for longer than this loses the connection. Default 20 s.
    public var pongTimeout: Duration
    /// How long a closing connection may take, from the moment its first close frame is due (a call to
    /// ``WebSocket/close(code:reason:)``, a reader that left or was cancelled, a protocol violation, an unanswered
    /// keep-alive ping, the server's own close frame) until the server's close frame arrives; then the connection
    /// is dropped, and any write the server has not taken fails. Time runs on the client's
    /// ``ClientConfiguration/clock``. Default 10 s.
    public var closeTimeout: Duration
    /// The permessage-deflate offer (RFC 7692); `nil` offers none. Default: offered, with context takeover both
    /// ways and the client's window left for the server to bound, as browsers do (text protocols shrink several
    /// times over, and a server that declines costs nothing). Errand's own framing (the curl transport) applies it.
    public var compression: WebSocketCompression?
    /// How long the server may take to answer the upgrade once the connection is open, on the client's
    /// ``ClientConfiguration/clock``; then the handshake fails with ``TransportFailure/Kind/timedOut``. Default 30 s.
    public var handshakeTimeout: Duration

    /// Creates options; every argument has the default described on its property.
    public init(
        subprotocols: [String] = [], maxMessageSize: Int = 1 << 20, pingInterval: Duration? = nil,
        pongTimeout: Duration = .seconds(20), closeTimeout: Duration = .seconds(10),
        compression: WebSocketCompression? = WebSocketCompression(), handshakeTimeout: Duration = .seconds(30)
    ) {
        self.subprotocols = subprotocols
        self.maxMessageSize = max(0, maxMessageSize)
        self.pingInterval = pingInterval
        self.pongTimeout = pongTimeout
        self.closeTimeout = closeTimeout
        self.compression = compression
        self.handshakeTimeout = handshakeTimeout
    }
}
