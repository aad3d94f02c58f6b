import Foundation
import Testing

@testable import Errand

@Suite("WebSocket permessage-deflate negotiation")
struct PerMessageDeflateTests {
    private typealias Agreement = PerMessageDeflate.Agreement

    private func agreement(_ answer: String?, offer: WebSocketCompression? = WebSocketCompression())
        throws(WebSocketHandshakeFailure) -> Agreement?
    {
        try PerMessageDeflate.agreement(answer: answer, offered: offer)
    }

    private func refusal(_ answer: String, offer: WebSocketCompression? = WebSocketCompression()) -> String? {
        do {
            _ = try agreement(answer, offer: offer)
            return nil
        } catch {
            guard case .extensionRefused(let reason) = error else { return "\(error)" }
            return reason
        }
    }

    @Test("the offer names the extension and each parameter asked for")
    func offers() {
        #expect(PerMessageDeflate.offer(WebSocketCompression()) == "permessage-deflate; client_max_window_bits")
        #expect(
            PerMessageDeflate.offer(
                WebSocketCompression(
                    serverNoContextTakeover: true, clientNoContextTakeover: true, serverMaxWindowBits: 10,
                    clientMaxWindowBits: 12))
                == "permessage-deflate; server_no_context_takeover; client_no_context_takeover; "
                + "server_max_window_bits=10; client_max_window_bits=12")
        #expect(WebSocketCompression(serverMaxWindowBits: 3, clientMaxWindowBits: 8).serverMaxWindowBits == 8)
        #expect(WebSocketCompression(serverMaxWindowBits: 3, clientMaxWindowBits: 8).clientMaxWindowBits == 9)
    }

    @Test("the handshake carries the offer unless compression is off")
    func handshakeHeaders() {
        let offered = WebSocketHandshake(compression: WebSocketCompression()).headers(adding: [:])
        #expect(offered["Sec-WebSocket-Extensions"] == "permessage-deflate; client_max_window_bits")
        #expect(WebSocketHandshake(compression: nil).headers(adding: [:])["Sec-WebSocket-Extensions"] == nil)
        #expect(WebSocketOptions().compression == WebSocketCompression())
    }

    @Test("no answer, or an empty one, is no compression")
    func declined() throws {
        #expect(try agreement(nil) == nil)
        #expect(try agreement("  ") == nil)
        #expect(try agreement(nil, offer: nil) == nil)
    }

    @Test("a plain acceptance keeps context takeover both ways and the largest windows")
    func plainAcceptance() throws {
        #expect(try agreement("permessage-deflate") == Agreement())
        #expect(try agreement("PerMessage-Deflate") == Agreement())
    }

    @Test("the server's own parameters are taken, whether offered or not")
    func serverParameters() throws {
        let answer =
            "permessage-deflate; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=12"
        let expected = Agreement(
            serverNoContextTakeover: true, clientNoContextTakeover: true, serverMaxWindowBits: 12,
            clientMaxWindowBits: 15)
        #expect(try agreement(answer) == expected)
        #expect(try agreement("permessage-deflate;server_max_window_bits=\"9\"")?.serverMaxWindowBits == 9)
    }

    @Test("client_no_context_takeover offered holds even when the server does not repeat it")
    func clientTakeoverOffered() throws {
        let offer = WebSocketCompression(clientNoContextTakeover: true)
        #expect(try agreement("permessage-deflate", offer: offer)?.clientNoContextTakeover == true)
    }

    @Test("client_max_window_bits offered with no value (the default): any window the server names, else 15")
    func clientWindowLeftToServer() throws {
        for bits in 8...15 {
            #expect(try agreement("permessage-deflate; client_max_window_bits=\(bits)")?.clientMaxWindowBits == bits)
        }
        #expect(try agreement("permessage-deflate")?.clientMaxWindowBits == 15)
    }

    @Test("client_max_window_bits offered: the server's value, or the offer's when it names none")
    func clientWindow() throws {
        let offer = WebSocketCompression(clientMaxWindowBits: 12)
        #expect(try agreement("permessage-deflate; client_max_window_bits=10", offer: offer)?.clientMaxWindowBits == 10)
        #expect(try agreement("permessage-deflate", offer: offer)?.clientMaxWindowBits == 12)
    }

    @Test(
        "an answer the offer did not allow fails the handshake, saying why",
        arguments: [
            ("x-webkit-deflate-frame", "x-webkit-deflate-frame, which was not offered"),
            ("permessage-deflate, permessage-deflate", "more than the one extension"),
            ("permessage-deflate; client_max_window_bits", "not a window size"),
            ("permessage-deflate; client_max_window_bits=7", "not a window size"),
            ("permessage-deflate; server_no_context_takeover; server_no_context_takeover", "given twice"),
            ("permessage-deflate; server_no_context_takeover=1", "takes no value"),
            ("permessage-deflate; server_max_window_bits=16", "not a window size"),
            ("permessage-deflate; server_max_window_bits=7", "not a window size"),
            ("permessage-deflate; server_max_window_bits=010", "not a window size"),
            ("permessage-deflate; server_max_window_bits", "not a window size"),
            ("permessage-deflate; server_max_window_bits=1x", "not a window size"),
            ("permessage-deflate; mystery=1", "not permessage-deflate's"),
            ("permessage-deflate;", "malformed"),
            ("permessage-deflate; server_max_window_bits=\"10", "malformed"),
            ("permessage-deflate,", "malformed"),
        ])
    func refused(answer: String, reason: String) {
        let found = refusal(answer)
        #expect(found?.contains(reason) == true, "\(answer): \(found ?? "accepted")")
    }

    @Test("window bits answered above what was asked or offered fail; 8 for the client's window is agreed")
    func windowLimits() throws {
        #expect(
            refusal("permessage-deflate; server_max_window_bits=12", offer: .init(serverMaxWindowBits: 10))?
                .contains("more than the 10 asked for") == true)
        #expect(
            refusal("permessage-deflate", offer: .init(serverMaxWindowBits: 10))?.contains("not answered") == true)
        #expect(
            refusal("permessage-deflate; client_max_window_bits=13", offer: .init(clientMaxWindowBits: 12))?
                .contains("more than the 12 offered") == true)
        #expect(
            try agreement("permessage-deflate; client_max_window_bits=8", offer: .init(clientMaxWindowBits: 12))?
                .clientMaxWindowBits == 8)
    }

    @Test("an extension accepted when none was offered fails the handshake")
    func unoffered() {
        #expect(refusal("permessage-deflate", offer: nil)?.contains("not offered") == true)
    }

    @Test("the handshake check reads the answer across several header fields")
    func handshakeCheck() throws {
        let handshake = WebSocketHandshake(compression: WebSocketCompression())
        var headers: HTTPHeaders = [
            "Upgrade": "websocket", "Connection": "Upgrade",
            "Sec-WebSocket-Accept": WebSocketHandshake.accept(for: handshake.key),
        ]
        headers.add(name: "Sec-WebSocket-Extensions", value: "permessage-deflate; server_no_context_takeover")
        #expect(try handshake.check(status: 101, headers: headers).deflate?.serverNoContextTakeover == true)
        headers.add(name: "Sec-WebSocket-Extensions", value: "permessage-deflate")
        #expect(throws: WebSocketHandshakeFailure.self) { try handshake.check(status: 101, headers: headers) }
    }
}
