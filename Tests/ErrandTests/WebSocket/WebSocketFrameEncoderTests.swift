import Foundation
import Testing

@testable import Errand

@Suite("WebSocket frame encoder")
struct WebSocketFrameEncoderTests {
    @Test("RFC 6455's masked \"Hello\" (§5.7), byte for byte")
    func rfcMaskedExample() {
        let bytes = WebSocketFrameEncoder.encode(
            WebSocketFrame(opcode: .text, payload: Data("Hello".utf8)), maskKey: 0x37FA_213D)
        #expect([UInt8](bytes) == [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58])
    }

    @Test(
        "every client frame has its mask bit set and unmasks to its payload", arguments: [0, 125, 126, 65_535, 65_536])
    func masksEveryLength(count: Int) {
        let payload = Data((0..<count).map { UInt8(($0 * 7) & 0xFF) })
        let bytes = [UInt8](WebSocketFrameEncoder.encode(WebSocketFrame(opcode: .binary, payload: payload)))
        #expect(bytes[1] & 0x80 != 0)
        let headLength = count <= 125 ? 2 : count <= 0xFFFF ? 4 : 10
        let mask = Array(bytes[headLength..<(headLength + 4)])
        let unmasked = bytes[(headLength + 4)...].enumerated().map { $0.element ^ mask[$0.offset & 3] }
        #expect(Data(unmasked) == payload)
    }

    @Test("a close payload is the code then a reason cut to 123 bytes on a character boundary")
    func closePayload() {
        let payload = WebSocketFrameEncoder.closePayload(.goingAway, reason: String(repeating: "é", count: 100))
        #expect(payload.count <= 125)
        #expect(payload.prefix(2) == Data([0x03, 0xE9]))
        #expect(String(data: payload.dropFirst(2), encoding: .utf8) != nil)
    }
}
