import Foundation
import Testing

@testable import Errand

/// A server frame's bytes (unmasked, as a server sends them).
func serverFrame(_ opcode: UInt8, _ payload: [UInt8], fin: Bool = true, rsv: UInt8 = 0) -> Data {
    var bytes: [UInt8] = [(fin ? 0x80 : 0) | rsv | opcode]
    switch payload.count {
    case 0...125: bytes.append(UInt8(payload.count))
    case 126...0xFFFF: bytes += [126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
    default: bytes += [127] + (0..<8).reversed().map { UInt8((UInt64(payload.count) >> UInt64($0 * 8)) & 0xFF) }
    }
    return Data(bytes + payload)
}

@Suite("WebSocket frame parser")
struct WebSocketFrameParserTests {
    private func frames(_ bytes: Data, max: Int = 1 << 20) throws -> [WebSocketFrame] {
        var parser = WebSocketFrameParser(maxPayload: max)
        parser.append(bytes)
        var frames: [WebSocketFrame] = []
        while let frame = try parser.nextFrame() { frames.append(frame) }
        return frames
    }

    private func violation(_ bytes: Data, max: Int = 1 << 20) -> WebSocketProtocolViolation? {
        do {
            _ = try frames(bytes, max: max)
            return nil
        } catch {
            return error as? WebSocketProtocolViolation
        }
    }

    @Test("RFC 6455's unmasked \"Hello\" is one final text frame")
    func rfcExample() throws {
        let parsed = try frames(Data([0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F]))
        #expect(parsed == [WebSocketFrame(opcode: .text, payload: Data("Hello".utf8))])
    }

    @Test("16-bit and 64-bit lengths", arguments: [126, 300, 65_535, 65_536, 70_000])
    func extendedLengths(count: Int) throws {
        let payload = (0..<count).map { UInt8($0 & 0xFF) }
        let parsed = try frames(serverFrame(0x2, payload))
        #expect(parsed.map(\.payload) == [Data(payload)])
    }

    @Test("a frame split byte by byte comes out whole, once, at its last byte")
    func byteByByte() throws {
        let bytes = serverFrame(0x1, Array("split into single bytes".utf8)) + serverFrame(0x9, [1, 2])
        var parser = WebSocketFrameParser(maxPayload: 1024)
        var frames: [WebSocketFrame] = []
        for byte in bytes {
            parser.append(Data([byte]))
            while let frame = try parser.nextFrame() { frames.append(frame) }
        }
        #expect(frames.map(\.opcode) == [.text, .ping])
        #expect(frames.first?.payload == Data("split into single bytes".utf8))
        #expect(parser.bufferedCount == 0)
    }

    @Test("the payload of a frame still arriving is handed out as it comes, each byte once, and not past the frame")
    func uncheckedPayload() throws {
        let bytes = serverFrame(0x1, Array("abcdefgh".utf8), fin: false) + serverFrame(0x9, [7])
        var parser = WebSocketFrameParser(maxPayload: 1024)
        var handedOut = Data()
        var frames: [WebSocketFrame] = []
        for byte in bytes {
            parser.append(Data([byte]))
            while let frame = try parser.nextFrame() { frames.append(frame) }
            if let partial = parser.takeUncheckedPayload() {
                #expect(partial.opcode == .text)
                #expect(!partial.isCompressed)
                handedOut.append(partial.bytes)
            }
        }
        // The last payload byte completes the frame, which nextFrame() then returns whole instead.
        #expect(handedOut == Data("abcdefg".utf8))
        #expect(frames.map(\.opcode) == [.text, .ping])
        #expect(parser.takeUncheckedPayload() == nil)
    }

    @Test("reserved bits without an extension are refused with 1002", arguments: [0x40, 0x20, 0x10] as [UInt8])
    func reservedBits(bit: UInt8) {
        #expect(violation(serverFrame(0x1, [0x41], rsv: bit))?.code == .protocolError)
    }

    @Test(
        "reserved opcodes are refused with 1002",
        arguments: [0x3, 0x4, 0x5, 0x6, 0x7, 0xB, 0xC, 0xD, 0xE, 0xF] as [UInt8])
    func reservedOpcodes(opcode: UInt8) {
        #expect(violation(serverFrame(opcode, []))?.code == .protocolError)
    }

    @Test("a masked server frame is refused with 1002")
    func maskedServerFrame() {
        #expect(violation(Data([0x81, 0x81, 1, 2, 3, 4, 0x41 ^ 1]))?.code == .protocolError)
    }

    @Test("a control frame of 126 bytes is refused with 1002, one of 125 is taken")
    func controlLimit() throws {
        #expect(violation(serverFrame(0x9, Array(repeating: 0, count: 126)))?.code == .protocolError)
        #expect(try frames(serverFrame(0x9, Array(repeating: 7, count: 125))).first?.payload.count == 125)
    }

    @Test("a fragmented control frame is refused with 1002", arguments: [0x8, 0x9, 0xA] as [UInt8])
    func fragmentedControl(opcode: UInt8) {
        #expect(violation(serverFrame(opcode, [], fin: false))?.code == .protocolError)
    }

    @Test("a frame longer than the limit fails with 1009 at its header, before its payload")
    func oversizeAtHeader() {
        // Only the ten bytes of a 100 MB frame's header: the parser must not wait for the rest.
        var header: [UInt8] = [0x82, 127]
        header += (0..<8).reversed().map { UInt8((UInt64(100_000_000) >> UInt64($0 * 8)) & 0xFF) }
        #expect(violation(Data(header), max: 1 << 20)?.code == .messageTooBig)
    }

    @Test("a 64-bit length with its top bit set is refused with 1002")
    func topBitLength() {
        #expect(violation(Data([0x82, 127, 0x80, 0, 0, 0, 0, 0, 0, 1]), max: .max)?.code == .protocolError)
    }

    @Test("after a violation the parser stays failed")
    func staysFailed() throws {
        var parser = WebSocketFrameParser(maxPayload: 100)
        parser.append(Data([0x83, 0x00]))
        #expect(throws: WebSocketProtocolViolation.self) { _ = try parser.nextFrame() }
        parser.append(serverFrame(0x1, [0x41]))
        #expect(throws: WebSocketProtocolViolation.self) { _ = try parser.nextFrame() }
    }
}
