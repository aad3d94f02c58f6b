import Foundation

extension WebSocket {
    /// The messages of a ``WebSocket`` as they arrive; see ``WebSocket/messages``.
    public struct Messages: AsyncSequence, Sendable {
        /// The element type.
        public typealias Element = WebSocketMessage
        /// The failure type.
        public typealias Failure = ErrandError

        let socket: WebSocket

        /// Starts reading; an iterator dropped before the connection closed closes it with 1001.
        public func makeAsyncIterator() -> Iterator { Iterator(lease: Lease(socket)) }

        /// Reads one message at a time.
        public struct Iterator: AsyncIteratorProtocol {
            let lease: Lease

            /// The next message, `nil` after the close handshake.
            public mutating func next() async throws(ErrandError) -> WebSocketMessage? {
                try await lease.next()
            }

            /// The next message, `nil` after the close handshake.
            public mutating func next(isolation actor: isolated (any Actor)?) async throws(ErrandError)
                -> WebSocketMessage?
            {
                try await lease.next()
            }
        }
    }

    /// A reader's hold on the connection: when its iterator goes, so does the connection, unless it closed already.
    final class Lease: Sendable {
        let socket: WebSocket

        init(_ socket: WebSocket) { self.socket = socket }

        func next() async throws(ErrandError) -> WebSocketMessage? {
            await socket.readerStarted()
            return try await socket.nextMessage()
        }

        deinit {
            let socket = socket
            Task { await socket.readerLeft() }
        }
    }
}
