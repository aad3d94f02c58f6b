@testable import Errand
import Foundation
import Testing

/// The reconnection waits an event stream's server controls (`retry:`) and the ones its failures make: floored,
/// growing from any value, capped, and never an overflow.
@Suite("Server-Sent Events: reconnection waits a server cannot break")
struct EventStreamBackoffTests {
    let lost = ErrandError.transport(TransportFailure(kind: .connectionLost, underlying: "dropped"))

    /// A machine that has failed `failures` times in a row, connecting again.
    func machine(_ policy: ReconnectionPolicy, failures: Int, serverRetry: Duration? = nil) -> EventStreamStateMachine {
        var machine = EventStreamStateMachine(policy: policy, random: { 0 })
        _ = machine.start()
        for _ in 0..<failures {
            _ = machine.connectFailed(lost, serverRetry: serverRetry)
            _ = machine.waited()
        }
        return machine
    }

    @Test("retry: 0 waits the 100 ms floor, and failures double from there up to the maximum")
    func zeroRetryIsFloored() {
        var machine = machine(ReconnectionPolicy(maxConsecutiveFailures: nil), failures: 0)
        var waits: [Duration] = []
        for _ in 0..<11 {
            guard case .wait(let wait) = machine.connectFailed(lost, serverRetry: .zero) else {
                Issue.record("expected a wait")
                return
            }
            waits.append(wait)
            _ = machine.waited()
        }
        #expect(
            waits
                == [100, 200, 400, 800, 1_600, 3_200, 6_400, 12_800, 25_600, 30_000, 30_000].map {
                    Duration.milliseconds($0)
                })
    }

    @Test("a drop after events waits at least the floor, however small the server's retry")
    func dropAfterEventsIsFloored() {
        var machine = EventStreamStateMachine(policy: .default, random: { 0 })
        _ = machine.start()
        _ = machine.opened(status: 200, contentType: "text/event-stream")
        machine.eventReceived()
        #expect(machine.ended(lost, serverRetry: .milliseconds(3)) == .wait(.milliseconds(100)))
    }

    @Test("an initial delay of zero still backs off, from the floor")
    func zeroInitialDelayGrows() {
        let policy = ReconnectionPolicy(initialDelay: .zero, minimumDelay: .zero, jitter: false)
        var machine = machine(policy, failures: 0)
        #expect(machine.connectFailed(lost, serverRetry: nil) == .wait(.milliseconds(1)))
        _ = machine.waited()
        #expect(machine.connectFailed(lost, serverRetry: nil) == .wait(.milliseconds(2)))
    }

    @Test("jitter never takes a wait below the floor")
    func jitterKeepsTheFloor() {
        var machine = EventStreamStateMachine(
            policy: ReconnectionPolicy(initialDelay: .milliseconds(100)), random: { 0 })
        _ = machine.start()
        #expect(machine.connectFailed(lost, serverRetry: nil) == .wait(.milliseconds(100)))
    }

    @Test("15 failures with retry: 0, then retry: 9223372036854775807: a wait, not a trap")
    func hugeRetryAfterManyFailures() {
        let policy = ReconnectionPolicy(maxConsecutiveFailures: nil)
        var machine = machine(policy, failures: 15, serverRetry: .zero)
        let huge = Duration.milliseconds(Int64.max)
        // The parser clamps retry to a day; the machine must hold even for what it is not given.
        #expect(machine.connectFailed(lost, serverRetry: huge) == .wait(huge))
        _ = machine.waited()
        #expect(machine.connectFailed(lost, serverRetry: ServerSentEventParser.longestRetry) == .wait(.seconds(86_400)))
    }

    @Test(
        "any retry, any policy and any count of failures give a wait within the floor and the ceiling",
        arguments: [0, 1, 30, 62, 63, 1_000])
    func waitsStayInRange(failures: Int) {
        let retries: [Duration?] = [
            nil, .zero, .milliseconds(-5), .milliseconds(1), .seconds(86_400), .seconds(Int64.max),
            .milliseconds(Int64.max),
        ]
        let policies = [
            ReconnectionPolicy.default,
            ReconnectionPolicy(initialDelay: .seconds(Int64.max), maximumDelay: .seconds(Int64.max)),
            ReconnectionPolicy(initialDelay: .seconds(-1), maximumDelay: .seconds(-1), minimumDelay: .seconds(-1)),
        ]
        for policy in policies {
            let machine = machine(
                ReconnectionPolicy(
                    initialDelay: policy.initialDelay, maximumDelay: policy.maximumDelay,
                    minimumDelay: policy.minimumDelay, maxConsecutiveFailures: nil), failures: failures)
            for retry in retries {
                let wait = machine.delay(serverRetry: retry)
                let floor = max(policy.minimumDelay, .milliseconds(1))
                #expect(wait >= floor, "\(policy) \(String(describing: retry))")
                #expect(
                    wait <= max(policy.maximumDelay, retry ?? .zero, floor), "\(policy) \(String(describing: retry))")
            }
        }
    }

    @Test("by default, ten failed attempts in a row are retried and the eleventh fails the stream")
    func defaultCap() {
        var machine = machine(.default, failures: 10)
        #expect(machine.consecutiveFailures == 10)
        #expect(machine.connectFailed(lost, serverRetry: nil) == .fail(.failure(lost)))
        #expect(machine.state == .finished)
    }

    @Test("an event or line over the cap fails an open stream; elsewhere it does nothing")
    func refusedBody() {
        var machine = EventStreamStateMachine(policy: .default)
        #expect(machine.refused(.bodyTooLarge(limit: 8)) == .none)
        _ = machine.start()
        _ = machine.opened(status: 200, contentType: "text/event-stream")
        #expect(machine.refused(.bodyTooLarge(limit: 8)) == .fail(.failure(.bodyTooLarge(limit: 8))))
        #expect(machine.state == .finished)
    }
}
