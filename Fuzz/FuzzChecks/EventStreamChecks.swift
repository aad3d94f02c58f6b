import Foundation
@testable import Errand

/// The event-stream parser's promises, checked on arbitrary bytes: never a crash, the same events and the same end
/// however the bytes are cut, no event over the cap, a failure only as the cap's `bodyTooLarge`, a `retry:` within a
/// day, and reconnection waits that stay between the floor and the ceiling whatever it says.
///
/// Input: the first byte picks the cap (1 to 256 bytes, or the 1 MiB default for 0), the second how the rest is cut
/// (pieces of 1 to 255 bytes, or whole for 0); the rest is the stream.
enum EventStreamChecks {
    private struct Outcome: Equatable {
        var events: [ServerSentEvent]
        var failed: Bool
        var lastEventID: String?
        var reconnectionTime: Duration?
    }

    static func check(_ input: FuzzInput) -> Violations {
        guard input.bytes.count >= 2 else { return [] }
        let cap = input.bytes[0] == 0 ? ServerSentEventParser.defaultMaxEventSize : Int(input.bytes[0])
        let piece = Int(input.bytes[1])
        let stream = Array(input.bytes.dropFirst(2))
        var parser = ServerSentEventParser(maxEventSize: cap)
        let whole = outcome(&parser, stream, pieces: stream.count + 1)
        var cutParser = ServerSentEventParser(maxEventSize: cap)
        let cut = outcome(&cutParser, stream, pieces: piece == 0 ? stream.count + 1 : piece)
        var violations: Violations = []
        if whole != cut { violations.append("cut into \(piece)-byte pieces: \(cut), whole: \(whole)") }
        for event in whole.events where event.data.utf8.count > cap {
            violations.append("an event of \(event.data.utf8.count) bytes passed the cap of \(cap)")
        }
        if let failure = parser.failure {
            guard case .bodyTooLarge(let limit) = failure, limit == cap else {
                return violations + ["the parser failed with \(failure), not bodyTooLarge(limit: \(cap))"]
            }
        }
        if let time = whole.reconnectionTime, time < .zero || time > ServerSentEventParser.longestRetry {
            violations.append("retry gave \(time), outside a day")
        }
        violations += waitViolations(serverRetry: whole.reconnectionTime, failures: stream.count)
        return violations
    }

    /// Parses `bytes` in pieces of `pieces` bytes.
    private static func outcome(_ parser: inout ServerSentEventParser, _ bytes: [UInt8], pieces: Int) -> Outcome {
        var events: [ServerSentEvent] = []
        var start = 0
        while start < bytes.count {
            let end = min(start + pieces, bytes.count)
            events += parser.parse(bytes[start..<end])
            start = end
        }
        return Outcome(
            events: events, failed: parser.failure != nil, lastEventID: parser.lastEventID,
            reconnectionTime: parser.reconnectionTime)
    }

    /// The state machine's wait after `failures` failed attempts in a row, with what the server's `retry:` said.
    private static func waitViolations(serverRetry: Duration?, failures: Int) -> Violations {
        let policy = ReconnectionPolicy(maxConsecutiveFailures: nil)
        var machine = EventStreamStateMachine(policy: policy, random: { 0 })
        _ = machine.start()
        let failure = ErrandError.transport(TransportFailure(kind: .connectionLost, underlying: "fuzz"))
        var violations: Violations = []
        for _ in 0...(failures % 80) {
            guard case .wait(let wait) = machine.connectFailed(failure, serverRetry: serverRetry) else {
                return ["an attempt without a cap did not wait"]
            }
            let ceiling = max(policy.maximumDelay, serverRetry ?? .zero)
            if wait < policy.minimumDelay || wait > ceiling {
                violations.append(
                    "wait \(wait) after \(machine.consecutiveFailures) failures is outside the floor and \(ceiling)")
            }
            _ = machine.waited()
        }
        return violations
    }
}
