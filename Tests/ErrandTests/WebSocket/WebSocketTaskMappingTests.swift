import Foundation
import Testing

@testable import Errand

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("URLSession's WebSocket task mapped onto Errand's codec")
struct WebSocketTaskMappingTests {
    private func parsed(_ bytes: Data, limit: Int = 1 << 20) throws -> WebSocketFrame? {
        var parser = WebSocketFrameParser(maxPayload: limit)
        parser.append(bytes)
        return try parser.nextFrame()
    }

    @Test("a received message becomes the one server frame the codec reads, at every length encoding")
    func messagesAsFrames() throws {
        for size in [0, 125, 126, 65_535, 65_536] {
            let data = Data((0..<size).map { UInt8($0 & 0xFF) })
            let frame = try parsed(WebSocketTaskMapping.serverFrame(for: .data(data)))
            #expect(frame == WebSocketFrame(opcode: .binary, payload: data))
        }
        let text = try parsed(WebSocketTaskMapping.serverFrame(for: .string("κόσμε")))
        #expect(text == WebSocketFrame(opcode: .text, payload: Data("κόσμε".utf8)))
    }

    @Test("a message over the limit fails at the codec with 1009, as from a socket")
    func limitStillApplies() {
        let bytes = WebSocketTaskMapping.serverFrame(for: .data(Data(count: 2_000)))
        #expect(throws: WebSocketProtocolViolation.self) { try parsed(bytes, limit: 1_000) }
    }

    @Test("the server's close code and reason become its close frame; .invalid is a close without a code")
    func closeFrames() throws {
        let frame = try parsed(WebSocketTaskMapping.serverCloseFrame(code: .goingAway, reason: Data("bye".utf8)))
        #expect(frame == WebSocketFrame(opcode: .close, payload: Data([0x03, 0xE9]) + Data("bye".utf8)))
        let bare = try parsed(WebSocketTaskMapping.serverCloseFrame(code: .invalid, reason: nil))
        #expect(bare == WebSocketFrame(opcode: .close))
        let long = try parsed(WebSocketTaskMapping.serverCloseFrame(code: .normalClosure, reason: Data(count: 200)))
        #expect(long?.payload.count == WebSocketFrame.maxControlPayload)
    }

    @Test("the frames a WebSocket writes become the task's calls")
    func framesAsCalls() throws {
        guard
            case .send(.string("hi")) = try WebSocketTaskMapping.call(
                for: .init(opcode: .text, payload: Data("hi".utf8)))
        else { Issue.record("text not sent as a string"); return }
        guard
            case .send(.data(let data)) = try WebSocketTaskMapping.call(
                for: .init(opcode: .binary, payload: Data([1, 2])))
        else { Issue.record("binary not sent as data"); return }
        #expect(data == Data([1, 2]))
        guard case .ping(let payload) = try WebSocketTaskMapping.call(for: .init(opcode: .ping, payload: Data([9])))
        else { Issue.record("ping not sent as a ping"); return }
        #expect(payload == Data([9]))
        guard case .none = try WebSocketTaskMapping.call(for: .init(opcode: .pong)) else {
            Issue.record("a pong must be left to URLSession"); return
        }
        let closePayload = WebSocketFrameEncoder.closePayload(.goingAway, reason: "later")
        guard
            case .close(let code, let reason) = try WebSocketTaskMapping.call(
                for: .init(opcode: .close, payload: closePayload))
        else { Issue.record("close not sent as a cancel"); return }
        #expect(code == .goingAway)
        #expect(reason == Data("later".utf8))
        #expect(throws: ErrandError.self) {
            try WebSocketTaskMapping.call(for: .init(isFinal: false, opcode: .text, payload: Data("a".utf8)))
        }
    }

    @Test(
        "close codes URLSession names go as they are; application codes go as 1000",
        arguments: [
            (1000, 1000), (1001, 1001), (1008, 1008), (1011, 1011), (1012, 1000), (3000, 1000), (4999, 1000),
            (1005, 1000),
        ])
    func closeCodes(sent: Int, onTheWire: Int) {
        #expect(WebSocketTaskMapping.closeCode(WebSocketCloseCode(rawValue: UInt16(sent))).rawValue == onTheWire)
    }

    @Test("the client frames the encoder writes read back unmasked, however the writes split them")
    func clientFramesReadBack() throws {
        let frames = [
            WebSocketFrame(opcode: .text, payload: Data("hello".utf8)),
            WebSocketFrame(opcode: .binary, payload: Data(repeating: 3, count: 70_000)),
            WebSocketFrame(opcode: .ping),
        ]
        let bytes = frames.reduce(into: Data()) { $0.append(WebSocketFrameEncoder.encode($1)) }
        var reader = WebSocketClientFrameReader()
        var read: [WebSocketFrame] = []
        for start in stride(from: 0, to: bytes.count, by: 999) {
            reader.append(bytes[start..<min(start + 999, bytes.count)])
            while let frame = try reader.nextFrame() { read.append(frame) }
        }
        #expect(read == frames)
    }

    @Test("a 101 head answers the hop's key and passes the handshake's checks, with the subprotocol and no extension")
    func upgradeHead() throws {
        let handshake = WebSocketHandshake(subprotocols: ["chat", "superchat"], compression: WebSocketCompression())
        let bytes = WebSocketTaskMapping.upgradeHead(
            status: 101,
            headers: [
                "Sec-WebSocket-Accept": "URLSession's own", "Sec-WebSocket-Extensions": "permessage-deflate",
                "X-Server": "yes",
            ],
            key: handshake.key, subprotocol: "superchat")
        let head = try #require(try WebSocketUpgradeHead.parse(bytes))
        #expect(head.status == 101)
        #expect(head.remainder.isEmpty)
        #expect(head.headers["X-Server"] == "yes")
        let outcome = try handshake.check(status: head.status, headers: head.headers)
        #expect(outcome.subprotocol == "superchat")
        // URLSession's own extension is its business: Errand must not inflate what URLSession already did.
        #expect(outcome.deflate == nil)
        let none = try #require(
            try WebSocketUpgradeHead.parse(
                WebSocketTaskMapping.upgradeHead(status: 101, headers: [:], key: handshake.key, subprotocol: "")))
        #expect(try handshake.check(status: none.status, headers: none.headers).subprotocol == nil)
    }

    @Test("another answer keeps its status and fields, without a body")
    func refusedHead() throws {
        let bytes = WebSocketTaskMapping.upgradeHead(
            status: 401, headers: ["WWW-Authenticate": "Bearer", "Content-Length": "12"], key: "k", subprotocol: nil)
        let head = try #require(try WebSocketUpgradeHead.parse(bytes))
        #expect(head.status == 401)
        #expect(head.headers["WWW-Authenticate"] == "Bearer")
        #expect(head.headers["Content-Length"] == "0")
    }

    @Test("the request URLSession opens: ws/wss, the caller's fields, none of those URLSession writes")
    func urlRequest() {
        var request = TransportRequest(url: URL(string: "https://example.com/live?x=1")!)
        request.headers = WebSocketHandshake(subprotocols: ["chat"]).headers(adding: ["Authorization": "Bearer t"])
        request.headers["Sec-WebSocket-Extensions"] = "permessage-deflate"
        let urlRequest = WebSocketTaskMapping.urlRequest(request)
        #expect(urlRequest.url?.absoluteString == "wss://example.com/live?x=1")
        #expect(urlRequest.value(forHTTPHeaderField: "Authorization") == "Bearer t")
        #expect(urlRequest.value(forHTTPHeaderField: "Sec-WebSocket-Protocol") == "chat")
        for name in ["Upgrade", "Connection", "Sec-WebSocket-Key", "Sec-WebSocket-Version", "Sec-WebSocket-Extensions"]
        {
            #expect(urlRequest.value(forHTTPHeaderField: name) == nil, "\(name)")
        }
        var plain = request
        plain.url = URL(string: "http://127.0.0.1:8080/echo")!
        #expect(WebSocketTaskMapping.urlRequest(plain).url?.scheme == "ws")
    }

    @Test(
        "FoundationNetworking's unsupportedURL before opening means no WebSocket in its libcurl; elsewhere it is mapped as any URLSession error"
    )
    func failures() {
        let url = URL(string: "http://127.0.0.1/echo")!
        let unsupported = URLError(
            .unsupportedURL, userInfo: [NSLocalizedDescriptionKey: "WebSockets not supported by libcurl"])
        guard
            case .invalidRequest(let reason) = WebSocketTaskMapping.failure(
                unsupported, url: url, beforeOpening: true, foundationNetworking: true)
        else { Issue.record("not a request no connection can be opened for"); return }
        #expect(reason.contains("libcurl"))
        #expect(reason.contains("CurlTransport"))
        let later = WebSocketTaskMapping.failure(
            unsupported, url: url, beforeOpening: false, foundationNetworking: true)
        #expect(later.isTransport(.badResponse))
        let apple = WebSocketTaskMapping.failure(
            unsupported, url: url, beforeOpening: true, foundationNetworking: false)
        #expect(apple.isTransport(.badResponse))
        let refused = WebSocketTaskMapping.failure(
            URLError(.cannotConnectToHost), url: url, beforeOpening: true, foundationNetworking: true)
        #expect(refused.isTransport(.cannotConnect))
        guard
            case .cancelled = WebSocketTaskMapping.failure(
                URLError(.cancelled), url: url, beforeOpening: true, foundationNetworking: true)
        else { Issue.record("a cancelled task is a cancelled request"); return }
    }
}
