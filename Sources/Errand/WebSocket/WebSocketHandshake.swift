import Foundation

/// The opening handshake's client side (RFC 6455 §4): the headers that ask for the upgrade, and the checks of the
/// server's 101 that prove it speaks WebSocket and read this request.
struct WebSocketHandshake: Sendable, Hashable {
    /// The base64 of 16 random bytes.
    let key: String
    /// The subprotocols offered, in order of preference.
    let subprotocols: [String]
    /// The permessage-deflate offer, if any.
    let compression: WebSocketCompression?

    /// What the server's answer settled.
    struct Outcome: Sendable, Hashable {
        /// The subprotocol the server chose, if any.
        var subprotocol: String?
        /// The permessage-deflate parameters, when the server accepted the offer.
        var deflate: PerMessageDeflate.Agreement?
    }

    init(key: String = Self.makeKey(), subprotocols: [String] = [], compression: WebSocketCompression? = nil) {
        self.key = key
        self.subprotocols = subprotocols
        self.compression = compression
    }

    static func makeKey() -> String {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }).base64EncodedString()
    }

    /// The `Sec-WebSocket-Accept` a server must answer `key` with.
    static func accept(for key: String) -> String {
        Data(SHA1.digest(Array((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8))).base64EncodedString()
    }

    /// The request's headers with the upgrade's own added (any the caller set of the same names are replaced).
    func headers(adding extra: HTTPHeaders) -> HTTPHeaders {
        var headers = extra
        headers["Upgrade"] = "websocket"
        headers["Connection"] = "Upgrade"
        headers["Sec-WebSocket-Key"] = key
        headers["Sec-WebSocket-Version"] = "13"
        if !subprotocols.isEmpty { headers["Sec-WebSocket-Protocol"] = subprotocols.joined(separator: ", ") }
        if let compression { headers["Sec-WebSocket-Extensions"] = PerMessageDeflate.offer(compression) }
        return headers
    }

    /// Checks the server's answer; returns the subprotocol and the extension it chose, if any.
    func check(status: Int, headers: HTTPHeaders) throws(WebSocketHandshakeFailure) -> Outcome {
        guard status == 101 else { throw .notUpgraded(status) }
        guard headers["Upgrade"]?.lowercased() == "websocket" else { throw .invalidHeader("Upgrade") }
        let connection = headers["Connection"]?.lowercased().split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard connection?.contains("upgrade") == true else { throw .invalidHeader("Connection") }
        guard headers["Sec-WebSocket-Accept"] == Self.accept(for: key) else {
            throw .invalidHeader("Sec-WebSocket-Accept")
        }
        // Several fields of the name are one list (RFC 7230 §3.2.2).
        let extensions = headers.values(for: "Sec-WebSocket-Extensions").joined(separator: ", ")
        let deflate = try PerMessageDeflate.agreement(
            answer: extensions.isEmpty ? nil : extensions, offered: compression)
        guard let chosen = headers["Sec-WebSocket-Protocol"] else { return Outcome(subprotocol: nil, deflate: deflate) }
        guard subprotocols.contains(chosen) else { throw .invalidHeader("Sec-WebSocket-Protocol") }
        return Outcome(subprotocol: chosen, deflate: deflate)
    }
}

/// Why a server's answer to the opening handshake is not a WebSocket connection.
enum WebSocketHandshakeFailure: Error, Sendable, Hashable {
    /// The status was not 101 (the caller sees the whole response as an ``ErrandError/unacceptableStatus(_:)``).
    case notUpgraded(Int)
    /// The named header is missing or wrong.
    case invalidHeader(String)
    /// `Sec-WebSocket-Extensions` accepts what the client did not offer or allow; the text says what.
    case extensionRefused(String)
}
