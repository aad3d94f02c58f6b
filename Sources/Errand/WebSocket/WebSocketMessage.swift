import Foundation

/// A whole WebSocket data message, however many frames carried it.
public enum WebSocketMessage: Sendable, Hashable {
    /// A text message (valid UTF-8, checked as it arrives).
    case text(String)
    /// A binary message.
    case binary(Data)
}
