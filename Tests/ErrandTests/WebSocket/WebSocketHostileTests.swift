#if canImport(CCurl)
@testable import Errand
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
        "a broken frame fails the connection with the code the RFC gives it", .timeLimit(.minutes(1)),
        arguments: [
            ("/invalid-utf8", 1007), ("/invalid-utf8-split", 1007), ("/long-control", 1002), ("/masked", 1002),
            ("/reserved-bits", 1002), ("/oversize-frame", 1009),
            // Autobahn 6.4.3 and 6.4.4: the bytes that are not UTF-8 fail the connection before the frame is whole
            // (the server withholds its rest, so waiting for it would never end).
            ("/invalid-utf8-early", 1007), ("/invalid-utf8-early-fragment", 1007),
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

    /// Sends `size` bytes in one message from a task of its own; returns once the write is under way.
    private func stuckSend(_ socket: WebSocket, size: Int = 32 << 20) async -> Task<ErrandError?, Never> {
        let sending = Task { () async -> ErrandError? in
            do throws(ErrandError) {
                try await socket.send(.binary(Data(count: size)))
                return nil
            } catch {
                return error
            }
        }
        while await socket.unfinishedWrites == 0 { await Task.yield() }
        return sending
    }

    @Test(
        "close() behind a send the server never reads ends at its timeout, failing the send and the reader",
        .timeLimit(.minutes(1)))
    func closeBehindStuckSend() async throws {
        let clock = ManualClock()
        let socket = try await open(
            "/never-reads", key: UUID().uuidString, options: .init(closeTimeout: .seconds(2), compression: nil),
            clock: clock)
        let reader = Task { await failure(reading: socket) }
        let sending = await stuckSend(socket)
        let closing = Task { await socket.close() }
        await clock.sleepers(1)  // the close timeout, started before the close frame could be written
        clock.advance(by: .seconds(2))
        await closing.value
        guard case .transport(let sendFailure) = await sending.value else {
            Issue.record("the stuck send did not fail")
            return
        }
        #expect(sendFailure.kind == .connectionLost)
        guard case .transport(let readFailure) = await reader.value else {
            Issue.record("the reader did not fail")
            return
        }
        #expect(readFailure.kind == .connectionLost)
        #expect(await socket.closeCode == nil)
        await #expect(throws: ErrandError.self) { try await socket.send(.text("after")) }
    }

    @Test(
        "a keep-alive ping behind a send the server never reads times out; the connection drops at the close timeout",
        .timeLimit(.minutes(1)))
    func keepAliveBehindStuckSend() async throws {
        let clock = ManualClock()
        let options = WebSocketOptions(
            pingInterval: .seconds(5), pongTimeout: .seconds(3), closeTimeout: .seconds(2), compression: nil)
        let socket = try await open("/never-reads", key: UUID().uuidString, options: options, clock: clock)
        let sending = await stuckSend(socket)
        await clock.sleepers(1)
        clock.advance(by: .seconds(5))  // the ping is queued behind the send
        await clock.sleepers(1)
        clock.advance(by: .seconds(3))  // no pong: the 1011 close is due, and its timeout starts
        await clock.sleepers(1)
        clock.advance(by: .seconds(2))
        guard case .transport(let failure) = await sending.value else {
            Issue.record("the stuck send did not fail")
            return
        }
        #expect(failure.kind == .connectionLost)
    }

    @Test("cancelling a stuck send drops the connection at once", .timeLimit(.minutes(1)))
    func cancelledStuckSend() async throws {
        let socket = try await open("/never-reads", key: UUID().uuidString, options: .init(compression: nil))
        let sending = await stuckSend(socket)
        sending.cancel()
        guard case .cancelled = await sending.value else {
            Issue.record("the send did not end cancelled")
            return
        }
        guard case .transport(let failure) = await failure(reading: socket) else {
            Issue.record("the connection did not fail")
            return
        }
        #expect(failure.kind == .connectionLost)
    }

    @Test(
        "a reader cancelled while the pong it owes cannot be written ends at once", .timeLimit(.minutes(1)))
    func cancelledReaderBehindPong() async throws {
        let key = UUID().uuidString
        let socket = try await open("/never-reads-pings", key: key, options: .init(compression: nil))
        let reader = Task { await failure(reading: socket) }
        // The server saw the client stop reading: the reader waits on a pong write the server does not take.
        #expect(try await report(key + "/stalled").reason == "stalled")
        while await socket.unfinishedWrites == 0 { await Task.yield() }
        reader.cancel()
        guard case .cancelled = await reader.value else {
            Issue.record("the reader did not end cancelled")
            return
        }
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
