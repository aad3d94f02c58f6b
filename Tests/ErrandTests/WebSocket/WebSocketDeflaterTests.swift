import Foundation
import Testing

@testable import Errand

@Suite("WebSocket permessage-deflate deflater")
struct WebSocketDeflaterTests {
    @Test("RFC 7692 §7.2.3.1 and §7.2.3.2: \"Hello\", then \"Hello\" again referring back to the first")
    func hello() throws {
        let deflater = try #require(WebSocketDeflater(resetsBetweenMessages: false))
        #expect(deflater.compress(Data("Hello".utf8)) == Data(WebSocketInflaterTests.hello))
        #expect(deflater.state == .ready(window: true))
        #expect(deflater.compress(Data("Hello".utf8)) == Data([0xF2, 0x00, 0x11, 0x00, 0x00]))
    }

    @Test("without context takeover every message is compressed as if it were the first")
    func noContextTakeover() throws {
        let deflater = try #require(WebSocketDeflater(resetsBetweenMessages: true))
        for _ in 0..<3 {
            #expect(deflater.compress(Data("Hello".utf8)) == Data(WebSocketInflaterTests.hello))
            #expect(deflater.state == .ready(window: false))
        }
    }

    @Test("an empty message compresses to the one byte §7.2.3.6 describes")
    func empty() throws {
        let deflater = try #require(WebSocketDeflater(resetsBetweenMessages: false))
        #expect(deflater.compress(Data()) == Data([0x00]))
        let inflater = try #require(WebSocketInflater(limit: 10, resetsBetweenMessages: false))
        #expect(try inflater.inflate(Data([0x00]), isFinal: true).isEmpty)
    }

    @Test("zlib has no raw deflate with an 8-bit window, so the deflater refuses one", arguments: [7, 8, 16])
    func unusableWindow(bits: Int) {
        #expect(WebSocketDeflater(windowBits: bits, resetsBetweenMessages: false) == nil)
    }

    @Test(
        "messages come back whole through the inflater, with and without context takeover, for every window",
        arguments: [(9, false), (12, false), (15, false), (9, true), (15, true)])
    func roundTrip(bits: Int, resets: Bool) throws {
        let deflater = try #require(WebSocketDeflater(windowBits: bits, resetsBetweenMessages: resets))
        let inflater = try #require(WebSocketInflater(limit: 1 << 20, resetsBetweenMessages: resets))
        var generator = SplitMix(seed: UInt64(bits))
        let words = ["price", "quote", "symbol", "EURUSD", "1.0842", "{", "}", "\"", ":"]
        for round in 0..<40 {
            let text = (0..<(round * 37)).map { _ in words[Int(generator.next() % UInt64(words.count))] }.joined()
            let noise = Data((0..<(round * 101)).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
            for message in [Data(text.utf8), noise] {
                let compressed = try #require(deflater.compress(message))
                let frame = WebSocketFrame(opcode: .binary, payload: compressed, isCompressed: true)
                #expect(try inflater.take(frame).payload == message)
            }
        }
    }

    @Test("repetitive text shrinks several times over")
    func ratio() throws {
        let deflater = try #require(WebSocketDeflater(resetsBetweenMessages: false))
        let text = Data(String(repeating: "{\"symbol\":\"EURUSD\",\"bid\":1.0842,\"ask\":1.0843}", count: 100).utf8)
        let compressed = try #require(deflater.compress(text))
        #expect(compressed.count * 10 < text.count)
    }
}
