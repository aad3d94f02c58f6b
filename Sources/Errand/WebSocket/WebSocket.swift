import Foundation
import Synchronization

/// An open WebSocket connection, from ``APIClient/webSocket(_:options:)``.
///
/// Read with ``messages`` (one reader at a time); write with ``send(_:)`` from any task. Pings from the server are
/// answered as the messages are read. Nothing is read from the connection while no one reads ``messages``, so a slow
/// reader slows the server down instead of filling memory.
///
/// Leaving the `for` loop over ``messages``, or cancelling the task that runs it, closes the connection with 1001
/// (going away). ``close(code:reason:)`` closes it with the code given and waits for the server's close frame.
///
/// Nothing waits on the server without a bound: once a close frame is due (``close(code:reason:)``, a reader that
/// left or was cancelled, a protocol violation, an unanswered keep-alive ping, the server's own close),
/// ``WebSocketOptions/closeTimeout`` runs from that moment and then drops the connection, failing any write the
/// server is not taking; and a task cancelled while it waits for a write (a ``send(_:)``, the pong a reader owes)
/// drops the connection at once, since a frame written in part cannot be taken back.
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
    /// Drops the connection ``WebSocketOptions/closeTimeout`` after the first close frame was due.
    private var closeTimer: Task<Void, Never>?
    /// How the connection ended when it did not end with a close handshake.
    private var failure: ErrandError?
    /// permessage-deflate's two sides, when the server agreed to it.
    private let inflater: WebSocketInflater?
    private let deflater: WebSocketDeflater?
    /// The last write handed to the stream: each write waits for the one before, so frames reach the wire in the
    /// order they were made (which compression with context takeover depends on), however the tasks interleave.
    private var lastWrite: Task<Result<Void, ErrandError>, Never>?
    /// Frames queued and not yet written (or failed): what tests wait on to know a write is under way.
    private(set) var unfinishedWrites = 0

    /// Returns `nil` when zlib cannot make the streams `deflate` needs.
    init?(
        stream: any WebSocketByteStream, received: Data, subprotocol: String?, headers: HTTPHeaders,
        options: WebSocketOptions, clock: any Clock<Duration>, deflate: PerMessageDeflate.Agreement? = nil
    ) {
        if let deflate {
            guard
                let inflater = WebSocketInflater(
                    limit: options.maxMessageSize, resetsBetweenMessages: deflate.serverNoContextTakeover)
            else { return nil }
            self.inflater = inflater
            // A window of 8 bits is zlib's to refuse: the client's messages then go uncompressed (RFC 7692 §6).
            if deflate.clientMaxWindowBits < 9 {
                deflater = nil
            } else {
                guard
                    let deflater = WebSocketDeflater(
                        windowBits: deflate.clientMaxWindowBits, resetsBetweenMessages: deflate.clientNoContextTakeover)
                else { return nil }
                self.deflater = deflater
            }
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

    /// Whether the server agreed to permessage-deflate: its messages may then arrive compressed, and the client's
    /// are compressed too, unless the server asked for a 256-byte window (`client_max_window_bits=8`), which zlib
    /// cannot compress with: they are then sent uncompressed, as RFC 7692 allows for any message.
    public var isCompressed: Bool { inflater != nil }

    /// Sends a message (compressed, when the server agreed to permessage-deflate); returns once its frame is
    /// written.
    ///
    /// Throws ``TransportFailure/Kind/connectionLost`` once the connection is closing or closed, and
    /// ``ErrandError/cancelled`` when the task is cancelled: before the frame was queued nothing else happens;
    /// while it waits to be written the connection is dropped, since the frame may be written in part.
    public func send(_ message: WebSocketMessage) async throws(ErrandError) {
        if Task.isCancelled { throw .cancelled }
        guard machine.isOpen, !released else { throw Self.lost("the WebSocket connection is closing or closed") }
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
    /// Cancellation and the connection's end work as for ``send(_:)``.
    public func ping(_ payload: Data = Data()) async throws(ErrandError) {
        guard payload.count <= WebSocketFrame.maxControlPayload else {
            throw .invalidRequest("a ping carries at most 125 bytes, not \(payload.count).")
        }
        if Task.isCancelled { throw .cancelled }
        guard machine.isOpen, !released else { throw Self.lost("the WebSocket connection is closing or closed") }
        try await write(WebSocketFrame(opcode: .ping, payload: payload))
    }

    /// Closes the connection: sends a close frame with `code` and `reason` (cut to fit 123 bytes) and, unless a
    /// reader is reading ``messages`` (which then ends at the server's answer), reads until the server's close frame
    /// arrives. Within ``WebSocketOptions/closeTimeout`` of the call, or at once when the task is cancelled, the
    /// connection is dropped instead, however far the close frame got (a server that reads nothing leaves it queued
    /// behind earlier frames). Closing a closed connection does nothing.
    public func close(code: WebSocketCloseCode = .normalClosure, reason: String = "") async {
        await perform(machine.closeRequested(code, reason: reason))
        guard !isReading, !released else { return }
        isReading = true
        defer { isReading = false }
        while !machine.isClosed, !released {
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
                    if Task.isCancelled { break }
                }
                // The start of a frame still arriving: text is checked as it comes, so bytes that are not UTF-8
                // fail the connection at once, not when (or if) the rest of the frame arrives. A compressed
                // message is checked once inflated, frame by frame.
                if !Task.isCancelled, inflater?.isInsideCompressedMessage != true,
                    let partial = parser.takeUncheckedPayload(), !partial.isCompressed
                {
                    try assembler.inspect(partial.opcode, partial.bytes)
                }
            } catch {
                await perform(machine.violated(error))
                failure = .transport(
                    TransportFailure(
                        kind: .badResponse, url: nil,
                        underlying:
                            "the server broke the WebSocket protocol: \(error.reason) (closed with \(error.code))"))
            }
            if Task.isCancelled {
                readerCancelled()
                throw .cancelled
            }
            if machine.isClosed || released {
                if machine.peerClose != nil { return nil }
                throw failure ?? Self.lost("the connection ended without a close frame")
            }
            let bytes: Data
            do {
                bytes = try await stream.read()
            } catch .cancelled {
                readerCancelled()
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
        await closeGoingAway()
    }

    /// The reading task was cancelled: it returns now, and the 1001 close goes on in a task of its own, which the
    /// cancellation does not reach and the close timeout bounds.
    private func readerCancelled() {
        isReading = false
        guard !machine.isClosed, !released else {
            release()
            return
        }
        Task { await self.closeGoingAway() }
    }

    /// Sends 1001 and lets go, unless a close is under way already (its close timeout then bounds it).
    private func closeGoingAway() async {
        let action = machine.closeRequested(.goingAway, reason: "")
        guard action != .none else { return }
        await perform(action)
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
            startCloseTimer()
            try? await write(
                WebSocketFrame(opcode: .close, payload: WebSocketFrameEncoder.closePayload(code, reason: reason)))
        case .sendCloseAndRelease(let code, let reason):
            startCloseTimer()
            try? await write(
                WebSocketFrame(opcode: .close, payload: WebSocketFrameEncoder.closePayload(code, reason: reason)))
            release()
        case .release:
            release()
        }
    }

    /// Queues `frame` behind the writes before it and waits until it is written. The wait ends early only by
    /// dropping the connection: when the task is cancelled (here, at once) or the close timeout passes (in
    /// ``closeTimedOut()``); either fails the write the server is not taking and every one queued behind it.
    private func write(_ frame: WebSocketFrame) async throws(ErrandError) {
        let write = try enqueue(frame)
        let stream = stream
        let dropped = Mutex(false)
        let result = await withTaskCancellationHandler {
            await write.value
        } onCancel: {
            dropped.withLock { $0 = true }
            stream.close()
        }
        if dropped.withLock({ $0 }) {
            failure = failure ?? Self.lost("a write was cancelled before its frame was written whole")
            _ = machine.connectionEnded("a write was cancelled")
            release()
            throw .cancelled
        }
        try result.get()
    }

    /// Hands `frame` to the stream after the frames queued before it, in the order of the calls (which compression
    /// with context takeover depends on), however the tasks interleave.
    private func enqueue(_ frame: WebSocketFrame) throws(ErrandError) -> Task<Result<Void, ErrandError>, Never> {
        guard !released else { throw Self.lost("the WebSocket connection is closed") }
        let bytes = WebSocketFrameEncoder.encode(frame)
        let previous = lastWrite
        let stream = stream
        unfinishedWrites += 1
        let write = Task { () async -> Result<Void, ErrandError> in
            defer { self.writeFinished() }
            if case .failure(let error)? = await previous?.value { return .failure(error) }
            do throws(ErrandError) {
                try await stream.write(bytes)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        lastWrite = write
        return write
    }

    private func writeFinished() { unfinishedWrites -= 1 }

    /// Starts the one close timeout, when the first close frame is due; later ones do not restart it.
    private func startCloseTimer() {
        guard closeTimer == nil, !released else { return }
        let timeout = options.closeTimeout
        let clock = clock
        closeTimer = Task { [weak self] in
            guard (try? await clock.sleep(for: timeout)) != nil else { return }
            await self?.closeTimedOut()
        }
    }

    private func closeTimedOut() {
        guard !released else { return }
        if machine.peerClose == nil, failure == nil {
            failure = Self.lost("the close handshake did not finish within \(options.closeTimeout)")
        }
        _ = machine.connectionEnded("the close handshake timed out")
        release()
    }

    private func release() {
        guard !released else { return }
        released = true
        keepAlive?.cancel()
        closeTimer?.cancel()
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
        guard !released, machine.isOpen else { return nil }
        pingsSent += 1
        unansweredPing = pingsSent
        let payload = withUnsafeBytes(of: pingsSent.bigEndian) { Data($0) }
        // Not waited for: a ping stuck behind frames the server does not take is as unanswered as a lost one, and
        // the pong timeout that follows counts from now.
        _ = try? enqueue(WebSocketFrame(opcode: .ping, payload: payload))
        return pingsSent
    }

    private func checkPong(_ ping: UInt64) async {
        guard unansweredPing == ping else { return }
        failure = Self.lost("no pong to a keep-alive ping within \(options.pongTimeout)")
        await perform(machine.pongTimedOut())
    }
}
