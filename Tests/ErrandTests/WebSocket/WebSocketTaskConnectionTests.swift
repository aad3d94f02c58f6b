import Foundation
import Testing

@testable import Errand

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The URLSession path of ``APIClient/webSocket(_:options:)`` from the handshake to the close, over a scripted task:
/// the same exchange, codec and state machine as on an Apple platform, without URLSession's socket.
@Suite("WebSocket over URLSession's task (scripted)")
struct WebSocketTaskConnectionTests {
    private func client(
        _ transport: ScriptedWebSocketTransport, middleware: [any Middleware] = [],
        observers: [any ExchangeObserver] = []
    ) -> APIClient {
        APIClient(
            configuration: ClientConfiguration(
                baseURL: URL(string: "http://127.0.0.1:9/")!, transport: transport, middleware: middleware,
                observers: observers))
    }

    @Test("messages go out as the task's messages and come back whole; close sends its code and reason")
    func echoAndClose() async throws {
        let transport = ScriptedWebSocketTransport(subprotocol: "superchat")
        let socket = try await client(transport).webSocket(
            Request(path: "/echo"), options: .init(subprotocols: ["chat", "superchat"]))
        #expect(socket.subprotocol == "superchat")
        var messages = socket.messages.makeAsyncIterator()
        let sent: [WebSocketMessage] = [.text("hello"), .binary(Data(repeating: 7, count: 70_000)), .text("")]
        for message in sent {
            try await socket.send(message)
            #expect(try await messages.next() == message)
        }
        await socket.close(code: .normalClosure, reason: "done")
        #expect(try await messages.next() == nil)
        #expect(await socket.closeCode == .normalClosure)
        let cancels = transport.task.script.withLock { $0.cancels }
        #expect(cancels.first?.0 == .normalClosure)
        #expect(cancels.first?.1 == Data("done".utf8))
    }

    @Test("the handshake goes through the middleware and the observers; the limit reaches the transport")
    func handshakeThroughTheExchange() async throws {
        let transport = ScriptedWebSocketTransport()
        let recorder = ExchangeRecorder()
        let socket = try await client(
            transport, middleware: [APIKey("secret-key", in: .header("Authorization"))], observers: [recorder]
        ).webSocket(Request(path: "/live", headers: ["X-Extra": "yes"]), options: .init(maxMessageSize: 4096))
        let handshake = try #require(transport.handshakes.first)
        #expect(handshake.headers["Authorization"] == "secret-key")
        #expect(handshake.headers["X-Extra"] == "yes")
        #expect(handshake.options[WebSocketMessageLimitKey.self] == 4096)
        #expect(recorder.events.map(\.status) == [101])
        #expect(recorder.events.first?.requestHeaders["Authorization"] != "secret-key")
        await socket.close()
    }

    @Test("the server's close code and reason reach the caller")
    func serverCloses() async throws {
        let transport = ScriptedWebSocketTransport()
        let socket = try await client(transport).webSocket(Request(path: "/echo"))
        transport.task.serverCloses(.internalServerError, reason: "bye")
        for try await message in socket.messages { Issue.record("unexpected \(message)") }
        #expect(await socket.closeCode == .internalError)
        #expect(await socket.closeReason == "bye")
    }

    @Test("a message larger than the limit fails with 1009, as over a socket")
    func tooBig() async throws {
        let transport = ScriptedWebSocketTransport()
        let socket = try await client(transport).webSocket(Request(path: "/echo"), options: .init(maxMessageSize: 10))
        try await socket.send(.binary(Data(count: 11)))
        await #expect(throws: ErrandError.self) {
            for try await _ in socket.messages {}
        }
        #expect(transport.task.script.withLock { $0.cancels.first?.0 } == .messageTooBig)
    }

    @Test("another answer than 101 is the handshake's status, for the middleware and the caller")
    func refused() async throws {
        let transport = ScriptedWebSocketTransport(status: 401)
        do {
            _ = try await client(transport).webSocket(Request(path: "/echo"))
            Issue.record("a 401 opened a connection")
        } catch {
            #expect(error.status == 401)
        }
    }

    @Test("cancelling the reading task closes with 1001")
    func cancellation() async throws {
        let transport = ScriptedWebSocketTransport()
        let socket = try await client(transport).webSocket(Request(path: "/echo"))
        let reader = Task {
            for try await _ in socket.messages {}
        }
        reader.cancel()
        _ = await reader.result
        #expect(transport.task.script.withLock { $0.cancels.first?.0 } == .goingAway)
    }

    @Test("a ping goes out as the task's ping and its pong comes back as a pong frame")
    func pingPong() async throws {
        let task = ScriptedWebSocketTask()
        let connection = WebSocketTaskConnection(task: task, url: URL(string: "ws://127.0.0.1:9/")!, key: "k")
        task.script.withLock { $0.onResume = { connection.opened(subprotocol: nil, response: nil) } }
        try await connection.open()
        try await connection.write(Data("GET / HTTP/1.1\r\n\r\n".utf8))
        let head = try await connection.read()
        #expect(try WebSocketUpgradeHead.parse(head)?.status == 101)
        try await connection.write(WebSocketFrameEncoder.encode(WebSocketFrame(opcode: .ping, payload: Data([5]))))
        #expect(task.script.withLock { $0.pings } == 1)
        var parser = WebSocketFrameParser(maxPayload: 125)
        parser.append(try await connection.read())
        #expect(try parser.nextFrame() == WebSocketFrame(opcode: .pong, payload: Data([5])))
        connection.close()
        #expect(try await connection.read().isEmpty)
    }
}
