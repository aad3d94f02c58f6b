#if canImport(CCurl)
@testable import Errand
import Foundation
import Testing

/// Every transition of a transfer's state machine, driven without a socket, races included.
@Suite("Curl transport: the transfer state machine")
struct CurlTransferStateMachineTests {
    typealias Machine = CurlTransferStateMachine

    private static let url = URL(string: "http://127.0.0.1/a")!

    private static func machine(_ mode: Machine.Mode = .buffered, maxBodySize: Int = 1000) -> Machine {
        Machine(mode: mode, url: url, maxBodySize: maxBodySize)
    }

    /// A machine in the multi handle, waiting for the head.
    private static func running(_ mode: Machine.Mode = .buffered) -> Machine {
        var machine = machine(mode)
        _ = machine.start()
        _ = machine.configured()
        _ = machine.admitted()
        return machine
    }

    /// An action as text, so tests compare whole actions (failures included) without `ErrandError` being Equatable.
    private static func describe(_ action: Machine.Action) -> String {
        switch action {
        case .none: "none"
        case .configure: "configure"
        case .waitForSlot: "waitForSlot"
        case .addToMulti: "addToMulti"
        case .abort: "abort"
        case .pause: "pause"
        case .unpause: "unpause"
        case .deliverHead: "deliverHead"
        case .succeed: "succeed"
        case .fail(let failure, let place, let recipient): "fail(\(kind(failure)), \(place), \(recipient))"
        }
    }

    private static func kind(_ failure: ErrandError) -> String {
        switch failure {
        case .cancelled: "cancelled"
        case .bodyTooLarge: "bodyTooLarge"
        case .transport(let failure): failure.kind.rawValue
        default: "other"
        }
    }

    private static let timedOut = ErrandError.transport(TransportFailure(kind: .timedOut, url: url, underlying: "test"))
    private static let lost = ErrandError.transport(
        TransportFailure(kind: .connectionLost, url: url, underlying: "test"))

    @Test("a buffered transfer goes start → configure → slot → multi → head → succeed, and nothing after")
    func bufferedHappyPath() {
        var machine = Self.machine()
        #expect(Self.describe(machine.start()) == "configure")
        #expect(Self.describe(machine.configured()) == "waitForSlot")
        #expect(Self.describe(machine.admitted()) == "addToMulti")
        #expect(machine.isRunning)
        #expect(Self.describe(machine.headReceived(declaredBodySize: 10)) == "none")
        #expect(machine.bodyArrived() == .buffer)
        #expect(Self.describe(machine.completed(.success(()))) == "succeed")
        #expect(machine.isFinished)
        // Once finished, every event is ignored: the outcome went out exactly once.
        #expect(Self.describe(machine.completed(.success(()))) == "none")
        #expect(Self.describe(machine.fail(.cancelled)) == "none")
        #expect(Self.describe(machine.readerCaughtUp()) == "none")
        #expect(Self.describe(machine.start()) == "none")
        #expect(machine.bodyArrived() == .abort)
    }

    @Test("a streamed transfer delivers its head, pauses and resumes for its reader, and ends its stream")
    func streamingWithBackpressure() {
        var machine = Self.running(.streaming)
        #expect(
            Self.describe(machine.headReceived(declaredBodySize: nil)) == "deliverHead"
        )
        #expect(machine.bodyArrived() == .stream)
        #expect(Self.describe(machine.streamRefused()) == "pause")
        #expect(machine.isPausedForReader)
        #expect(Self.describe(machine.readerCaughtUp()) == "unpause")
        #expect(!machine.isPausedForReader)
        // A second resumption for the same pause does nothing.
        #expect(Self.describe(machine.readerCaughtUp()) == "none")
        #expect(Self.describe(machine.completed(.success(()))) == "succeed")
    }

    @Test("pause, then cancel: the paused transfer leaves the multi handle and its stream hears of it")
    func pauseThenCancel() {
        var machine = Self.running(.streaming)
        _ = machine.headReceived(declaredBodySize: nil)
        _ = machine.streamRefused()
        #expect(Self.describe(machine.fail(.cancelled)) == "fail(cancelled, multi, stream)")
        #expect(Self.describe(machine.readerCaughtUp()) == "none")
        #expect(Self.describe(machine.completed(.success(()))) == "none")
    }

    @Test("cancel after completion does nothing")
    func cancelAfterCompletion() {
        var machine = Self.running()
        _ = machine.headReceived(declaredBodySize: nil)
        #expect(Self.describe(machine.completed(.success(()))) == "succeed")
        #expect(Self.describe(machine.fail(.cancelled)) == "none")
        #expect(machine.isFinished)
    }

    @Test("a cancellation that overtakes the start fails the caller when the start arrives, touching nothing")
    func cancelBeforeStart() {
        var machine = Self.machine()
        #expect(Self.describe(machine.fail(.cancelled)) == "none")
        #expect(Self.describe(machine.start()) == "fail(cancelled, nowhere, caller)")
        #expect(Self.describe(machine.configured()) == "none")
        #expect(Self.describe(machine.admitted()) == "none")
    }

    @Test(
        "a failure while configuring, waiting for a slot or running leaves from the right place",
        arguments: [0, 1, 2])
    func failureLeavesFromWhereItIs(stage: Int) {
        var machine = Self.machine()
        _ = machine.start()
        if stage >= 1 { _ = machine.configured() }
        if stage >= 2 { _ = machine.admitted() }
        let expected = [
            "fail(timedOut, nowhere, caller)", "fail(timedOut, queue, caller)", "fail(timedOut, multi, caller)",
        ]
        #expect(Self.describe(machine.fail(Self.timedOut)) == expected[stage])
        #expect(Self.describe(machine.admitted()) == "none")
    }

    @Test("a 3xx is a response like any other: buffered and delivered, its body kept for the client's follower")
    func redirectIsAResponse() {
        var machine = Self.running()
        #expect(Self.describe(machine.headReceived(declaredBodySize: 5)) == "none")
        #expect(machine.bodyArrived() == .buffer)
        #expect(Self.describe(machine.completed(.success(()))) == "succeed")
    }

    @Test("a declared body over the limit aborts at the head; the failure wins over libcurl's code")
    func declaredBodyTooLarge() {
        var machine = Self.running()
        #expect(Self.describe(machine.headReceived(declaredBodySize: 1001)) == "abort")
        #expect(Self.describe(machine.completed(.failure(Self.lost))) == "fail(bodyTooLarge, slot, caller)")
    }

    @Test("a failure decided in a callback wins over a later cancellation, and reaches the stream after the head")
    func callbackFailureWins() {
        var machine = Self.running(.streaming)
        _ = machine.headReceived(declaredBodySize: nil)
        #expect(Self.describe(machine.callbackFailed(.bodyTooLarge(limit: 1000))) == "abort")
        #expect(Self.describe(machine.callbackFailed(.cancelled)) == "abort")
        #expect(Self.describe(machine.fail(.cancelled)) == "fail(bodyTooLarge, multi, stream)")
    }

    @Test("libcurl's failure goes to the caller before the head and to the stream after it")
    func wireFailures() {
        var buffered = Self.running()
        _ = buffered.headReceived(declaredBodySize: nil)
        #expect(Self.describe(buffered.completed(.failure(Self.lost))) == "fail(connectionLost, slot, caller)")

        var streamed = Self.running(.streaming)
        _ = streamed.headReceived(declaredBodySize: nil)
        #expect(Self.describe(streamed.completed(.failure(Self.lost))) == "fail(connectionLost, slot, stream)")

        var beforeHead = Self.running(.streaming)
        #expect(Self.describe(beforeHead.completed(.failure(Self.timedOut))) == "fail(timedOut, slot, caller)")
    }

    @Test("a clean end without any head, or body bytes before the head, is a bad response")
    func noHead() {
        var ended = Self.running()
        #expect(Self.describe(ended.completed(.success(()))) == "fail(badResponse, slot, caller)")

        var early = Self.running()
        #expect(early.bodyArrived() == .abort)
        #expect(Self.describe(early.completed(.failure(Self.lost))) == "fail(badResponse, slot, caller)")
    }

    @Test("heads after the final one (trailers) and transitions out of turn change nothing")
    func outOfTurn() {
        var machine = Self.machine()
        #expect(Self.describe(machine.admitted()) == "none")
        #expect(Self.describe(machine.configured()) == "none")
        #expect(Self.describe(machine.completed(.success(()))) == "none")
        #expect(Self.describe(machine.headReceived(declaredBodySize: nil)) == "none")
        var running = Self.running()
        _ = running.headReceived(declaredBodySize: nil)
        #expect(Self.describe(running.headReceived(declaredBodySize: nil)) == "none")
        #expect(running.bodyArrived() == .buffer)
    }
}
#endif
