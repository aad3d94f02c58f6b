import Errand
import ErrandTesting
import Foundation
import TestSupport
import Testing

/// Event streams from a hostile server (the raw-socket ``HostileServer``), on every transport: a line that never
/// ends, data that never makes an event, `retry: 0` and a `retry:` past any clock. Each ends as a typed error in
/// bounded memory and a bounded number of connections; none traps.
@Suite("Hostile event streams, on every transport")
struct HostileEventStreamTests {
    static let head = ["HTTP/1.1 200 OK", "Content-Type: text/event-stream", "Connection: close"]

    static func client(_ server: HostileServer, _ kind: TransportKind, clock: any Clock<Duration> = ContinuousClock())
        -> APIClient
    {
        var configuration = ClientConfiguration(baseURL: server.url(), transport: kind.make(), clock: clock)
        configuration.timeout = .seconds(20)
        return APIClient(configuration: configuration)
    }

    /// The cap a `bodyTooLarge` names, or `nil` for any other outcome.
    static func cap(_ failure: ErrandError?) -> Int? {
        guard case .bodyTooLarge(let limit)? = failure else { return nil }
        return limit
    }

    /// Reads `stream` to its end; the events before the failure, and the failure.
    static func drain(_ stream: ServerSentEventStream) async -> (events: [ServerSentEvent], failure: ErrandError?) {
        var events: [ServerSentEvent] = []
        do {
            for try await event in stream { events.append(event) }
            return (events, nil)
        } catch {
            return (events, error)
        }
    }

    @Test(
        "a line that never ends fails at the 1 MiB default cap, after the events before it",
        arguments: TransportKind.allCases)
    func endlessLine(kind: TransportKind) async throws {
        let body = Array("data: first\n\ndata: ".utf8) + Array(repeating: UInt8(ascii: "a"), count: 8 << 20)
        let server = try HostileServer(head: Self.head, body: body)
        let stream = Self.client(server, kind).events(Request(path: "events"))
        let (events, failure) = await Self.drain(stream)
        #expect(events.map(\.data) == ["first"])
        #expect(Self.cap(failure) == 1 << 20, "\(kind): \(String(describing: failure))")
        #expect(server.servedRequests <= 1)
    }

    @Test(
        "data lines that never end an event fail at the stream's own cap, which the call sets",
        arguments: TransportKind.allCases)
    func endlessEvent(kind: TransportKind) async throws {
        let line = "data: " + String(repeating: "b", count: 1_000) + "\n"
        let body = Array(String(repeating: line, count: 2_000).utf8)
        let server = try HostileServer(head: Self.head, body: body)
        let stream = Self.client(server, kind).events(Request(path: "events"), maxEventSize: 64 * 1024)
        let (events, failure) = await Self.drain(stream)
        #expect(events.isEmpty)
        #expect(Self.cap(failure) == 64 * 1024, "\(kind): \(String(describing: failure))")
    }

    @Test("comment lines of any length are skipped, never held, and end no stream", arguments: TransportKind.allCases)
    func longComment(kind: TransportKind) async throws {
        let comment = Array(":".utf8) + Array(repeating: UInt8(ascii: "c"), count: 4 << 20) + Array("\n".utf8)
        let body = comment + Array("data: after\n\n".utf8)
        let server = try HostileServer(head: Self.head, body: body)
        let stream = Self.client(server, kind).events(Request(path: "events"))
        var events: [ServerSentEvent] = []
        for try await event in stream {
            events.append(event)
            break
        }
        #expect(events.map(\.data) == ["after"])
    }

    @Test(
        "retry: 0 on every connection: waits from the 100 ms floor, doubling to 30 s, until 10 failures in a row",
        arguments: TransportKind.allCases)
    func retryZeroStorm(kind: TransportKind) async throws {
        let server = try HostileServer(head: Self.head, body: Array("retry: 0\n\n".utf8))
        let clock = ManualClock()
        let stream = Self.client(server, kind, clock: clock).events(Request(path: "events"))
        let failure = try await clock.run { await Self.drain(stream).failure }
        guard case .transport(let transport)? = failure else {
            Issue.record("\(kind): expected a transport failure, got \(String(describing: failure))")
            return
        }
        #expect(transport.kind == .connectionLost)
        // The first connection and ten reconnections, the last of which fails the stream.
        #expect(server.servedRequests == 11)
        let waits = [100, 200, 400, 800, 1_600, 3_200, 6_400, 12_800, 25_600, 30_000]
        #expect(clock.now.offset == .milliseconds(waits.reduce(0, +)))
    }

    @Test(
        "retry: 9223372036854775807 after retry: 0 neither traps nor waits past a day a reconnection",
        arguments: TransportKind.allCases)
    func retryPastAnyClock(kind: TransportKind) async throws {
        let server = try HostileServer(
            head: Self.head, body: Array("retry: 0\n\nretry: 9223372036854775807\n\n".utf8))
        let clock = ManualClock()
        let policy = ReconnectionPolicy(maxConsecutiveFailures: 3)
        let stream = Self.client(server, kind, clock: clock).events(Request(path: "events"), reconnection: policy)
        let failure = try await clock.run { await Self.drain(stream).failure }
        #expect(failure != nil)
        #expect(server.servedRequests == 4)
        #expect(clock.now.offset == .seconds(3 * 86_400))
    }

    @Test(
        "a server that sends one event a connection and closes is reconnected to at most every 100 ms",
        arguments: TransportKind.allCases)
    func retryZeroWithEvents(kind: TransportKind) async throws {
        let server = try HostileServer(head: Self.head, body: Array("retry: 0\ndata: x\n\n".utf8))
        let clock = ManualClock()
        let stream = Self.client(server, kind, clock: clock).events(Request(path: "events"))
        let count = try await clock.run {
            var count = 0
            for try await _ in stream {
                count += 1
                if count == 20 { break }
            }
            return count
        }
        #expect(count == 20)
        // Nineteen waits between twenty connections, each the floor.
        #expect(clock.now.offset == .milliseconds(19 * 100))
    }
}
