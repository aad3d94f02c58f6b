import Foundation
import Testing

@testable import Errand

@Suite("WebSocket message assembly")
struct WebSocketMessageAssemblerTests {
    private func frame(_ opcode: WebSocketFrame.Opcode, _ text: String, fin: Bool = true) -> WebSocketFrame {
        WebSocketFrame(isFinal: fin, opcode: opcode, payload: Data(text.utf8))
    }

    private func frame(_ opcode: WebSocketFrame.Opcode, bytes: [UInt8], fin: Bool = true) -> WebSocketFrame {
        WebSocketFrame(isFinal: fin, opcode: opcode, payload: Data(bytes))
    }

    @Test("fragments join into one message, with a ping between them answered on its own")
    func fragmentsWithInterleavedPing() throws {
        var assembler = WebSocketMessageAssembler(maxMessageSize: 100)
        let event1 = try assembler.take(frame(.text, "Hel", fin: false))
        #expect(event1 == .partial)
        let event2 = try assembler.take(frame(.ping, "?"))
        #expect(event2 == .ping(Data("?".utf8)))
        let event3 = try assembler.take(frame(.continuation, "l", fin: false))
        #expect(event3 == .partial)
        let event4 = try assembler.take(frame(.continuation, "o"))
        #expect(event4 == .message(.text("Hello")))
        #expect(!assembler.isAssembling)
    }

    @Test("a binary message of fragments")
    func binaryFragments() throws {
        var assembler = WebSocketMessageAssembler(maxMessageSize: 100)
        _ = try assembler.take(frame(.binary, bytes: [1, 2], fin: false))
        let event5 = try assembler.take(frame(.continuation, bytes: [3]))
        #expect(event5 == .message(.binary(Data([1, 2, 3]))))
    }

    @Test("a continuation with nothing to continue, and a new message inside one, are refused with 1002")
    func orphanContinuation() throws {
        var assembler = WebSocketMessageAssembler(maxMessageSize: 100)
        do {
            _ = try assembler.take(frame(.continuation, "x"))
            Issue.record("no violation")
        } catch {
            #expect(error == .protocolError("a continuation frame with no message to continue"))
        }
        var second = WebSocketMessageAssembler(maxMessageSize: 100)
        _ = try second.take(frame(.text, "a", fin: false))
        #expect(throws: WebSocketProtocolViolation.self) {
            var copy = second
            _ = try copy.take(frame(.binary, "b"))
        }
    }

    @Test("invalid UTF-8 fails with 1007 at the fragment that breaks it, not at the end")
    func invalidTextEarly() throws {
        var assembler = WebSocketMessageAssembler(maxMessageSize: 100)
        _ = try assembler.take(frame(.text, bytes: [0x41, 0xCE], fin: false))
        do {
            _ = try assembler.take(frame(.continuation, bytes: [0x41], fin: false))
            Issue.record("no violation")
        } catch {
            #expect(error.code == .invalidPayload)
        }
    }

    @Test("the part of a text frame that arrived is checked as it comes: bad bytes fail before the frame is whole")
    func inspectedPartialFrames() throws {
        var assembler = WebSocketMessageAssembler(maxMessageSize: 100)
        // Autobahn 6.4.3: "κόσμε", then F4 90 80 80 (past U+10FFFF), in pieces of one frame.
        try assembler.inspect(.text, Data("κόσμε".utf8))
        #expect(throws: WebSocketProtocolViolation.invalidText("a text message is not UTF-8")) {
            var copy = assembler
            try copy.inspect(.text, Data([0xF4, 0x90]))
        }
        // A character cut between the pieces is fine; the whole frame is then taken as usual.
        try assembler.inspect(.text, Data([0xCE]))
        #expect(
            try assembler.take(frame(.text, bytes: Array("κόσμε".utf8) + [0xCE, 0xBA])) == .message(.text("κόσμεκ")))
        // A continuation frame of a text message carries on from the fragments taken; binary is not checked.
        _ = try assembler.take(frame(.text, bytes: [0x41, 0xE2], fin: false))
        #expect(throws: WebSocketProtocolViolation.self) {
            var copy = assembler
            try copy.inspect(.continuation, Data([0x41]))
        }
        var binary = WebSocketMessageAssembler(maxMessageSize: 100)
        try binary.inspect(.binary, Data([0xFF, 0xFE]))
    }

    @Test("a text message ending inside a character fails with 1007")
    func truncatedCharacter() {
        #expect(throws: WebSocketProtocolViolation.invalidText("a text message ends inside a character")) {
            var assembler = WebSocketMessageAssembler(maxMessageSize: 100)
            _ = try assembler.take(frame(.text, bytes: [0xE2, 0x82]))
        }
    }

    @Test("fragments each under the limit but over it together fail with 1009")
    func sizeAcrossFragments() throws {
        var assembler = WebSocketMessageAssembler(maxMessageSize: 10)
        _ = try assembler.take(frame(.binary, bytes: Array(repeating: 0, count: 6), fin: false))
        do {
            _ = try assembler.take(frame(.continuation, bytes: Array(repeating: 0, count: 6)))
            Issue.record("no violation")
        } catch {
            #expect(error.code == .messageTooBig)
        }
    }

    @Test(
        "close codes a peer may send are read; the others are refused with 1002",
        arguments: [
            (1000, true), (1001, true), (1003, true), (1007, true), (1011, true), (1014, true), (3000, true),
            (4999, true), (0, false), (999, false), (1004, false), (1005, false), (1006, false), (1015, false),
            (1016, false), (2999, false), (5000, false), (65535, false),
        ])
    func closeCodes(code: Int, valid: Bool) throws {
        let payload = Data([UInt8(code >> 8), UInt8(code & 0xFF)] + Array("bye".utf8))
        if valid {
            #expect(
                try WebSocketMessageAssembler.close(payload)
                    == .close(WebSocketCloseCode(rawValue: UInt16(code)), "bye"))
        } else {
            #expect(throws: WebSocketProtocolViolation.self) { try WebSocketMessageAssembler.close(payload) }
        }
    }

    @Test("a close frame with no payload has no code; one of one byte is refused; a non-UTF-8 reason fails with 1007")
    func closePayloads() throws {
        #expect(try WebSocketMessageAssembler.close(Data()) == .close(nil, ""))
        #expect(throws: WebSocketProtocolViolation.protocolError("a close frame of one byte")) {
            try WebSocketMessageAssembler.close(Data([0x03]))
        }
        do {
            _ = try WebSocketMessageAssembler.close(Data([0x03, 0xE8, 0xFF]))
            Issue.record("no violation")
        } catch {
            #expect(error.code == .invalidPayload)
        }
    }
}
