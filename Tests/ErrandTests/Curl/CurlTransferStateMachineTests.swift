#if canImport(CCurl)
@testable import Errand
import Foundation
import Testing

/// Every transition of a transfer's state machine, driven without a socket, races included.
@Suite("Curl transport: the transfer state machine")
struct CurlTransferStateMachineTests {
    typealias Machine = CurlTransferStateMachine

    private static let url = URL(string: "http://127.0.0.1/a")!

    private static func machine(_ mode: Machine.Mode = .buffered, maxRedirects: Int = 10, maxBodySize: Int = 1000)
        -> Machine
    {
        Machine(mode: mode, url: url, maxRedirects: maxRedirects, maxBodySize: maxBodySize)
    }

    /// A machine in the multi handle, waiting for the head.
    private static func running(_ mode: Machine.Mode = .buffered, maxRedirects: Int = 10) -> Machine {
        var machine = machine(mode, maxRedirects: maxRedirects)
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
        case .waitForSlot(let releasing): "waitForSlot(releasing: \(releasing))"
        case .addToMulti: "addToMulti"
        case .abort: "abort"
        case .pause: "pause"
        case .unpause: "unpause"
        case .deliverHead: "deliverHead"
        case .followRedirect: "followRedirect"
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
        #expect(Self.describe(machine.configured()) == "waitForSlot(releasing: false)")
        #expect(Self.describe(machine.admitted()) == "addToMulti")
        #expect(machine.isRunning)
        #expect(Self.describe(machine.headReceived(status: 200, hasLocation: false, declaredBodySize: 10)) == "none")
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
            Self.describe(machine.headReceived(status: 200, hasLocation: false, declaredBodySize: nil)) == "deliverHead"
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
        _ = machine.headReceived(status: 200, hasLocation: false, declaredBodySize: nil)
        _ = machine.streamRefused()
        #expect(Self.describe(machine.fail(.cancelled)) == "fail(cancelled, multi, stream)")
        #expect(Self.describe(machine.readerCaughtUp()) == "none")
        #expect(Self.describe(machine.completed(.success(()))) == "none")
    }

    @Test("cancel after completion does nothing")
    func cancelAfterCompletion() {
        var machine = Self.running()
        _ = machine.headReceived(status: 200, hasLocation: false, declaredBodySize: nil)
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

    @Test("a redirect to the same host goes straight back into the multi handle; to another host, through its queue")
    func redirectHops() {
        var machine = Self.running()
        #expect(Self.describe(machine.headReceived(status: 302, hasLocation: true, declaredBodySize: 5)) == "none")
        #expect(machine.bodyArrived() == .discard)
        #expect(Self.describe(machine.completed(.success(()))) == "followRedirect")
        #expect(Self.describe(machine.redirectReady(sameHost: true)) == "addToMulti")
        #expect(machine.redirects == 1)
        _ = machine.headReceived(status: 307, hasLocation: true, declaredBodySize: nil)
        #expect(Self.describe(machine.completed(.success(()))) == "followRedirect")
        #expect(Self.describe(machine.redirectReady(sameHost: false)) == "waitForSlot(releasing: true)")
        #expect(machine.redirects == 2)
        #expect(Self.describe(machine.admitted()) == "addToMulti")
        _ = machine.headReceived(status: 200, hasLocation: false, declaredBodySize: nil)
        #expect(Self.describe(machine.completed(.success(()))) == "succeed")
        #expect(machine.redirects == 2)
    }

    @Test("cancel during a redirect: while the next hop is set up, or while it waits for a slot at another host")
    func cancelDuringRedirect() {
        var settingUp = Self.running()
        _ = settingUp.headReceived(status: 301, hasLocation: true, declaredBodySize: nil)
        _ = settingUp.completed(.success(()))
        #expect(Self.describe(settingUp.fail(.cancelled)) == "fail(cancelled, slot, caller)")
        #expect(Self.describe(settingUp.redirectReady(sameHost: true)) == "none")

        var queued = Self.running()
        _ = queued.headReceived(status: 301, hasLocation: true, declaredBodySize: nil)
        _ = queued.completed(.success(()))
        _ = queued.redirectReady(sameHost: false)
        #expect(Self.describe(queued.fail(.cancelled)) == "fail(cancelled, queue, caller)")
        #expect(Self.describe(queued.admitted()) == "none")
    }

    @Test("a redirect refused while the next hop is set up fails the caller and frees the slot")
    func redirectRefused() {
        var machine = Self.running()
        _ = machine.headReceived(status: 302, hasLocation: true, declaredBodySize: nil)
        _ = machine.completed(.success(()))
        let insecure = ErrandError.transport(
            TransportFailure(kind: .insecureRedirect, url: Self.url, underlying: "test"))
        #expect(Self.describe(machine.fail(insecure)) == "fail(insecureRedirect, slot, caller)")
    }

    @Test("one redirect more than the policy allows aborts at the head; zero redirects returns the 3xx")
    func redirectLimits() {
        var limited = Self.running(maxRedirects: 1)
        _ = limited.headReceived(status: 302, hasLocation: true, declaredBodySize: nil)
        _ = limited.completed(.success(()))
        _ = limited.redirectReady(sameHost: true)
        #expect(Self.describe(limited.headReceived(status: 302, hasLocation: true, declaredBodySize: nil)) == "abort")
        #expect(limited.bodyArrived() == .abort)
        #expect(Self.describe(limited.completed(.failure(Self.lost))) == "fail(tooManyRedirects, slot, caller)")

        var none = Self.running(maxRedirects: 0)
        _ = none.headReceived(status: 302, hasLocation: true, declaredBodySize: nil)
        #expect(none.bodyArrived() == .buffer)
        #expect(Self.describe(none.completed(.success(()))) == "succeed")

        var withoutLocation = Self.running()
        _ = withoutLocation.headReceived(status: 301, hasLocation: false, declaredBodySize: nil)
        #expect(withoutLocation.bodyArrived() == .buffer)
    }

    @Test("a declared body over the limit aborts at the head; the failure wins over libcurl's code")
    func declaredBodyTooLarge() {
        var machine = Self.running()
        #expect(Self.describe(machine.headReceived(status: 200, hasLocation: false, declaredBodySize: 1001)) == "abort")
        #expect(Self.describe(machine.completed(.failure(Self.lost))) == "fail(bodyTooLarge, slot, caller)")
    }

    @Test("a failure decided in a callback wins over a later cancellation, and reaches the stream after the head")
    func callbackFailureWins() {
        var machine = Self.running(.streaming)
        _ = machine.headReceived(status: 200, hasLocation: false, declaredBodySize: nil)
        #expect(Self.describe(machine.callbackFailed(.bodyTooLarge(limit: 1000))) == "abort")
        #expect(Self.describe(machine.callbackFailed(.cancelled)) == "abort")
        #expect(Self.describe(machine.fail(.cancelled)) == "fail(bodyTooLarge, multi, stream)")
    }

    @Test("libcurl's failure goes to the caller before the head and to the stream after it")
    func wireFailures() {
        var buffered = Self.running()
        _ = buffered.headReceived(status: 200, hasLocation: false, declaredBodySize: nil)
        #expect(Self.describe(buffered.completed(.failure(Self.lost))) == "fail(connectionLost, slot, caller)")

        var streamed = Self.running(.streaming)
        _ = streamed.headReceived(status: 200, hasLocation: false, declaredBodySize: nil)
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
        #expect(Self.describe(machine.headReceived(status: 200, hasLocation: false, declaredBodySize: nil)) == "none")
        var running = Self.running()
        _ = running.headReceived(status: 200, hasLocation: false, declaredBodySize: nil)
        #expect(Self.describe(running.headReceived(status: 302, hasLocation: true, declaredBodySize: nil)) == "none")
        #expect(running.bodyArrived() == .buffer)
        #expect(Self.describe(running.redirectReady(sameHost: true)) == "none")
    }
}
#endif
