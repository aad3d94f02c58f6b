@testable import Errand
import Foundation
import Testing

@Suite("Server-Sent Events: the reconnection state machine")
struct EventStreamStateMachineTests {
    func machine(_ policy: ReconnectionPolicy = ReconnectionPolicy(initialDelay: .seconds(1), jitter: false))
        -> EventStreamStateMachine
    {
        EventStreamStateMachine(policy: policy, random: { 0 })
    }

    let lost = ErrandError.transport(TransportFailure(kind: .connectionLost, underlying: "dropped"))

    @Test("start connects; 200 text/event-stream reads")
    func opens() {
        var machine = machine()
        #expect(machine.start() == .connect)
        #expect(machine.opened(status: 200, contentType: "text/event-stream; charset=utf-8") == .read)
        #expect(machine.state == .open(eventsReceived: false))
    }

    @Test("204 finishes; other statuses and content types fail")
    func answers() {
        var noContent = machine()
        _ = noContent.start()
        #expect(noContent.opened(status: 204, contentType: nil) == .finish)
        var error = machine()
        _ = error.start()
        #expect(error.opened(status: 503, contentType: "text/event-stream") == .fail(.status(503)))
        var html = machine()
        _ = html.start()
        #expect(html.opened(status: 200, contentType: "text/html") == .fail(.contentType("text/html")))
        #expect(html.state == .finished)
        #expect(html.start() == .none)
    }

    @Test("a drop after events waits the server's retry exactly, then connects")
    func dropWaitsRetry() {
        var machine = machine()
        _ = machine.start()
        _ = machine.opened(status: 200, contentType: "text/event-stream")
        machine.eventReceived()
        #expect(machine.ended(lost, serverRetry: .milliseconds(250)) == .wait(.milliseconds(250)))
        #expect(machine.waited() == .connect)
        #expect(machine.state == .connecting)
    }

    @Test("failed attempts back off, doubling up to the maximum; an event resets the count")
    func backoff() {
        var machine = machine(ReconnectionPolicy(initialDelay: .seconds(1), maximumDelay: .seconds(5), jitter: false))
        _ = machine.start()
        #expect(machine.connectFailed(lost, serverRetry: nil) == .wait(.seconds(1)))
        _ = machine.waited()
        #expect(machine.connectFailed(lost, serverRetry: nil) == .wait(.seconds(2)))
        _ = machine.waited()
        #expect(machine.connectFailed(lost, serverRetry: nil) == .wait(.seconds(4)))
        _ = machine.waited()
        #expect(machine.connectFailed(lost, serverRetry: nil) == .wait(.seconds(5)))
        _ = machine.waited()
        _ = machine.opened(status: 200, contentType: "text/event-stream")
        machine.eventReceived()
        #expect(machine.consecutiveFailures == 0)
        #expect(machine.ended(nil, serverRetry: nil) == .wait(.seconds(1)))
    }

    @Test("jitter spreads a default wait over its upper half; a server's retry is never jittered")
    func jitter() {
        var low = EventStreamStateMachine(policy: ReconnectionPolicy(initialDelay: .seconds(2)), random: { 0 })
        _ = low.start()
        #expect(low.connectFailed(lost, serverRetry: nil) == .wait(.seconds(1)))
        var high = EventStreamStateMachine(policy: ReconnectionPolicy(initialDelay: .seconds(2)), random: { 1 })
        _ = high.start()
        #expect(high.connectFailed(lost, serverRetry: nil) == .wait(.seconds(2)))
        #expect(high.delay(serverRetry: .milliseconds(300)) == .milliseconds(300))
    }

    @Test("a connection that ends without an event counts as a failure")
    func emptyConnection() {
        var machine = machine()
        _ = machine.start()
        _ = machine.opened(status: 200, contentType: "text/event-stream")
        #expect(machine.ended(nil, serverRetry: nil) == .wait(.seconds(1)))
        #expect(machine.consecutiveFailures == 1)
    }

    @Test("too many failures in a row fail with the last one; a non-transport failure fails at once")
    func limits() {
        var machine = machine(
            ReconnectionPolicy(
                initialDelay: .milliseconds(1), minimumDelay: .milliseconds(1), jitter: false, maxConsecutiveFailures: 1
            ))
        _ = machine.start()
        #expect(machine.connectFailed(lost, serverRetry: nil) == .wait(.milliseconds(1)))
        _ = machine.waited()
        #expect(machine.connectFailed(lost, serverRetry: nil) == .fail(.failure(lost)))
        var refused = self.machine()
        _ = refused.start()
        #expect(
            refused.connectFailed(.insecureURL(URL(string: "http://example.com")!), serverRetry: nil)
                == .fail(.failure(.insecureURL(URL(string: "http://example.com")!))))
    }

    @Test("cancellation finishes from any state; later events do nothing")
    func cancellation() {
        var machine = machine()
        _ = machine.start()
        _ = machine.opened(status: 200, contentType: "text/event-stream")
        #expect(machine.cancelled() == .fail(.failure(.cancelled)))
        #expect(machine.ended(nil, serverRetry: nil) == .none)
        #expect(machine.waited() == .none)
        #expect(machine.cancelled() == .none)
    }
}
