#if canImport(CCurl)
import Errand
import ErrandTesting
import Foundation
import TestSupport
import Testing

@Suite("WebSocket against a hostile server", .enabled(if: TestServer.webSocketHostile.isUsable))
struct WebSocketHostileTests {
    private struct Report: Decodable {
        var close: Int?
        var reason: String?
    }

    /// The close code the server received from the client on the connection of `key`.
    private func report(_ key: String) async throws -> Report {
        let client = try webSocketClient(.webSocketHostile)
        return try await client.send(Request<Report>(path: "/report", query: [QueryItem("key", key)])).value
    }

    private func open(
        _ path: String, key: String, options: WebSocketOptions = WebSocketOptions(),
        clock: any Clock<Duration> = ContinuousClock()
    )
        async throws -> WebSocket
    {
        try await webSocketClient(.webSocketHostile, clock: clock).webSocket(
            Request(path: path, query: [QueryItem("key", key)]), options: options)
    }

    private func failure(reading socket: WebSocket) async -> ErrandError? {
        do {
            for try await _ in socket.messages {}
            return nil
        } catch {
            return error
        }
    }

    @Test(
        "a broken frame fails the connection with the code the RFC gives it",
        arguments: [
            ("/invalid-utf8", 1007), ("/invalid-utf8-split", 1007), ("/long-control", 1002), ("/masked", 1002),
            ("/reserved-bits", 1002), ("/oversize-frame", 1009),
        ])
    func violations(path: String, code: Int) async throws {
        let key = UUID().uuidString
        let socket = try await open(path, key: key)
        let error = await failure(reading: socket)
        guard case .transport(let failure) = error else {
            Issue.record("expected a transport failure, got \(String(describing: error))")
            return
        }
        #expect(failure.kind == .badResponse)
        #expect(try await report(key).close == code)
    }

    @Test("a 100 MB message in fragments against a 1 MB limit fails with 1009 without reading it all")
    func oversizeMessage() async throws {
        let socket = try await open("/oversize", key: UUID().uuidString, options: .init(maxMessageSize: 1 << 20))
        guard case .transport(let failure) = await failure(reading: socket) else {
            Issue.record("no transport failure")
            return
        }
        #expect(failure.underlying.contains("1009"))
    }

    @Test("a frame written one byte at a time arrives whole, then the server's close")
    func byteByByte() async throws {
        let key = UUID().uuidString
        let socket = try await open("/split", key: key)
        var received: [WebSocketMessage] = []
        for try await message in socket.messages { received.append(message) }
        #expect(received == [.text("one byte at a time")])
        #expect(await socket.closeCode == .normalClosure)
        #expect(await socket.closeReason == "done")
        #expect(try await report(key).close == 1000)
    }

    @Test("a connection closed without a close frame is a lost connection, not a clean end")
    func abrupt() async throws {
        let socket = try await open("/abrupt", key: UUID().uuidString)
        guard case .transport(let failure) = await failure(reading: socket) else {
            Issue.record("no transport failure")
            return
        }
        #expect(failure.kind == .connectionLost)
        #expect(await socket.closeCode == nil)
    }

    @Test("a wrong Sec-WebSocket-Accept fails the handshake")
    func badAccept() async throws {
        let client = try webSocketClient(.webSocketHostile)
        do throws(ErrandError) {
            _ = try await client.webSocket(Request(path: "/bad-accept"))
            Issue.record("no failure")
        } catch .transport(let failure) {
            #expect(failure.kind == .badResponse)
            #expect(failure.underlying.contains("Sec-WebSocket-Accept"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("an unanswered keep-alive ping fails the connection after the pong timeout, with 1011 sent")
    func unansweredPing() async throws {
        let clock = ManualClock()
        let key = UUID().uuidString
        let socket = try await open(
            "/silent", key: key, options: .init(pingInterval: .seconds(5), pongTimeout: .seconds(3)), clock: clock)
        let reader = Task { await failure(reading: socket) }
        await clock.sleepers(1)
        clock.advance(by: .seconds(5))
        await clock.sleepers(1)
        clock.advance(by: .seconds(3))
        guard case .transport(let failure) = await reader.value else {
            Issue.record("no transport failure")
            return
        }
        #expect(failure.kind == .connectionLost)
        #expect(try await report(key).close == 1011)
    }

    @Test("cancelling the reading task closes the connection with 1001")
    func cancelledReader() async throws {
        let key = UUID().uuidString
        let socket = try await open("/silent", key: key)
        let reader = Task { await failure(reading: socket) }
        reader.cancel()
        guard case .cancelled = await reader.value else {
            Issue.record("the reader did not end cancelled")
            return
        }
        #expect(try await report(key).close == 1001)
    }

    @Test("leaving the message loop closes the connection with 1001")
    func leftLoop() async throws {
        let key = UUID().uuidString
        let socket = try await open("/split", key: key)
        for try await _ in socket.messages { break }
        #expect(try await report(key).close == 1001)
    }
}
#endif
