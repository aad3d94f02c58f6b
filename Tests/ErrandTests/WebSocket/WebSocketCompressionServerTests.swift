#if canImport(CCurl)
import Errand
import Foundation
import TestSupport
import Testing

@Suite(
    "WebSocket permessage-deflate against the websockets package", .enabled(if: TestServer.webSocket.isUsable))
struct WebSocketCompressionServerTests {
    /// Messages like a live feed's: similar text, which context takeover compresses best, and some noise.
    static func messages() -> [WebSocketMessage] {
        var generator = SplitMix(seed: 7)
        var messages: [WebSocketMessage] = (0..<20).map { index in
            .text("{\"symbol\":\"EURUSD\",\"bid\":1.08\(index),\"ask\":1.09\(index),\"note\":\"κόσμε\"}")
        }
        messages.append(.binary(Data((0..<70_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) })))
        messages.append(.binary(Data(count: 1 << 20)))
        messages.append(.text(""))
        messages.append(.text(String(repeating: "a long line of text, ", count: 5000)))
        return messages
    }

    private func echoes(_ socket: WebSocket) async throws {
        var iterator = socket.messages.makeAsyncIterator()
        _ = try await iterator.next()  // what /extensions says
        for message in Self.messages() {
            try await socket.send(message)
            #expect(try await iterator.next() == message)
        }
        await socket.close()
        #expect(try await iterator.next() == nil)
        #expect(await socket.closeCode == .normalClosure)
    }

    private func extensionsSeenByServer(_ socket: WebSocket) async throws -> String {
        var iterator = socket.messages.makeAsyncIterator()
        guard case .text(let text) = try await iterator.next() else { return "" }
        return text
    }

    @Test("by default the client offers permessage-deflate, the server accepts it, and messages echo whole")
    func onByDefault() async throws {
        let socket = try await webSocketClient(.webSocket).webSocket(Request(path: "/extensions"))
        #expect(await socket.isCompressed)
        #expect(socket.handshakeHeaders["Sec-WebSocket-Extensions"]?.hasPrefix("permessage-deflate") == true)
        try await echoes(socket)
    }

    @Test("the server sees the extension in use")
    func serverSeesIt() async throws {
        let socket = try await webSocketClient(.webSocket).webSocket(Request(path: "/extensions"))
        #expect(try await extensionsSeenByServer(socket).contains("PerMessageDeflate"))
        await socket.close()
    }

    @Test("with compression off nothing is offered, and messages echo uncompressed")
    func off() async throws {
        let socket = try await webSocketClient(.webSocket).webSocket(
            Request(path: "/extensions"), options: .init(compression: nil))
        #expect(await !socket.isCompressed)
        #expect(socket.handshakeHeaders["Sec-WebSocket-Extensions"] == nil)
        try await echoes(socket)
        let again = try await webSocketClient(.webSocket).webSocket(
            Request(path: "/extensions"), options: .init(compression: nil))
        #expect(try await extensionsSeenByServer(again) == "none")
        await again.close()
    }

    @Test("a server that declines the offer gets uncompressed messages")
    func declined() async throws {
        let socket = try await webSocketClient(.webSocket).webSocket(
            Request(path: "/extensions", query: [QueryItem("deflate", "off")]))
        #expect(await !socket.isCompressed)
        try await echoes(socket)
    }

    @Test(
        "a server that requires client_max_window_bits in the offer agrees to the default one; the client keeps to it",
        arguments: [8, 9, 10])
    func boundedClientWindow(bits: Int) async throws {
        let request = Request<Void>(
            path: "/extensions",
            query: [QueryItem("client_max_window_bits", "\(bits)"), QueryItem("require_client_max_window_bits", "")])
        let socket = try await webSocketClient(.webSocket).webSocket(request)
        #expect(await socket.isCompressed)
        let header = socket.handshakeHeaders["Sec-WebSocket-Extensions"] ?? ""
        #expect(header.contains("client_max_window_bits=\(bits)"), "\(header)")
        var iterator = socket.messages.makeAsyncIterator()
        guard case .text(let seen) = try await iterator.next() else {
            Issue.record("no extensions message")
            return
        }
        #expect(seen.contains("remote_max_window_bits=\(bits)"), "\(seen)")
        // The same 4 KiB twice, in two messages: compressed with a window larger than the one agreed, the second
        // refers back into the first further than the server's inflater (which keeps only the agreed window across
        // messages) can follow, and it fails the connection.
        var generator = SplitMix(seed: 11)
        let block = Data((0..<4096).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
        let messages: [WebSocketMessage] = [
            .binary(block), .binary(block), .text(String(repeating: "a line repeated far apart; ", count: 2000)),
        ]
        for message in messages {
            try await socket.send(message)
            #expect(try await iterator.next() == message)
        }
        await socket.close()
        #expect(try await iterator.next() == nil)
        #expect(await socket.closeCode == .normalClosure)
    }

    @Test(
        "each context-takeover variant, asked by the client or imposed by the server, echoes whole",
        arguments: [
            ("", WebSocketCompression(serverNoContextTakeover: true), "server_no_context_takeover"),
            ("", WebSocketCompression(clientNoContextTakeover: true), "client_no_context_takeover"),
            (
                "", WebSocketCompression(serverNoContextTakeover: true, clientNoContextTakeover: true),
                "client_no_context_takeover"
            ),
            ("server_no_context_takeover", WebSocketCompression(), "server_no_context_takeover"),
            ("client_no_context_takeover", WebSocketCompression(), "client_no_context_takeover"),
            ("client_max_window_bits=9", WebSocketCompression(clientMaxWindowBits: 15), "client_max_window_bits=9"),
            ("", WebSocketCompression(serverMaxWindowBits: 9), "server_max_window_bits=9"),
        ])
    func variants(query: String, compression: WebSocketCompression, answered: String) async throws {
        var request = Request<Void>(path: "/extensions")
        if !query.isEmpty {
            let parts = query.split(separator: "=", maxSplits: 1).map(String.init)
            request.query = [QueryItem(parts[0], parts.count > 1 ? parts[1] : "")]
        }
        let socket = try await webSocketClient(.webSocket).webSocket(request, options: .init(compression: compression))
        #expect(await socket.isCompressed)
        let header = socket.handshakeHeaders["Sec-WebSocket-Extensions"] ?? ""
        #expect(header.contains(answered), "\(header)")
        try await echoes(socket)
    }
}
#endif
