import Foundation
import Testing

@testable import Errand

@Suite("WebSocket permessage-deflate inflater")
struct WebSocketInflaterTests {
    /// RFC 7692 §7.2.3.1: "Hello" compressed, the tail removed.
    static let hello: [UInt8] = [0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00]

    private func inflater(limit: Int = 1 << 20, resets: Bool = false) throws -> WebSocketInflater {
        try #require(WebSocketInflater(limit: limit, resetsBetweenMessages: resets))
    }

    private func message(_ payload: [UInt8], opcode: WebSocketFrame.Opcode = .text) -> WebSocketFrame {
        WebSocketFrame(opcode: opcode, payload: Data(payload), isCompressed: true)
    }

    @Test("RFC 7692 §7.2.3.1: a message compressed in one frame")
    func helloInOneFrame() throws {
        let inflater = try inflater()
        #expect(try inflater.take(message(Self.hello)).payload == Data("Hello".utf8))
        #expect(inflater.state == .ready)
    }

    @Test("RFC 7692 §7.2.3.1: the same message in two fragments, RSV1 on the first only")
    func helloInFragments() throws {
        let inflater = try inflater()
        let first = WebSocketFrame(
            isFinal: false, opcode: .text, payload: Data([0xF2, 0x48, 0xCD]), isCompressed: true)
        let second = WebSocketFrame(opcode: .continuation, payload: Data([0xC9, 0xC9, 0x07, 0x00]))
        let head = try inflater.take(first).payload
        #expect(inflater.state != .ready)
        let rest = try inflater.take(second).payload
        #expect(head + rest == Data("Hello".utf8))
        #expect(inflater.state == .ready)
    }

    @Test("a compressed message fed one byte per fragment inflates to the same text")
    func byteByByte() throws {
        let inflater = try inflater()
        var text = Data()
        for (index, byte) in Self.hello.enumerated() {
            let frame = WebSocketFrame(
                isFinal: false, opcode: index == 0 ? .text : .continuation, payload: Data([byte]),
                isCompressed: index == 0)
            text += try inflater.take(frame).payload
        }
        text += try inflater.take(WebSocketFrame(opcode: .continuation)).payload
        #expect(text == Data("Hello".utf8))
    }

    @Test("RFC 7692 §7.2.3.2: with context takeover the second \"Hello\" refers back to the first")
    func contextTakeover() throws {
        let inflater = try inflater()
        _ = try inflater.take(message(Self.hello))
        #expect(try inflater.take(message([0xF2, 0x00, 0x11, 0x00, 0x00])).payload == Data("Hello".utf8))
    }

    @Test("with server_no_context_takeover a message that refers back to the last one is not valid")
    func noContextTakeover() throws {
        let inflater = try inflater(resets: true)
        #expect(try inflater.take(message(Self.hello)).payload == Data("Hello".utf8))
        #expect(throws: WebSocketProtocolViolation.self) {
            try inflater.take(message([0xF2, 0x00, 0x11, 0x00, 0x00]))
        }
        let fresh = try self.inflater(resets: true)
        _ = try fresh.take(message(Self.hello))
        #expect(try fresh.take(message(Self.hello)).payload == Data("Hello".utf8))
    }

    @Test("RFC 7692 §7.2.3.3: a message in a block with no compression")
    func storedBlock() throws {
        let stored: [UInt8] = [0x00, 0x05, 0x00, 0xFA, 0xFF, 0x48, 0x65, 0x6C, 0x6C, 0x6F, 0x00]
        #expect(try inflater().take(message(stored)).payload == Data("Hello".utf8))
    }

    @Test("RFC 7692 §7.2.3.4: a final block ends the stream; the next message starts a new one")
    func finalBlock() throws {
        let inflater = try inflater()
        let final: [UInt8] = [0xF3, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00, 0x00]
        #expect(try inflater.take(message(final)).payload == Data("Hello".utf8))
        #expect(try inflater.take(message(Self.hello)).payload == Data("Hello".utf8))
    }

    @Test("RFC 7692 §7.2.3.5: two DEFLATE blocks in one message")
    func twoBlocks() throws {
        let blocks: [UInt8] = [0xF2, 0x48, 0x05, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xCA, 0xC9, 0xC9, 0x07, 0x00]
        #expect(try inflater().take(message(blocks)).payload == Data("Hello".utf8))
    }

    @Test("frames of uncompressed messages and control frames pass unchanged")
    func plainFrames() throws {
        let inflater = try inflater()
        let plain = WebSocketFrame(isFinal: false, opcode: .binary, payload: Data([1, 2, 3]))
        #expect(try inflater.take(plain) == plain)
        #expect(inflater.state == .plain)
        let ping = WebSocketFrame(opcode: .ping, payload: Data([9]))
        #expect(try inflater.take(ping) == ping)
        let end = WebSocketFrame(opcode: .continuation, payload: Data([4]))
        #expect(try inflater.take(end) == end)
        #expect(inflater.state == .ready)
        #expect(try inflater.take(message(Self.hello)).payload == Data("Hello".utf8))
    }

    @Test("data that is not DEFLATE fails with 1002, and so does every call after")
    func invalidData() throws {
        let inflater = try inflater()
        #expect(throws: WebSocketProtocolViolation.protocolError("a compressed message is not valid deflate data")) {
            try inflater.take(message([0xFF, 0xFF, 0xFF, 0xFF, 0x01]))
        }
        #expect(throws: WebSocketProtocolViolation.self) { try inflater.take(message(Self.hello)) }
    }

    @Test("a message of exactly the limit inflates; one byte more fails with 1009")
    func exactLimit() throws {
        let text = Data(repeating: 0x61, count: 4096)
        let deflater = try #require(WebSocketDeflater(resetsBetweenMessages: true))
        let compressed = try #require(deflater.compress(text))
        #expect(try inflater(limit: 4096).take(message(Array(compressed))).payload == text)
        let tooSmall = try inflater(limit: 4095)
        #expect(throws: WebSocketProtocolViolation.self) { try tooSmall.take(message(Array(compressed))) }
        guard case .failed(let violation) = tooSmall.state else {
            Issue.record("not failed: \(tooSmall.state)")
            return
        }
        #expect(violation.code == .messageTooBig)
    }

    @Test("a deflate bomb fails with 1009 after about a limit's worth of input, not after all of it")
    func bomb() throws {
        // 16 MiB of zeros compress to about 16 KB; at the 1 MiB limit inflating stops in the first 2 KB or so.
        let deflater = try #require(WebSocketDeflater(resetsBetweenMessages: true))
        let bomb = try #require(deflater.compress(Data(count: 16 << 20)))
        let inflater = try inflater(limit: 1 << 20)
        var fed = 0
        var failure: WebSocketProtocolViolation?
        let piece = 256
        while fed < bomb.count {
            let end = min(fed + piece, bomb.count)
            let frame = WebSocketFrame(
                isFinal: end == bomb.count, opcode: fed == 0 ? .binary : .continuation,
                payload: bomb[fed..<end], isCompressed: fed == 0)
            fed = end
            do {
                let inflated = try inflater.take(frame)
                #expect(inflated.payload.count <= 1 << 20)
            } catch {
                failure = error
                break
            }
        }
        #expect(failure?.code == .messageTooBig)
        #expect(fed < 8 * 1024, "fed \(fed) of \(bomb.count) bytes before failing")
    }
}
