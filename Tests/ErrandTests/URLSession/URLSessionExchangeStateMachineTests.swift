@testable import Errand
import Foundation
import Testing

/// Every transition of a URLSession exchange's state machine, driven without a session or a socket, races included.
@Suite("URLSession transport: the exchange state machine")
struct URLSessionExchangeStateMachineTests {
    typealias Machine = URLSessionExchangeStateMachine

    private static let url = URL(string: "http://127.0.0.1/a")!

    private static func machine(_ mode: Machine.Mode = .buffered, maxBodySize: Int = 10) -> Machine {
        Machine(mode: mode, url: url, maxBodySize: maxBodySize)
    }

    /// A machine whose task runs, waiting for the head.
    private static func started(_ mode: Machine.Mode = .buffered, maxBodySize: Int = 10) -> Machine {
        var machine = machine(mode, maxBodySize: maxBodySize)
        _ = machine.start()
        return machine
    }

    private static func head(_ status: Int = 200, length: Int64? = nil, location: String? = nil) -> Machine.Head {
        var headers = HTTPHeaders()
        if let location { headers.add(name: "Location", value: location) }
        return Machine.Head(status: status, headers: headers, url: url, declaredLength: length)
    }

    private static let timedOut = ErrandError.transport(TransportFailure(kind: .timedOut, url: url, underlying: "test"))
    private static let lost = ErrandError.transport(
        TransportFailure(kind: .connectionLost, url: url, underlying: "test"))

    // Actions as text, so tests compare whole actions (failures included) without `ErrandError` being Equatable.

    private static func kind(_ failure: ErrandError?) -> String {
        switch failure {
        case nil: "nil"
        case .cancelled: "cancelled"
        case .bodyTooLarge: "bodyTooLarge"
        case .transport(let failure): failure.kind.rawValue
        default: "other"
        }
    }

    private static func describe(_ action: Machine.StartAction) -> String {
        switch action {
        case .none: "none"
        case .resumeTask: "resumeTask"
        case .failCaller(let failure): "failCaller(\(kind(failure)))"
        }
    }

    private static func describe(_ action: Machine.HeadAction) -> String {
        switch action {
        case .proceed: "proceed"
        case .deliverHead(let head): "deliverHead(\(head.status))"
        case .cancelTask: "cancelTask"
        }
    }

    private static func describe(_ action: Machine.BodyAction) -> String {
        switch action {
        case .buffered(let total): "buffered(\(total))"
        case .yield(let data, let total): "yield(\(data.count), \(total))"
        case .drop: "drop"
        case .cancelTask: "cancelTask"
        case .cancelTaskAndFinishBody(let failure): "cancelTaskAndFinishBody(\(kind(failure)))"
        }
    }

    private static func describe(_ action: Machine.FailAction) -> String {
        switch action {
        case .none: "none"
        case .cancelTask: "cancelTask"
        case .cancelTaskAndFinishBody(let failure): "cancelTaskAndFinishBody(\(kind(failure)))"
        }
    }

    private static func describe(_ action: Machine.CompletionAction) -> String {
        switch action {
        case .none: "none"
        case .succeed(let head, let body): "succeed(\(head.status), \(String(decoding: body, as: UTF8.self)))"
        case .deliverHeadWithoutBody(let head): "deliverHeadWithoutBody(\(head.status))"
        case .failCaller(let failure): "failCaller(\(kind(failure)))"
        case .finishBody(let failure): "finishBody(\(kind(failure)))"
        }
    }

    private static func bytes(_ text: String) -> Data { Data(text.utf8) }

    // MARK: Buffered

    @Test("a buffered exchange goes start → head → body → completed, and ignores everything after")
    func bufferedHappyPath() {
        var machine = Self.machine()
        #expect(Self.describe(machine.start()) == "resumeTask")
        #expect(machine.isAwaitingHead)
        #expect(Self.describe(machine.headReceived(Self.head(length: 5), firstByte: .milliseconds(3))) == "proceed")
        #expect(machine.firstByte == .milliseconds(3))
        #expect(Self.describe(machine.bodyReceived(Self.bytes("he"))) == "buffered(2)")
        #expect(Self.describe(machine.bodyReceived(Self.bytes("llo"))) == "buffered(5)")
        #expect(Self.describe(machine.completed(nil, fallbackHead: nil)) == "succeed(200, hello)")
        #expect(machine.isFinished)
        #expect(Self.describe(machine.completed(nil, fallbackHead: nil)) == "none")
        #expect(Self.describe(machine.fail(.cancelled)) == "none")
        #expect(Self.describe(machine.bodyReceived(Self.bytes("late"))) == "drop")
        #expect(Self.describe(machine.start()) == "none")
    }

    @Test("a 3xx is a response like any other: its head and body come back, nothing is followed")
    func redirectIsTheResponse() {
        for status in [301, 302, 303, 307, 308] {
            var machine = Self.started()
            let head = Self.head(status, length: 4, location: "/next")
            #expect(Self.describe(machine.headReceived(head, firstByte: .zero)) == "proceed")
            _ = machine.bodyReceived(Self.bytes("moved"))
            let action = machine.completed(nil, fallbackHead: nil)
            guard case .succeed(let delivered, let body) = action else {
                Issue.record("\(status): \(Self.describe(action))")
                continue
            }
            #expect(delivered.status == status)
            #expect(delivered.headers["Location"] == "/next")
            #expect(body == Self.bytes("moved"))
        }
    }

    @Test("a task that completes without announcing a head answers with the task's response, with an empty body")
    func fallbackHead() {
        var buffered = Self.started()
        #expect(
            Self.describe(buffered.completed(nil, fallbackHead: Self.head(302))) == "succeed(302, )")
        var streaming = Self.started(.streaming)
        #expect(
            Self.describe(streaming.completed(nil, fallbackHead: Self.head(301))) == "deliverHeadWithoutBody(301)")
    }

    @Test("a task that completes without any head fails as a bad response; with an error, with that error")
    func noHead() {
        var clean = Self.started()
        #expect(Self.describe(clean.completed(nil, fallbackHead: nil)) == "failCaller(badResponse)")
        var failed = Self.started()
        // A failed task's response (if any) is not an answer.
        #expect(
            Self.describe(failed.completed(Self.lost, fallbackHead: Self.head(302))) == "failCaller(connectionLost)")
    }

    @Test("URLSession's error after a buffered head fails the exchange")
    func errorAfterHead() {
        var machine = Self.started()
        _ = machine.headReceived(Self.head(), firstByte: .zero)
        _ = machine.bodyReceived(Self.bytes("abc"))
        #expect(Self.describe(machine.completed(Self.lost, fallbackHead: nil)) == "failCaller(connectionLost)")
    }

    // MARK: Limits

    @Test("a declared length over the limit refuses the head; the failure goes out at completion")
    func declaredTooLarge() {
        var machine = Self.started(maxBodySize: 10)
        #expect(Self.describe(machine.headReceived(Self.head(length: 11), firstByte: .zero)) == "cancelTask")
        #expect(Self.describe(machine.bodyReceived(Self.bytes("x"))) == "drop")
        #expect(!machine.isFinished)
        #expect(Self.describe(machine.completed(.cancelled, fallbackHead: nil)) == "failCaller(bodyTooLarge)")
    }

    @Test("a declared length at the limit is fine")
    func declaredAtLimit() {
        var machine = Self.started(maxBodySize: 10)
        #expect(Self.describe(machine.headReceived(Self.head(length: 10), firstByte: .zero)) == "proceed")
        #expect(Self.describe(machine.bodyReceived(Data(count: 10))) == "buffered(10)")
    }

    @Test("a buffered body growing past the limit stops the task; later chunks are dropped; the limit wins")
    func bufferedTooLarge() {
        var machine = Self.started(maxBodySize: 10)
        _ = machine.headReceived(Self.head(), firstByte: .zero)
        #expect(Self.describe(machine.bodyReceived(Data(count: 8))) == "buffered(8)")
        #expect(Self.describe(machine.bodyReceived(Data(count: 3))) == "cancelTask")
        #expect(Self.describe(machine.bodyReceived(Data(count: 1))) == "drop")
        #expect(Self.describe(machine.fail(Self.timedOut)) == "none")
        #expect(Self.describe(machine.completed(.cancelled, fallbackHead: nil)) == "failCaller(bodyTooLarge)")
    }

    @Test("a streamed body growing past the limit ends the body at once and stops the task")
    func streamedTooLarge() {
        var machine = Self.started(.streaming, maxBodySize: 10)
        _ = machine.headReceived(Self.head(), firstByte: .zero)
        #expect(Self.describe(machine.bodyReceived(Data(count: 10))) == "yield(10, 10)")
        #expect(Self.describe(machine.bodyReceived(Data(count: 1))) == "cancelTaskAndFinishBody(bodyTooLarge)")
        #expect(machine.isFinished)
        #expect(Self.describe(machine.completed(.cancelled, fallbackHead: nil)) == "none")
    }

    @Test("body bytes before any head are a bad response")
    func bodyBeforeHead() {
        var machine = Self.started()
        #expect(Self.describe(machine.bodyReceived(Self.bytes("x"))) == "cancelTask")
        #expect(Self.describe(machine.completed(nil, fallbackHead: nil)) == "failCaller(badResponse)")
    }

    // MARK: Failures Errand decides

    @Test("a cancellation before the caller suspends fails the start at once; the task is never resumed")
    func cancelledBeforeStart() {
        var machine = Self.machine()
        #expect(Self.describe(machine.fail(.cancelled)) == "none")
        #expect(Self.describe(machine.fail(Self.timedOut)) == "none")
        #expect(Self.describe(machine.start()) == "failCaller(cancelled)")
        #expect(machine.isFinished)
        #expect(Self.describe(machine.completed(.cancelled, fallbackHead: nil)) == "none")
    }

    @Test("a timeout while waiting for the head cancels the task and wins over URLSession's cancellation error")
    func timeoutBeforeHead() {
        var machine = Self.started()
        #expect(Self.describe(machine.fail(Self.timedOut)) == "cancelTask")
        #expect(Self.describe(machine.fail(.cancelled)) == "none")
        // The head raced the timer and lost.
        #expect(Self.describe(machine.headReceived(Self.head(), firstByte: .zero)) == "cancelTask")
        #expect(Self.describe(machine.completed(.cancelled, fallbackHead: nil)) == "failCaller(timedOut)")
    }

    @Test("a cancellation mid-body drops the body so far and later chunks")
    func cancelledMidBody() {
        var machine = Self.started()
        _ = machine.headReceived(Self.head(), firstByte: .zero)
        _ = machine.bodyReceived(Self.bytes("abc"))
        #expect(Self.describe(machine.fail(.cancelled)) == "cancelTask")
        #expect(Self.describe(machine.bodyReceived(Self.bytes("def"))) == "drop")
        #expect(Self.describe(machine.completed(nil, fallbackHead: nil)) == "failCaller(cancelled)")
    }

    // MARK: Streaming

    @Test("a streaming exchange delivers the head at once, yields each chunk, and ends the body at completion")
    func streamingHappyPath() {
        var machine = Self.started(.streaming)
        #expect(Self.describe(machine.headReceived(Self.head(), firstByte: .zero)) == "deliverHead(200)")
        #expect(Self.describe(machine.bodyReceived(Self.bytes("ab"))) == "yield(2, 2)")
        #expect(Self.describe(machine.bodyReceived(Self.bytes("cde"))) == "yield(3, 5)")
        #expect(Self.describe(machine.completed(nil, fallbackHead: nil)) == "finishBody(nil)")
        #expect(Self.describe(machine.fail(.cancelled)) == "none")
    }

    @Test("a streamed body that breaks off ends with URLSession's error")
    func streamingLost() {
        var machine = Self.started(.streaming)
        _ = machine.headReceived(Self.head(), firstByte: .zero)
        #expect(Self.describe(machine.completed(Self.lost, fallbackHead: nil)) == "finishBody(connectionLost)")
    }

    @Test("a reader gone mid-stream ends the body with the cancellation at once and stops the task")
    func readerGone() {
        var machine = Self.started(.streaming)
        _ = machine.headReceived(Self.head(), firstByte: .zero)
        #expect(Self.describe(machine.fail(.cancelled)) == "cancelTaskAndFinishBody(cancelled)")
        #expect(Self.describe(machine.bodyReceived(Self.bytes("late"))) == "drop")
        #expect(Self.describe(machine.completed(.cancelled, fallbackHead: nil)) == "none")
    }

    @Test("a streaming exchange failed before its head fails the caller at completion")
    func streamingFailsBeforeHead() {
        var machine = Self.started(.streaming)
        #expect(Self.describe(machine.fail(Self.timedOut)) == "cancelTask")
        #expect(Self.describe(machine.completed(.cancelled, fallbackHead: nil)) == "failCaller(timedOut)")
    }

    // MARK: Challenges

    @Test("a 401 challenge, then URLSession's cancellation: the challenge's status is the answer, in both modes")
    func challengeBecomesStatus() {
        var buffered = Self.started()
        buffered.challenged(Self.head(401))
        #expect(
            Self.describe(buffered.completed(.cancelled, fallbackHead: nil)) == "succeed(401, )")
        var streaming = Self.started(.streaming)
        streaming.challenged(Self.head(407))
        #expect(
            Self.describe(streaming.completed(.cancelled, fallbackHead: nil)) == "deliverHeadWithoutBody(407)")
    }

    @Test("a challenge whose response then arrives answers with that response and its body")
    func challengeThenResponse() {
        var machine = Self.started()
        machine.challenged(Self.head(401))
        _ = machine.headReceived(Self.head(401, location: nil), firstByte: .zero)
        _ = machine.bodyReceived(Self.bytes("denied"))
        #expect(Self.describe(machine.completed(.cancelled, fallbackHead: nil)) == "succeed(401, denied)")
    }

    @Test("a failure Errand decided wins over a challenge")
    func failureWinsOverChallenge() {
        var machine = Self.started()
        machine.challenged(Self.head(401))
        _ = machine.fail(Self.timedOut)
        #expect(Self.describe(machine.completed(.cancelled, fallbackHead: nil)) == "failCaller(timedOut)")
    }
}
