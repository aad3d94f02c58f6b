import Foundation
import Testing

@testable import Errand

@Suite("WebSocket frames with RSV1 (permessage-deflate)")
struct WebSocketCompressedFrameTests {
    private func parse(_ bytes: Data, compression: Bool) throws(WebSocketProtocolViolation) -> [WebSocketFrame] {
        var parser = WebSocketFrameParser(maxPayload: 1 << 20, allowsCompression: compression)
        parser.append(bytes)
        var frames: [WebSocketFrame] = []
        while let frame = try parser.nextFrame() { frames.append(frame) }
        return frames
    }

    @Test("RFC 7692 §7.2.3.1's frame bytes parse to a compressed frame, and inflate to \"Hello\"")
    func rfcFrame() throws {
        let bytes = Data([0xC1, 0x07] + WebSocketInflaterTests.hello)
        let frames = try parse(bytes, compression: true)
        #expect(
            frames == [WebSocketFrame(opcode: .text, payload: Data(WebSocketInflaterTests.hello), isCompressed: true)])
        let inflater = try #require(WebSocketInflater(limit: 100, resetsBetweenMessages: false))
        #expect(try inflater.take(frames[0]).payload == Data("Hello".utf8))
    }

    @Test("RSV1 without the extension agreed fails with 1002")
    func withoutExtension() {
        #expect(throws: WebSocketProtocolViolation.protocolError("reserved bits set without an extension")) {
            try parse(serverFrame(0x1, WebSocketInflaterTests.hello, rsv: 0x40), compression: false)
        }
    }

    @Test(
        "RSV1 on a control or continuation frame, and RSV2 or RSV3 at all, fail with 1002 even with the extension",
        arguments: [
            serverFrame(0x9, [1], rsv: 0x40), serverFrame(0x8, [0x03, 0xE8], rsv: 0x40),
            serverFrame(0x1, [0xF2], fin: false, rsv: 0x40) + serverFrame(0x0, [0x00], rsv: 0x40),
            serverFrame(0x1, [0x61], rsv: 0x20), serverFrame(0x1, [0x61], rsv: 0x10),
        ])
    func refused(bytes: Data) {
        #expect(throws: WebSocketProtocolViolation.self) { try parse(bytes, compression: true) }
    }

    @Test("the encoder sets RSV1 on a compressed frame only")
    func encoder() {
        let compressed = WebSocketFrameEncoder.encode(
            WebSocketFrame(opcode: .text, payload: Data([1]), isCompressed: true), maskKey: 0)
        #expect(compressed.first == 0xC1)
        let plain = WebSocketFrameEncoder.encode(WebSocketFrame(opcode: .text, payload: Data([1])), maskKey: 0)
        #expect(plain.first == 0x81)
    }
}
