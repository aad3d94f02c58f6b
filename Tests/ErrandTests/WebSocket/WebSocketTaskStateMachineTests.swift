import Foundation
import Testing

@testable import Errand

@Suite("URLSession WebSocket task state machine")
struct WebSocketTaskStateMachineTests {
    private func bytes(_ outcome: WebSocketTaskStateMachine.Outcome) -> Data? {
        if case .bytes(let bytes) = outcome { return bytes }
        return nil
    }

    private func delivered(_ action: WebSocketTaskStateMachine.ReadAction) -> WebSocketTaskStateMachine.Outcome? {
        if case .deliver(let outcome) = action { return outcome }
        return nil
    }

    private func resumed(_ action: WebSocketTaskStateMachine.ArrivalAction) -> WebSocketTaskStateMachine.Outcome? {
        if case .resume(let outcome) = action { return outcome }
        return nil
    }

    private func opened() -> WebSocketTaskStateMachine {
        var machine = WebSocketTaskStateMachine()
        let holds1 = machine.answered(head: Data("head".utf8))
        #expect(holds1)
        machine.requestWritten()
        _ = machine.read()
        return machine
    }

    @Test("the hop writes its request, then reads the handshake's answer; a second answer is ignored")
    func handshake() {
        var machine = WebSocketTaskStateMachine()
        #expect(!machine.expectsRequest)
        let holds2 = machine.answered(head: Data("head".utf8))
        #expect(holds2)
        let holds3 = !machine.answered(head: Data("other".utf8))
        #expect(holds3)
        #expect(machine.expectsRequest)
        machine.requestWritten()
        #expect(!machine.expectsRequest)
        let holds4 = delivered(machine.read()).flatMap(bytes) == Data("head".utf8)
        #expect(holds4)
    }

    @Test("a read before the request is written fails instead of waiting")
    func readTooEarly() {
        var machine = WebSocketTaskStateMachine()
        guard case .failure = delivered(machine.read()) else { Issue.record("the early read waited"); return }
    }

    @Test("one receive at a time, asked for only while a reader waits")
    func oneReceive() {
        var machine = opened()
        guard case .receiveAndWait = machine.read() else { Issue.record("no receive asked for"); return }
        guard case .wait = machine.read() else { Issue.record("a second receive asked for"); return }
        let holds5 = resumed(machine.received([.bytes(Data([1]))])).flatMap(bytes) == Data([1])
        #expect(holds5)
        guard case .receiveAndWait = machine.read() else { Issue.record("no receive for the next read"); return }
    }

    @Test("a pong reaches a reader that waits for a message, and the receive stays asked for")
    func pongWhileWaiting() {
        var machine = opened()
        guard case .receiveAndWait = machine.read() else { Issue.record("no receive asked for"); return }
        let holds6 = resumed(machine.pongArrived(Data([0x8A, 0]))).flatMap(bytes) == Data([0x8A, 0])
        #expect(holds6)
        guard case .wait = machine.read() else { Issue.record("the receive in flight was asked for again"); return }
        let holds7 = resumed(machine.received([.bytes(Data([2]))])).flatMap(bytes) == Data([2])
        #expect(holds7)
    }

    @Test("what arrives without a reader waits in order")
    func queued() {
        var machine = opened()
        guard case .receiveAndWait = machine.read() else { Issue.record("no receive asked for"); return }
        _ = machine.readerCancelled()
        let holds8 = resumed(machine.pongArrived(Data([0x8A, 0]))) == nil
        #expect(holds8)
        let holds9 = resumed(machine.received([.bytes(Data([3]))])) == nil
        #expect(holds9)
        let holds10 = delivered(machine.read()).flatMap(bytes) == Data([0x8A, 0])
        #expect(holds10)
        let holds11 = delivered(machine.read()).flatMap(bytes) == Data([3])
        #expect(holds11)
    }

    @Test("the peer's close frame is read once, from the delegate or the receive, then the end")
    func closeOnce() {
        let close = Data([0x88, 0x02, 0x03, 0xE8])
        var machine = opened()
        guard case .receiveAndWait = machine.read() else { Issue.record("no receive asked for"); return }
        let holds12 = resumed(machine.peerClosed(close)).flatMap(bytes) == close
        #expect(holds12)
        let holds13 = resumed(machine.peerClosed(close)) == nil
        #expect(holds13)
        guard case .wait = machine.read() else { Issue.record("a receive asked for again"); return }
        guard case .end = resumed(machine.received([.bytes(close), .end])) else {
            Issue.record("the close frame came twice"); return
        }
        guard case .end = delivered(machine.read()) else { Issue.record("a read after the end waited"); return }
    }

    @Test("a cancelled reader is resumed with cancellation; release resumes a waiting reader with the end")
    func cancelAndRelease() {
        var machine = opened()
        _ = machine.read()
        guard case .failure(.cancelled) = resumed(machine.readerCancelled()) else {
            Issue.record("the cancelled reader kept waiting"); return
        }
        let holds14 = resumed(machine.readerCancelled()) == nil
        #expect(holds14)
        _ = machine.read()
        guard case .end = resumed(machine.released()) else { Issue.record("the reader kept waiting"); return }
        let holds15 = resumed(machine.received([.bytes(Data([4]))])) == nil
        #expect(holds15)
        guard case .end = delivered(machine.read()) else { Issue.record("a message came after the release"); return }
    }

    @Test("a failed receive ends the stream with its error")
    func failure() {
        var machine = opened()
        _ = machine.read()
        let lost = ErrandError.transport(TransportFailure(kind: .connectionLost, url: nil, underlying: "reset"))
        guard case .failure(let error) = resumed(machine.received([.failure(lost)])), error.isTransport(.connectionLost)
        else { Issue.record("the failure was not handed over"); return }
        guard case .end = delivered(machine.read()) else { Issue.record("a read after the failure waited"); return }
    }
}
