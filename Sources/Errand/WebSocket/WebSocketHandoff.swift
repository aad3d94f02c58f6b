import Foundation
import Synchronization

/// Carries the upgraded connection from the end of the middleware chain back to ``APIClient/webSocket(_:options:)``:
/// middleware sees the 101 as a response like any other, while the connection itself travels beside it.
final class WebSocketHandoff: Sendable {
    struct Opened: Sendable {
        var stream: any WebSocketByteStream
        /// Bytes that came after the 101's head: the first frames, if the server was quick.
        var remainder: Data
    }

    private let opened = Mutex<Opened?>(nil)

    /// Keeps the connection of the latest hop; one a retry or redirect replaced is closed.
    func put(_ connection: Opened) {
        opened.withLock { opened in
            opened?.stream.close()
            opened = connection
        }
    }

    /// The connection, once.
    func take() -> Opened? {
        opened.withLock { opened in
            defer { opened = nil }
            return opened
        }
    }
}

/// The request option that holds a handshake's ``WebSocketHandoff``.
enum WebSocketHandoffKey: RequestOptionKey {
    static let defaultValue: WebSocketHandoff? = nil
}
