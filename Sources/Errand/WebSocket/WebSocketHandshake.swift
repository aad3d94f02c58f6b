import Foundation

/// The opening handshake's client side (RFC 6455 §4): the headers that ask for the upgrade, and the checks of the
/// server's 101 that prove it speaks WebSocket and read this request.
struct WebSocketHandshake: Sendable, Hashable {
    /// The base64 of 16 random bytes.
    let key: String
    /// The subprotocols offered, in order of preference.
    let subprotocols: [String]

    init(key: String = Self.makeKey(), subprotocols: [String] = []) {
        self.key = key
        self.subprotocols = subprotocols
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
        return headers
    }

    /// Checks the server's answer; returns the subprotocol it chose, if any.
    func check(status: Int, headers: HTTPHeaders) throws(WebSocketHandshakeFailure) -> String? {
        guard status == 101 else { throw .notUpgraded(status) }
        guard headers["Upgrade"]?.lowercased() == "websocket" else { throw .invalidHeader("Upgrade") }
        let connection = headers["Connection"]?.lowercased().split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard connection?.contains("upgrade") == true else { throw .invalidHeader("Connection") }
        guard headers["Sec-WebSocket-Accept"] == Self.accept(for: key) else {
            throw .invalidHeader("Sec-WebSocket-Accept")
        }
        // No extension was offered, so the server may accept none.
        if let extensions = headers["Sec-WebSocket-Extensions"], !extensions.isEmpty {
            throw .invalidHeader("Sec-WebSocket-Extensions")
        }
        guard let chosen = headers["Sec-WebSocket-Protocol"] else { return nil }
        guard subprotocols.contains(chosen) else { throw .invalidHeader("Sec-WebSocket-Protocol") }
        return chosen
    }
}

/// Why a server's answer to the opening handshake is not a WebSocket connection.
enum WebSocketHandshakeFailure: Error, Sendable, Hashable {
    /// The status was not 101 (the caller sees the whole response as an ``ErrandError/unacceptableStatus(_:)``).
    case notUpgraded(Int)
    /// The named header is missing or wrong.
    case invalidHeader(String)
}
