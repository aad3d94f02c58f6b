import Foundation

/// An open WebSocket connection, from ``APIClient/webSocket(_:options:)``.
///
/// Read with ``messages`` (one reader at a time); write with ``send(_:)`` from any task. Pings from the server are
/// answered as the messages are read. Nothing is read from the connection while no one reads ``messages``, so a slow
/// reader slows the server down instead of filling memory.
///
/// Leaving the `for` loop over ``messages``, or cancelling the task that runs it, closes the connection with 1001
/// (going away). ``close(code:reason:)`` closes it with the code given and waits for the server's close frame.
public actor WebSocket {
    /// The subprotocol the server chose among those offered, if any.
    public nonisolated let subprotocol: String?
    /// The headers of the server's 101 answer.
    public nonisolated let handshakeHeaders: HTTPHeaders

    private let stream: any WebSocketByteStream
    private let options: WebSocketOptions
    private let clock: any Clock<Duration>
    private var parser: WebSocketFrameParser
    private var assembler: WebSocketMessageAssembler
    private(set) var machine = WebSocketStateMachine()
    private var released = false
    private var isReading = false
    private var pingsSent: UInt64 = 0
    private var unansweredPing: UInt64?
    private var keepAlive: Task<Void, Never>?
    /// How the connection ended when it did not end with a close handshake.
    private var failure: ErrandError?
    /// permessage-deflate's two sides, when the server agreed to it.
    private let inflater: WebSocketInflater?
    private let deflater: WebSocketDeflater?
    /// The last write handed to the stream: each write waits for the one before, so frames reach the wire in the
    /// order they were made (which compression with context takeover depends on), however the tasks interleave.
    private var lastWrite: Task<Result<Void, ErrandError>, Never>?

    /// Returns `nil` when zlib cannot make the streams `deflate` needs.
    init?(
        stream: any WebSocketByteStream, received: Data, subprotocol: String?, headers: HTTPHeaders,
        options: WebSocketOptions, clock: any Clock<Duration>, deflate: PerMessageDeflate.Agreement? = nil
    ) {
        if let deflate {
            guard
                let inflater = WebSocketInflater(
                    limit: options.maxMessageSize, resetsBetweenMessages: deflate.serverNoContextTakeover),
                let deflater = WebSocketDeflater(
                    windowBits: deflate.clientMaxWindowBits, resetsBetweenMessages: deflate.clientNoContextTakeover)
            else { return nil }
            self.inflater = inflater
            self.deflater = deflater
        } else {
            inflater = nil
            deflater = nil
        }
        self.stream = stream
        self.subprotocol = subprotocol
        self.handshakeHeaders = headers
        self.options = options
        self.clock = clock
        parser = WebSocketFrameParser(maxPayload: options.maxMessageSize, allowsCompression: deflate != nil)
        assembler = WebSocketMessageAssembler(maxMessageSize: options.maxMessageSize)
        parser.append(received)
        if options.pingInterval != nil {
            Task { await self.startKeepAlive() }
        }
    }

    deinit {
        keepAlive?.cancel()
        stream.close()
    }

    /// The close code the server sent (``WebSocketCloseCode/noStatusReceived`` for a close frame without one), once
    /// its close frame has arrived; `nil` before, or when the connection ended without one.
    public var closeCode: WebSocketCloseCode? {
        machine.peerClose.map { $0.code ?? .noStatusReceived }
    }

    /// The reason the server gave in its close frame, once it has arrived.
    public var closeReason: String? { machine.peerClose?.reason }

    /// The incoming messages. The sequence ends after the server's close frame (see ``closeCode``); it throws when
    /// the connection fails: ``ErrandError/transport(_:)`` with ``TransportFailure/Kind/badResponse`` when the server
    /// broke the protocol (the connection is closed with 1002, 1007 or 1009), ``TransportFailure/Kind/connectionLost``
    /// when it ended without a close frame or a keep-alive ping went unanswered, ``ErrandError/cancelled`` when the
    /// reading task was cancelled.
    public nonisolated var messages: Messages { Messages(socket: self) }

    /// Whether the server agreed to permessage-deflate: messages are then compressed both ways.
    public var isCompressed: Bool { deflater != nil }

    /// Sends a message (compressed, when the server agreed to permessage-deflate).
    public func send(_ message: WebSocketMessage) async throws(ErrandError) {
        let frame: WebSocketFrame
        switch message {
        case .text(let text): frame = try dataFrame(.text, Data(text.utf8))
        case .binary(let data): frame = try dataFrame(.binary, data)
        }
        try await write(frame)
    }

    private func dataFrame(_ opcode: WebSocketFrame.Opcode, _ payload: Data) throws(ErrandError) -> WebSocketFrame {
        guard let deflater else { return WebSocketFrame(opcode: opcode, payload: payload) }
        guard !released else { throw Self.lost("the WebSocket connection is closed") }
        guard let compressed = deflater.compress(payload) else {
            throw .transport(TransportFailure(kind: .other, url: nil, underlying: "zlib could not compress a message"))
        }
        return WebSocketFrame(opcode: opcode, payload: compressed, isCompressed: true)
    }

    /// Sends a ping; the server's pong is taken as the messages are read. At most 125 bytes of `payload`.
    public func ping(_ payload: Data = Data()) async throws(ErrandError) {
        guard payload.count <= WebSocketFrame.maxControlPayload else {
            throw .invalidRequest("a ping carries at most 125 bytes, not \(payload.count).")
        }
        try await write(WebSocketFrame(opcode: .ping, payload: payload))
    }

    /// Closes the connection: sends a close frame with `code` and `reason` (cut to fit 123 bytes) and, unless a
    /// reader is reading ``messages`` (which then ends at the server's answer), reads until the server's close frame
    /// arrives or ``WebSocketOptions/closeTimeout`` passes. Closing a closed connection does nothing.
    public func close(code: WebSocketCloseCode = .normalClosure, reason: String = "") async {
        await perform(machine.closeRequested(code, reason: reason))
        guard !isReading, !released else { return }
        let timeout = options.closeTimeout
        let clock = clock
        let timer = Task { [weak self] in
            guard (try? await clock.sleep(for: timeout)) != nil else { return }
            await self?.release()
        }
        defer { timer.cancel() }
        isReading = true
        defer { isReading = false }
        while !machine.isClosed {
            guard (try? await nextMessage()) != nil else { break }
        }
        release()
    }

    // MARK: Reading

    /// The next message, or `nil` after the close handshake.
    func nextMessage() async throws(ErrandError) -> WebSocketMessage? {
        while true {
            do {
                while let frame = try parser.nextFrame() {
                    let action = machine.received(try assembler.take(try inflater?.take(frame) ?? frame))
                    if case .deliver(let message) = action { return message }
                    await perform(action)
                }
            } catch {
                await perform(machine.violated(error))
                failure = .transport(
                    TransportFailure(
                        kind: .badResponse, url: nil,
                        underlying:
                            "the server broke the WebSocket protocol: \(error.reason) (closed with \(error.code))"))
            }
            if machine.isClosed || released {
                if machine.peerClose != nil { return nil }
                throw failure ?? Self.lost("the connection ended without a close frame")
            }
            let bytes: Data
            do {
                bytes = try await stream.read()
            } catch .cancelled {
                await perform(machine.closeRequested(.goingAway, reason: ""))
                release()
                throw .cancelled
            } catch {
                failure = error
                await perform(machine.connectionEnded("the connection failed"))
                continue
            }
            if bytes.isEmpty {
                await perform(machine.connectionEnded("the connection ended without a close frame"))
            } else {
                parser.append(bytes)
            }
        }
    }

    func readerStarted() { isReading = true }

    /// The reader left its loop (or dropped its iterator) before the connection closed: 1001.
    func readerLeft() async {
        isReading = false
        guard !machine.isClosed else { return }
        await perform(machine.closeRequested(.goingAway, reason: ""))
        release()
    }

    // MARK: Acting

    private func perform(_ action: WebSocketStateMachine.Action) async {
        switch action {
        case .none, .deliver:
            break
        case .sendPong(let payload):
            try? await write(WebSocketFrame(opcode: .pong, payload: payload))
        case .notePong:
            unansweredPing = nil
        case .sendClose(let code, let reason):
            try? await write(
                WebSocketFrame(opcode: .close, payload: WebSocketFrameEncoder.closePayload(code, reason: reason)))
        case .sendCloseAndRelease(let code, let reason):
            try? await write(
                WebSocketFrame(opcode: .close, payload: WebSocketFrameEncoder.closePayload(code, reason: reason)))
            release()
        case .release:
            release()
        }
    }

    private func write(_ frame: WebSocketFrame) async throws(ErrandError) {
        guard !released else { throw Self.lost("the WebSocket connection is closed") }
        let bytes = WebSocketFrameEncoder.encode(frame)
        let previous = lastWrite
        let stream = stream
        let write = Task { () async -> Result<Void, ErrandError> in
            _ = await previous?.value
            do throws(ErrandError) {
                try await stream.write(bytes)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        lastWrite = write
        try await write.value.get()
    }

    private func release() {
        guard !released else { return }
        released = true
        keepAlive?.cancel()
        stream.close()
    }

    private static func lost(_ reason: String) -> ErrandError {
        .transport(TransportFailure(kind: .connectionLost, url: nil, underlying: reason))
    }

    // MARK: Keep-alive

    private func startKeepAlive() {
        guard let interval = options.pingInterval, keepAlive == nil, !released else { return }
        let timeout = options.pongTimeout
        let clock = clock
        keepAlive = Task { [weak self] in
            while !Task.isCancelled {
                guard (try? await clock.sleep(for: interval)) != nil, let ping = await self?.sendKeepAlivePing() else {
                    return
                }
                guard (try? await clock.sleep(for: timeout)) != nil else { return }
                await self?.checkPong(ping)
            }
        }
    }

    private func sendKeepAlivePing() async -> UInt64? {
        guard !released, !machine.isClosed else { return nil }
        pingsSent += 1
        unansweredPing = pingsSent
        let payload = withUnsafeBytes(of: pingsSent.bigEndian) { Data($0) }
        try? await write(WebSocketFrame(opcode: .ping, payload: payload))
        return pingsSent
    }

    private func checkPong(_ ping: UInt64) async {
        guard unansweredPing == ping else { return }
        failure = Self.lost("no pong to a keep-alive ping within \(options.pongTimeout)")
        await perform(machine.pongTimedOut())
    }
}
