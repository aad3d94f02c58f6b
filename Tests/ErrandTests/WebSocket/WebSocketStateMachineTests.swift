import Foundation
import Testing

@testable import Errand

@Suite("WebSocket connection state machine")
struct WebSocketStateMachineTests {
    @Test("the server closes first: its code is echoed, then the connection is released")
    func serverClosesFirst() {
        var machine = WebSocketStateMachine()
        #expect(machine.received(.message(.text("hi"))) == .deliver(.text("hi")))
        #expect(machine.received(.close(.goingAway, "restart")) == .sendCloseAndRelease(.goingAway, ""))
        #expect(machine.state == .closed(.goingAway, reason: "restart"))
        #expect(machine.peerClose?.code == .goingAway)
        #expect(machine.received(.message(.text("late"))) == .none)
    }

    @Test("a close frame without a code is answered with 1000 and read as 1005")
    func closeWithoutCode() {
        var machine = WebSocketStateMachine()
        #expect(machine.received(.close(nil, "")) == .sendCloseAndRelease(.normalClosure, ""))
        #expect(machine.state == .closed(.noStatusReceived, reason: ""))
    }

    @Test("the client closes first: it waits in closing, ignores pings, and releases at the server's close")
    func clientClosesFirst() {
        var machine = WebSocketStateMachine()
        #expect(machine.closeRequested(.normalClosure, reason: "done") == .sendClose(.normalClosure, "done"))
        #expect(machine.state == .closing(sent: .normalClosure))
        #expect(machine.closeRequested(.goingAway, reason: "") == .none)
        #expect(machine.received(.ping(Data())) == .none)
        #expect(machine.received(.message(.binary(Data()))) == .none)
        #expect(machine.received(.close(.normalClosure, "")) == .release)
        #expect(machine.isClosed)
    }

    @Test("pings are answered and pongs noted while open")
    func pingsAndPongs() {
        var machine = WebSocketStateMachine()
        #expect(machine.received(.ping(Data([1]))) == .sendPong(Data([1])))
        #expect(machine.received(.pong(Data())) == .notePong)
        #expect(machine.received(.partial) == .none)
    }

    @Test("a violation fails the connection with its code, once")
    func violation() {
        var machine = WebSocketStateMachine()
        let violation = WebSocketProtocolViolation.invalidText("bad")
        #expect(machine.violated(violation) == .sendCloseAndRelease(.invalidPayload, "bad"))
        #expect(machine.violated(violation) == .none)
        #expect(machine.peerClose == nil)
    }

    @Test("a violation while closing releases without a second close frame")
    func violationWhileClosing() {
        var machine = WebSocketStateMachine()
        _ = machine.closeRequested(.normalClosure, reason: "")
        #expect(machine.violated(.protocolError("x")) == .release)
    }

    @Test("an unanswered keep-alive ping fails the connection with 1011 on the wire and 1006 locally")
    func pongTimeout() {
        var machine = WebSocketStateMachine()
        #expect(machine.pongTimedOut() == .sendCloseAndRelease(.internalError, "keep-alive ping timed out"))
        #expect(machine.state == .closed(.abnormalClosure, reason: "no pong to a keep-alive ping"))
        #expect(machine.pongTimedOut() == .none)
    }

    @Test("the connection ending without a close frame is 1006")
    func endsAbruptly() {
        var machine = WebSocketStateMachine()
        #expect(machine.connectionEnded("eof") == .release)
        #expect(machine.state == .closed(.abnormalClosure, reason: "eof"))
        #expect(machine.connectionEnded("again") == .none)
    }
}
