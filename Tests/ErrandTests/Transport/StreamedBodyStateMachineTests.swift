@testable import Errand
import Foundation
import Testing

/// The streamed request body's hand-off between the sequence and the transport, without a socket: waiters are
/// numbers, reads are values.
@Suite("Streamed body state machine")
struct StreamedBodyStateMachineTests {
    typealias Machine = StreamedBodyStateMachine<Int>

    static func bytes(_ read: Machine.Read) -> Data? {
        if case .bytes(let data) = read { return data }
        return nil
    }

    static func isPending(_ read: Machine.Read) -> Bool {
        if case .pending = read { return true }
        return false
    }

    static func isEnd(_ read: Machine.Read) -> Bool {
        if case .end = read { return true }
        return false
    }

    static func failure(_ read: Machine.Read) -> ErrandError? {
        if case .failed(let failure) = read { return failure }
        return nil
    }

    @Test("a read before any chunk is pending, and the first chunk wakes the consumer")
    func pendingThenWoken() {
        var machine = Machine(length: nil)
        #expect(Self.isPending(machine.read(upTo: 10).0))
        let effects = machine.push(Data("abc".utf8), waiter: 1)
        #expect(effects.wakesConsumer)
        #expect(effects.resumes?.0 == 1 && effects.resumes?.1 == true)
        #expect(Self.bytes(machine.read(upTo: 10).0) == Data("abc".utf8))
    }

    @Test("a chunk is handed out in pieces no larger than asked for, in order")
    func pieces() {
        var machine = Machine(length: nil)
        _ = machine.push(Data("abcdef".utf8), waiter: 1)
        #expect(Self.bytes(machine.read(upTo: 4).0) == Data("abcd".utf8))
        #expect(Self.bytes(machine.read(upTo: 4).0) == Data("ef".utf8))
        #expect(machine.delivered == 6)
    }

    @Test("the producer is held once the buffer is full and resumed by the read that makes room")
    func boundedBuffer() {
        var machine = Machine(length: nil, capacity: 2)
        #expect(machine.push(Data([1]), waiter: 1).resumes?.0 == 1)
        let full = machine.push(Data([2]), waiter: 2)
        #expect(full.resumes == nil)
        let (first, effects) = machine.read(upTo: 1)
        #expect(Self.bytes(first) == Data([1]))
        #expect(effects.resumes?.0 == 2 && effects.resumes?.1 == true)
    }

    @Test("the end comes after the buffered bytes, and a waiting consumer is woken for it")
    func endAfterBytes() {
        var machine = Machine(length: nil)
        _ = machine.push(Data("xy".utf8), waiter: 1)
        #expect(!machine.finish(nil).wakesConsumer)
        #expect(Self.bytes(machine.read(upTo: 10).0) == Data("xy".utf8))
        #expect(Self.isEnd(machine.read(upTo: 10).0))

        var waiting = Machine(length: nil)
        #expect(Self.isPending(waiting.read(upTo: 10).0))
        #expect(waiting.finish(nil).wakesConsumer)
        #expect(Self.isEnd(waiting.read(upTo: 10).0))
    }

    @Test("with a declared length the last byte waits for the sequence's end")
    func lastByteHeldBack() {
        var machine = Machine(length: 4)
        _ = machine.push(Data("abcd".utf8), waiter: 1)
        #expect(Self.bytes(machine.read(upTo: 10).0) == Data("abc".utf8))
        #expect(Self.isPending(machine.read(upTo: 10).0))
        #expect(machine.finish(nil).wakesConsumer)
        #expect(Self.bytes(machine.read(upTo: 10).0) == Data("d".utf8))
        #expect(Self.isEnd(machine.read(upTo: 10).0))
    }

    @Test("a sequence that yields more than its declared length fails, and its producer stops")
    func tooLong() {
        var machine = Machine(length: 4)
        _ = machine.push(Data("abcd".utf8), waiter: 1)
        _ = machine.read(upTo: 10)
        #expect(Self.isPending(machine.read(upTo: 10).0))
        let effects = machine.push(Data("e".utf8), waiter: 2)
        #expect(effects.resumes?.0 == 2 && effects.resumes?.1 == false)
        #expect(effects.wakesConsumer)
        guard case .invalidRequest(let message) = Self.failure(machine.read(upTo: 10).0) else {
            Issue.record("not a failure")
            return
        }
        #expect(message == "the streamed body yielded more than the 4 bytes it declared.")
    }

    @Test("a sequence that ends short of its declared length fails")
    func tooShort() {
        var machine = Machine(length: 10)
        _ = machine.push(Data("abc".utf8), waiter: 1)
        _ = machine.finish(nil)
        guard case .invalidRequest(let message) = Self.failure(machine.read(upTo: 10).0) else {
            Issue.record("not a failure")
            return
        }
        #expect(message == "the streamed body ended after 3 of the 10 bytes it declared.")
    }

    @Test("a declared length of zero ends at once when the sequence is empty")
    func emptyDeclared() {
        var machine = Machine(length: 0)
        #expect(Self.isPending(machine.read(upTo: 10).0))
        _ = machine.finish(nil)
        #expect(Self.isEnd(machine.read(upTo: 10).0))
    }

    @Test("the sequence's own failure reaches the consumer as it was, buffered bytes dropped")
    func sequenceThrew() {
        var machine = Machine(length: nil)
        _ = machine.push(Data("abc".utf8), waiter: 1)
        _ = machine.finish(.app(AppFailure(CocoaError(.fileReadCorruptFile))))
        guard case .app(let failure) = Self.failure(machine.read(upTo: 10).0) else {
            Issue.record("not the app's failure")
            return
        }
        #expect(failure.underlying(as: CocoaError.self)?.code == .fileReadCorruptFile)
    }

    @Test("cancelling releases a held producer with a stop, wakes a waiting consumer, and refuses later chunks")
    func cancel() {
        var machine = Machine(length: nil, capacity: 2)
        _ = machine.push(Data([1]), waiter: 1)
        _ = machine.push(Data([2]), waiter: 2)
        let effects = machine.cancel()
        #expect(effects.resumes?.0 == 2 && effects.resumes?.1 == false)
        #expect(machine.push(Data([3]), waiter: 3).resumes?.1 == false)
        guard case .cancelled = Self.failure(machine.read(upTo: 1).0) else {
            Issue.record("not cancelled")
            return
        }

        var waiting = Machine(length: nil)
        _ = waiting.read(upTo: 1)
        #expect(waiting.cancel().wakesConsumer)
    }
}
