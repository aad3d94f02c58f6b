/// permessage-deflate (RFC 7692) as the client offers it in the opening handshake: each message compressed with
/// DEFLATE, when the server agrees (most do; one that declines gets uncompressed messages as without the offer).
///
/// Context takeover (the default both ways) lets each message refer to the ones before it, which compresses a stream of
/// similar messages best; turning it off makes every message stand alone. Either way a connection that compresses holds
/// zlib's state (about 260 KB for a 15-bit window) while it is open. Incoming messages are inflated in bounded steps
/// and fail with 1009 (message too big) as soon as one would inflate past ``WebSocketOptions/maxMessageSize``.
public struct WebSocketCompression: Sendable, Hashable {
    /// Asks the server to compress every message on its own (`server_no_context_takeover`).
    public var serverNoContextTakeover: Bool
    /// Compresses every message the client sends on its own (`client_no_context_takeover`); a server may also ask
    /// for this, whatever is set here.
    public var clientNoContextTakeover: Bool
    /// Asks the server for a window of at most 2^bits bytes, 8 to 15 (`server_max_window_bits`); `nil` asks for none.
    public var serverMaxWindowBits: Int?
    /// Offers to compress with a window of at most 2^bits bytes, 9 to 15 (`client_max_window_bits=bits`); `nil`
    /// (the default) offers `client_max_window_bits` with no value, which leaves the window to the server. Either
    /// way a server may bound the window further, down to 8 bits; the client compresses with the window agreed (15
    /// when the server names none), and with 8 sends its messages uncompressed, since zlib has no 256-byte window.
    public var clientMaxWindowBits: Int?

    /// Creates an offer; by default context takeover both ways, the largest windows, and the server free to bound
    /// the client's window, as browsers offer.
    ///
    /// Window bits outside their ranges are brought into them.
    public init(
        serverNoContextTakeover: Bool = false, clientNoContextTakeover: Bool = false, serverMaxWindowBits: Int? = nil,
        clientMaxWindowBits: Int? = nil
    ) {
        self.serverNoContextTakeover = serverNoContextTakeover
        self.clientNoContextTakeover = clientNoContextTakeover
        self.serverMaxWindowBits = serverMaxWindowBits.map { min(max($0, 8), 15) }
        self.clientMaxWindowBits = clientMaxWindowBits.map { min(max($0, 9), 15) }
    }
}
