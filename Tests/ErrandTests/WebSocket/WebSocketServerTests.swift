#if canImport(CCurl)
import Errand
import ErrandTesting
import Foundation
import TestSupport
import Testing

/// A client of a test server over the curl transport, the one that speaks WebSocket on Linux.
func webSocketClient(
    _ server: TestServer, middleware: [any Middleware] = [], observers: [any ExchangeObserver] = [],
    clock: any Clock<Duration> = ContinuousClock()
) throws -> APIClient {
    APIClient(
        configuration: ClientConfiguration(
            baseURL: try server.url(), transport: CurlTransport(), middleware: middleware, observers: observers,
            clock: clock))
}

@Suite(
    "WebSocket against the websockets package",
    .enabled(if: TestServer.webSocket.isUsable && TestServer.nginxHTTP.isUsable))
struct WebSocketServerTests {
    @Test("text and binary messages come back as sent, 1 KB and 1 MB, and the close handshake ends the messages")
    func echo() async throws {
        let socket = try await webSocketClient(.webSocket).webSocket(Request(path: "/echo"))
        let big = Data((0..<(1 << 20)).map { UInt8($0 & 0xFF) })
        let sent: [WebSocketMessage] = [
            .text("hello"), .text("κόσμε, ünïcödé"), .binary(Data(repeating: 7, count: 1024)), .binary(big), .text(""),
        ]
        var iterator = socket.messages.makeAsyncIterator()
        for message in sent {
            try await socket.send(message)
            #expect(try await iterator.next() == message)
        }
        await socket.close(code: .normalClosure, reason: "done")
        #expect(try await iterator.next() == nil)
        #expect(await socket.closeCode == .normalClosure)
    }

    @Test("the server chooses among the subprotocols offered, or none")
    func subprotocols() async throws {
        let client = try webSocketClient(.webSocket)
        let chat = try await client.webSocket(
            Request(path: "/protocol"), options: .init(subprotocols: ["mqtt", "superchat"]))
        #expect(chat.subprotocol == "superchat")
        var messages = chat.messages.makeAsyncIterator()
        #expect(try await messages.next() == .text("superchat"))
        await chat.close()
        let plain = try await client.webSocket(Request(path: "/protocol"), options: .init(subprotocols: ["mqtt"]))
        #expect(plain.subprotocol == nil)
        var plainMessages = plain.messages.makeAsyncIterator()
        #expect(try await plainMessages.next() == .text("none"))
        await plain.close()
    }

    @Test("the server's close code and reason reach the caller", arguments: [1000, 1001, 1011, 3000, 4999])
    func closeCodes(code: Int) async throws {
        let socket = try await webSocketClient(.webSocket).webSocket(Request(path: "/close/\(code)"))
        try await socket.send(.text("close now"))
        for try await message in socket.messages { Issue.record("unexpected \(message)") }
        #expect(await socket.closeCode == WebSocketCloseCode(rawValue: UInt16(code)))
        #expect(await socket.closeReason == "bye")
    }

    @Test("the handshake goes through the middleware and the observers, with secrets redacted")
    func handshakeThroughTheExchange() async throws {
        let recorder = ExchangeRecorder()
        let client = try webSocketClient(
            .webSocket, middleware: [APIKey("secret-key", in: .header("Authorization"))], observers: [recorder])
        let socket = try await client.webSocket(Request(path: "/headers", headers: ["X-Extra": "yes"]))
        var messages = socket.messages.makeAsyncIterator()
        guard case .text(let json) = try await messages.next() else {
            Issue.record("no headers message")
            return
        }
        let headers = try JSONDecoder().decode([String: String].self, from: Data(json.utf8))
        #expect(headers["authorization"] == "secret-key")
        #expect(headers["x-extra"] == "yes")
        #expect(headers["sec-websocket-version"] == "13")
        await socket.close()
        let event = try #require(recorder.events.first)
        #expect(event.status == 101)
        #expect(event.requestHeaders["Authorization"] != "secret-key")
    }

    @Test("a server message larger than the limit fails the connection with 1009")
    func messageTooBig() async throws {
        let socket = try await webSocketClient(.webSocket).webSocket(
            Request(path: "/big/2000000"), options: .init(maxMessageSize: 1 << 20))
        await #expect(throws: ErrandError.self) {
            for try await _ in socket.messages {}
        }
        #expect(await socket.closeCode == nil)
    }

    @Test("a path that is not a WebSocket fails the handshake with the server's status")
    func notAWebSocket() async throws {
        let client = try webSocketClient(.nginxHTTP)
        do throws(ErrandError) {
            _ = try await client.webSocket(Request(path: "/no-such-websocket"))
            Issue.record("no failure")
        } catch .unacceptableStatus(let failure) {
            #expect(failure.status == 404)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("keep-alive pings on the manual clock: a server that answers keeps the connection")
    func keepAliveAnswered() async throws {
        let clock = ManualClock()
        let socket = try await webSocketClient(.webSocket, clock: clock).webSocket(
            Request(path: "/echo"), options: .init(pingInterval: .seconds(5), pongTimeout: .seconds(5)))
        var messages = socket.messages.makeAsyncIterator()
        await clock.sleepers(1)
        clock.advance(by: .seconds(5))
        // The keep-alive task sleeps on the pong timeout only once its ping is written.
        await clock.sleepers(1)
        // The server answers the ping before it echoes what followed it, so the pong is read by then.
        try await socket.send(.text("after the ping"))
        #expect(try await messages.next() == .text("after the ping"))
        clock.advance(by: .seconds(5))
        await clock.sleepers(1)
        try await socket.send(.text("still open"))
        #expect(try await messages.next() == .text("still open"))
        await socket.close()
    }
}
#endif
