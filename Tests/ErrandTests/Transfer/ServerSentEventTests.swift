import Errand
import ErrandTesting
import Foundation
import TestSupport
import Testing

/// Server-Sent Events against the project's SSE server (Tests/Servers/sse_server.py), over every transport.
@Suite("Server-Sent Events on the wire", .enabled(if: TestServer.sse.isUsable))
struct ServerSentEventTests {
    // swift-format-ignore: AlwaysUseLowerCamelCase
    // The fields are the server's JSON keys.
    struct LogEntry: Decodable, Sendable {
        var path: String
        var last_event_id: String?
        var accept: String?
        var cache_control: String?
    }

    func client(_ kind: TransportKind, clock: any Clock<Duration> = ContinuousClock()) throws -> APIClient {
        var configuration = ClientConfiguration(baseURL: try TestServer.sse.url(), transport: kind.make(), clock: clock)
        configuration.timeout = .seconds(20)
        return APIClient(configuration: configuration)
    }

    func log(_ client: APIClient, key: String) async throws -> [LogEntry] {
        try await client.send(Request<[LogEntry]>(path: "__log", query: [QueryItem("key", key)])).value
    }

    // Below the default floor of 100 ms, so that the server's own 30 ms retry is what the waits show.
    static let fast = ReconnectionPolicy(
        initialDelay: .milliseconds(20), minimumDelay: .milliseconds(10), jitter: false, maxConsecutiveFailures: 3)

    @Test("the spec's examples arrive parsed, written a few bytes at a time", arguments: TransportKind.allCases)
    func specStream(kind: TransportKind) async throws {
        let client = try client(kind)
        var events: [ServerSentEvent] = []
        for try await event in client.events(Request(path: "spec/\(UUID())"), reconnection: Self.fast) {
            events.append(event)
            if events.count == 5 { break }
        }
        #expect(
            events == [
                ServerSentEvent(data: "first\nsecond"),
                ServerSentEvent(event: "named", data: " two spaces"),
                ServerSentEvent(id: "7", data: ""),
                ServerSentEvent(id: "7", data: "third", retry: .milliseconds(250)),
                ServerSentEvent(id: nil, data: "fourth"),
            ])
    }

    @Test(
        "reconnects after each drop with Last-Event-ID and the server's retry, and stops on 204",
        arguments: TransportKind.allCases)
    func reconnects(kind: TransportKind) async throws {
        let clock = ManualClock()
        let client = try client(kind, clock: clock)
        let key = "reconnect-\(kind)-\(UUID())"
        let request = Request<Data>(
            path: "events/\(key)",
            query: [QueryItem("total", "7"), QueryItem("per_connection", "3"), QueryItem("retry", "30")])
        // The reconnection waits run on the manual clock, moved on as soon as each begins.
        let received = try await clock.run {
            var received: [(event: ServerSentEvent, at: Duration)] = []
            for try await event in client.events(request, reconnection: Self.fast) {
                received.append((event, clock.now.offset))
            }
            return received
        }
        for (event, _) in received {
            #expect(event.event == "tick")
            #expect(event.data == "event \(event.id ?? "?")")
        }
        #expect(received.map(\.event.id) == ["1", "2", "3", "4", "5", "6", "7"])
        // Each connection's events arrive after one more wait of the server's 30 ms, not the policy's 20 ms.
        #expect(received.map(\.at) == [0, 0, 0, 30, 30, 30, 60].map { Duration.milliseconds($0) })
        let entries = try await log(client, key: key)
        // Three connections of events, then the one answered 204.
        #expect(entries.map(\.last_event_id) == [nil, "3", "6", "7"])
        #expect(entries.allSatisfy { $0.accept == "text/event-stream" && $0.cache_control == "no-cache" })
        // The third wait came before the connection that was answered 204.
        #expect(clock.now.offset == .milliseconds(90))
    }

    @Test("204 at the first connection ends the sequence without events", arguments: TransportKind.allCases)
    func noContent(kind: TransportKind) async throws {
        let client = try client(kind)
        var request = Request<Data>(path: "events/\(UUID())", query: [QueryItem("total", "2")])
        request.headers["Last-Event-ID"] = "2"
        var count = 0
        for try await _ in client.events(request, reconnection: Self.fast) { count += 1 }
        #expect(count == 0)
    }

    @Test(
        "another status fails with unacceptableStatus, a wrong type with a decoding failure",
        arguments: TransportKind.allCases)
    func failures(kind: TransportKind) async throws {
        let client = try client(kind)
        let status = await #expect(throws: ErrandError.self) {
            for try await _ in client.events(Request(path: "status/\(UUID())/503"), reconnection: Self.fast) {}
        }
        guard case .unacceptableStatus(let failure)? = status else {
            Issue.record("expected unacceptableStatus, got \(String(describing: status))")
            return
        }
        #expect(failure.status == 503)
        #expect(failure.bodyExcerpt.contains("status 503"))
        let type = await #expect(throws: ErrandError.self) {
            for try await _ in client.events(Request(path: "wrong-type/\(UUID())"), reconnection: Self.fast) {}
        }
        guard case .decoding(let decoding)? = type else {
            Issue.record("expected decoding, got \(String(describing: type))")
            return
        }
        #expect(decoding.contentType == "text/html")
        #expect(decoding.isHTML)
    }

    // Measures real time, through the server: it answers 200 only if it saw the close within 2 s.
    @Test("cancelling the consuming task closes the connection (real time)", arguments: TransportKind.allCases)
    func cancellationClosesRealTime(kind: TransportKind) async throws {
        let client = try client(kind)
        let key = "hold-\(kind)-\(UUID())"
        let (received, receivedContinuation) = AsyncStream.makeStream(of: ServerSentEvent.self)
        let reader = Task {
            for try await event in client.events(Request(path: "hold/\(key)"), reconnection: Self.fast) {
                receivedContinuation.yield(event)
            }
        }
        var iterator = received.makeAsyncIterator()
        let first = await iterator.next()
        #expect(first?.data == "held")
        reader.cancel()
        let closed = try await client.send(Request<Data>(path: "closed/\(key)", query: [QueryItem("timeout", "10")]))
        #expect(closed.status == 200)
        let outcome = await reader.result
        guard case .failure(let error) = outcome, case .cancelled? = error as? ErrandError else {
            Issue.record("expected cancelled, got \(outcome)")
            return
        }
    }

    @Test("leaving the loop early closes the connection", arguments: TransportKind.allCases)
    func breakCloses(kind: TransportKind) async throws {
        let client = try client(kind)
        let key = "break-\(kind)-\(UUID())"
        for try await event in client.events(Request(path: "hold/\(key)"), reconnection: Self.fast) {
            #expect(event.data == "held")
            break
        }
        let closed = try await client.send(Request<Data>(path: "closed/\(key)", query: [QueryItem("timeout", "10")]))
        #expect(closed.status == 200)
    }

    @Test("StreamingResponse delivers chunks as they arrive, before the body ends", arguments: TransportKind.allCases)
    func streamsBeforeTheEnd(kind: TransportKind) async throws {
        let client = try client(kind)
        let key = "hold-stream-\(kind)-\(UUID())"
        let response = try await client.stream(Request(path: "hold/\(key)"))
        var iterator = response.body.makeAsyncIterator()
        // The server holds the connection open after its first event: only a transport that streams hands it over.
        let chunk = try await iterator.next()
        #expect(chunk.map { String(decoding: $0, as: UTF8.self) } == "id: 1\ndata: held\n\n")
    }
}
