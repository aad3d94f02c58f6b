/// The largest WebSocket message the connection accepts (``WebSocketOptions/maxMessageSize``), for a transport whose
/// own framing must know it: URLSession's task holds a whole message before handing it over.
enum WebSocketMessageLimitKey: RequestOptionKey {
    static let defaultValue = 1 << 20
}
