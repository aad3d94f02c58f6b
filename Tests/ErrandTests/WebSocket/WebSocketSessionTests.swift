import ErrandTesting
import Foundation
import Synchronization
import Testing

@testable import Errand

/// A byte stream in memory: the test feeds what the server sends and reads what the client wrote.
final class MemoryByteStream: WebSocketByteStream {
    private struct State {
        var inbound: [Data] = []
        var reader: CheckedContinuation<Data, Never>?
        var written: [Data] = []
        var closed = false
    }

    private let state = Mutex(State())

    func feed(_ bytes: Data) {
        let reader = state.withLock { state in
            guard let reader = state.reader else {
                state.inbound.append(bytes)
                return nil as CheckedContinuation<Data, Never>?
            }
            state.reader = nil
            return reader
        }
        reader?.resume(returning: bytes)
    }

    func write(_ bytes: Data) async throws(ErrandError) {
        state.withLock { $0.written.append(bytes) }
    }

    func read() async throws(ErrandError) -> Data {
        await withCheckedContinuation { continuation in
            let ready: Data? = state.withLock { state in
                if !state.inbound.isEmpty { return state.inbound.removeFirst() }
                if state.closed { return Data() }
                state.reader = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    func close() {
        let reader = state.withLock { state in
            state.closed = true
            defer { state.reader = nil }
            return state.reader
        }
        reader?.resume(returning: Data())
    }

    var isClosed: Bool { state.withLock { $0.closed } }

    /// The client's frames so far, unmasked: opcode and payload.
    var frames: [(WebSocketFrame.Opcode, Data)] {
        state.withLock { $0.written }.compactMap(Self.unmask)
    }

    private static func unmask(_ data: Data) -> (WebSocketFrame.Opcode, Data)? {
        let bytes = [UInt8](data)
        guard bytes.count >= 6, bytes[1] & 0x80 != 0, let opcode = WebSocketFrame.Opcode(rawValue: bytes[0] & 0x0F)
        else { return nil }
        var offset = 2
        switch bytes[1] & 0x7F {
        case 126: offset = 4
        case 127: offset = 10
        default: break
        }
        let mask = Array(bytes[offset..<(offset + 4)])
        let payload = bytes[(offset + 4)...].enumerated().map { $0.element ^ mask[$0.offset & 3] }
        return (opcode, Data(payload))
    }
}

@Suite("WebSocket session over a byte stream")
struct WebSocketSessionTests {
    private func socket(
        _ stream: MemoryByteStream, received: Data = Data(), options: WebSocketOptions = .init(),
        clock: any Clock<Duration> = ContinuousClock()
    ) -> WebSocket {
        WebSocket(stream: stream, received: received, subprotocol: nil, headers: [:], options: options, clock: clock)!
    }

    @Test("frames that came with the 101 are the first messages")
    func pipelinedFrames() async throws {
        let stream = MemoryByteStream()
        let ws = socket(stream, received: serverFrame(0x1, Array("early".utf8)))
        var messages = ws.messages.makeAsyncIterator()
        #expect(try await messages.next() == .text("early"))
    }

    @Test("a server ping is answered with a pong of the same bytes")
    func answersPing() async throws {
        let stream = MemoryByteStream()
        let ws = socket(stream)
        stream.feed(serverFrame(0x9, [1, 2, 3]) + serverFrame(0x2, [9]))
        var messages = ws.messages.makeAsyncIterator()
        #expect(try await messages.next() == .binary(Data([9])))
        #expect(stream.frames.first?.0 == .pong)
        #expect(stream.frames.first?.1 == Data([1, 2, 3]))
    }

    @Test("close() waits for the server's close frame only for the close timeout, on the client's clock")
    func closeTimeout() async throws {
        let clock = ManualClock()
        let stream = MemoryByteStream()
        let ws = socket(stream, options: .init(closeTimeout: .seconds(4)), clock: clock)
        let closing = Task { await ws.close(code: .normalClosure, reason: "bye") }
        await clock.sleepers(1)
        #expect(!stream.isClosed)
        #expect(stream.frames.first?.0 == .close)
        #expect(stream.frames.first?.1 == WebSocketFrameEncoder.closePayload(.normalClosure, reason: "bye"))
        clock.advance(by: .seconds(4))
        await closing.value
        #expect(stream.isClosed)
        #expect(await ws.closeCode == nil)
    }

    @Test("close() ends at the server's close frame, with its code")
    func closeAnswered() async throws {
        let clock = ManualClock()
        let stream = MemoryByteStream()
        let ws = socket(stream, clock: clock)
        let closing = Task { await ws.close() }
        await clock.sleepers(1)
        stream.feed(serverFrame(0x8, [0x03, 0xE8]))
        await closing.value
        #expect(await ws.closeCode == .normalClosure)
        #expect(stream.isClosed)
    }

    @Test("sending after the connection closed fails")
    func sendAfterClose() async throws {
        let stream = MemoryByteStream()
        let ws = socket(stream)
        stream.feed(serverFrame(0x8, []))
        for try await _ in ws.messages {}
        #expect(await ws.closeCode == .noStatusReceived)
        await #expect(throws: ErrandError.self) { try await ws.send(.text("late")) }
        #expect(stream.frames.map(\.0) == [.close])
    }

    @Test("a ping payload over 125 bytes is refused before it is sent")
    func longPing() async throws {
        let stream = MemoryByteStream()
        let ws = socket(stream)
        await #expect(throws: ErrandError.self) { try await ws.ping(Data(count: 126)) }
        #expect(stream.frames.isEmpty)
    }
}
