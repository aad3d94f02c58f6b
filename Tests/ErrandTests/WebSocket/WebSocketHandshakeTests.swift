import Errand
import Foundation
import Testing

@testable import Errand

@Suite("WebSocket opening handshake")
struct WebSocketHandshakeTests {
    @Test("SHA-1 of the standard test vectors")
    func sha1() {
        func hex(_ text: String) -> String { SHA1.digest(Array(text.utf8)).map { String(format: "%02x", $0) }.joined() }
        #expect(hex("") == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(hex("abc") == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(
            hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        #expect(hex(String(repeating: "a", count: 1000)) == "291e9a6c66994949b57ba5e650361e98fc36b1ba")
    }

    @Test("the accept value of RFC 6455's sample key")
    func rfcAccept() {
        #expect(WebSocketHandshake.accept(for: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test("a key is the base64 of 16 bytes, fresh each time")
    func keys() {
        let key = WebSocketHandshake.makeKey()
        #expect(Data(base64Encoded: key)?.count == 16)
        #expect(key != WebSocketHandshake.makeKey())
    }

    private let handshake = WebSocketHandshake(key: "dGhlIHNhbXBsZSBub25jZQ==", subprotocols: ["chat", "superchat"])
    private var goodHeaders: HTTPHeaders {
        ["Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Accept": "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="]
    }

    @Test("the upgrade's headers replace the caller's of the same names and keep the others")
    func headers() {
        let headers = handshake.headers(adding: ["Authorization": "Bearer x", "Upgrade": "h2c"])
        #expect(headers["Upgrade"] == "websocket")
        #expect(headers["Authorization"] == "Bearer x")
        #expect(headers["Sec-WebSocket-Version"] == "13")
        #expect(headers["Sec-WebSocket-Protocol"] == "chat, superchat")
    }

    @Test("a valid 101 is accepted, with the subprotocol the server chose")
    func accepts() throws {
        #expect(try handshake.check(status: 101, headers: goodHeaders) == .init(subprotocol: nil, deflate: nil))
        var chose = goodHeaders
        chose["Sec-WebSocket-Protocol"] = "superchat"
        chose["Connection"] = "keep-alive, Upgrade"
        #expect(try handshake.check(status: 101, headers: chose).subprotocol == "superchat")
    }

    @Test(
        "a wrong answer is refused",
        arguments: [
            ("Sec-WebSocket-Accept", "AAAA"), ("Upgrade", "h2c"), ("Connection", "close"),
            ("Sec-WebSocket-Protocol", "other"),
        ])
    func refuses(name: String, value: String) {
        var headers = goodHeaders
        headers[name] = value
        #expect(throws: WebSocketHandshakeFailure.invalidHeader(name)) {
            try handshake.check(status: 101, headers: headers)
        }
    }

    @Test("an extension accepted when none was offered is refused")
    func unofferedExtension() {
        var headers = goodHeaders
        headers["Sec-WebSocket-Extensions"] = "permessage-deflate"
        #expect(throws: WebSocketHandshakeFailure.self) { try handshake.check(status: 101, headers: headers) }
    }

    @Test("a status other than 101 is not an upgrade")
    func notUpgraded() {
        #expect(throws: WebSocketHandshakeFailure.notUpgraded(200)) {
            try handshake.check(status: 200, headers: goodHeaders)
        }
    }

    @Test("the request head names the path and query, and the host with its port")
    func requestHead() throws {
        let request = TransportRequest(
            url: URL(string: "http://127.0.0.1:8080/chat/room?x=1%202")!, headers: ["Upgrade": "websocket"])
        let text = String(decoding: WebSocketUpgradeHead.request(request), as: UTF8.self)
        #expect(text.hasPrefix("GET /chat/room?x=1%202 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUpgrade: websocket\r\n"))
        #expect(text.hasSuffix("\r\n\r\n"))
    }

    @Test("the response head is read up to its blank line; what follows is kept for the frames")
    func responseHead() throws {
        let bytes =
            Data("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nX: a: b\r\n\r\n".utf8) + Data([0x81, 0x00])
        #expect(try WebSocketUpgradeHead.parse(bytes.prefix(20)) == nil)
        let head = try #require(try WebSocketUpgradeHead.parse(bytes))
        #expect(head.status == 101)
        #expect(head.headers["x"] == "a: b")
        #expect(head.remainder == Data([0x81, 0x00]))
        #expect(throws: WebSocketUpgradeHead.Failure.malformed) {
            try WebSocketUpgradeHead.parse(Data("SSH-2.0\r\n\r\n".utf8))
        }
        #expect(throws: WebSocketUpgradeHead.Failure.tooLarge) {
            try WebSocketUpgradeHead.parse(Data(repeating: 0x41, count: WebSocketUpgradeHead.maxHeadSize + 1))
        }
    }

    @Test("ws and wss URLs are sent as http and https")
    func schemes() {
        let request = APIClient.httpRequest(Request<Void>(url: URL(string: "wss://example.com/live")!))
        #expect(request.target == .url(URL(string: "https://example.com/live")!))
    }
}
