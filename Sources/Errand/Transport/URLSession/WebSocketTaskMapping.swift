import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What URLSession's WebSocket task says, in the terms of Errand's codec, and back: its messages and close codes as
/// the frames a server would have sent, the frames a ``WebSocket`` writes as the task's calls, and its errors as
/// ``ErrandError``s. URLSession frames, masks and answers pings itself; the ``WebSocket`` above it keeps one set of
/// rules (message size, UTF-8, close handshake, keep-alive) for both transports.
enum WebSocketTaskMapping {
    // MARK: Server frames

    /// An unmasked, final frame as a server sends it, for the codec to read.
    static func serverFrame(_ opcode: WebSocketFrame.Opcode, payload: Data) -> Data {
        var bytes = Data(capacity: payload.count + 10)
        bytes.append(0x80 | opcode.rawValue)
        switch payload.count {
        case 0...125:
            bytes.append(UInt8(payload.count))
        case 126...0xFFFF:
            bytes.append(126)
            bytes.append(UInt8(payload.count >> 8))
            bytes.append(UInt8(payload.count & 0xFF))
        default:
            bytes.append(127)
            for shift in stride(from: 56, through: 0, by: -8) {
                bytes.append(UInt8((UInt64(payload.count) >> UInt64(shift)) & 0xFF))
            }
        }
        bytes.append(payload)
        return bytes
    }

    /// A message the task received, as the one frame that carries it.
    static func serverFrame(for message: URLSessionWebSocketTask.Message) -> Data {
        switch message {
        case .string(let text): return serverFrame(.text, payload: Data(text.utf8))
        case .data(let data): return serverFrame(.binary, payload: data)
        @unknown default: return serverFrame(.binary, payload: Data())
        }
    }

    /// The close frame the server sent, as the task reports it: `.invalid` stands for a close frame without a code.
    static func serverCloseFrame(code: URLSessionWebSocketTask.CloseCode, reason: Data?) -> Data {
        guard code != .invalid, let raw = UInt16(exactly: code.rawValue) else {
            return serverFrame(.close, payload: Data())
        }
        var payload = Data([UInt8(raw >> 8), UInt8(raw & 0xFF)])
        payload.append((reason ?? Data()).prefix(WebSocketFrame.maxControlPayload - 2))
        return serverFrame(.close, payload: payload)
    }

    // MARK: Client frames

    /// What the task is to do for a frame the ``WebSocket`` wrote.
    enum Call: Sendable {
        case send(URLSessionWebSocketTask.Message)
        /// A ping; its pong, when it comes, is handed back with this payload (URLSession sends pings without one).
        case ping(Data)
        /// Nothing: a pong (URLSession answers the server's pings itself).
        case none
        case close(URLSessionWebSocketTask.CloseCode, reason: Data?)
    }

    /// The call that carries `frame`. The ``WebSocket`` writes each message as one final frame.
    static func call(for frame: WebSocketFrame) throws(ErrandError) -> Call {
        guard frame.isFinal, frame.opcode != .continuation else {
            throw .invalidRequest("a fragmented WebSocket message cannot be sent through URLSession.")
        }
        switch frame.opcode {
        case .text: return .send(.string(String(decoding: frame.payload, as: UTF8.self)))
        case .binary: return .send(.data(frame.payload))
        case .ping: return .ping(frame.payload)
        case .pong, .continuation: return .none
        case .close:
            let payload = frame.payload
            guard payload.count >= 2 else { return .close(.normalClosure, reason: nil) }
            let raw = UInt16(payload[payload.startIndex]) << 8 | UInt16(payload[payload.startIndex + 1])
            let reason = payload.count > 2 ? Data(payload.dropFirst(2)) : nil
            return .close(closeCode(WebSocketCloseCode(rawValue: raw)), reason: reason)
        }
    }

    /// URLSession's name for `code`. Its enumeration stops at 1015, so the application codes (3000–4999) and 1012–1014
    /// cannot be sent through it: they go as 1000, the reason unchanged.
    static func closeCode(_ code: WebSocketCloseCode) -> URLSessionWebSocketTask.CloseCode {
        guard code.isValidOnTheWire, let mapped = URLSessionWebSocketTask.CloseCode(rawValue: Int(code.rawValue))
        else { return .normalClosure }
        return mapped
    }

    // MARK: Handshake

    /// The header fields URLSession writes itself; the request's own values for them are left out.
    static let handshakeFields: Set<String> = [
        "upgrade", "connection", "sec-websocket-key", "sec-websocket-version", "sec-websocket-extensions",
    ]

    /// The request URLSession opens: the handshake's request with its `ws`/`wss` URL, its headers (the subprotocols
    /// in `Sec-WebSocket-Protocol`, as URLSession reads them), without the fields URLSession writes itself.
    static func urlRequest(_ request: TransportRequest) -> URLRequest {
        var urlRequest = URLSessionTransport.makeURLRequest(request)
        if var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false) {
            components.scheme = components.scheme?.lowercased() == "https" ? "wss" : "ws"
            urlRequest.url = components.url ?? request.url
        }
        for name in handshakeFields { urlRequest.setValue(nil, forHTTPHeaderField: name) }
        // Not a body's coding: a WebSocket's messages are framed, and FoundationNetworking's `identity` default
        // would only be a stray field in the handshake.
        if request.headers["Accept-Encoding"] == nil { urlRequest.setValue(nil, forHTTPHeaderField: "Accept-Encoding") }
        return urlRequest
    }

    /// The response head the hop reads: URLSession's outcome of the handshake as HTTP/1.1 text.
    ///
    /// URLSession sent a key of its own and checked the server's `Sec-WebSocket-Accept` against it before opening; a
    /// 101 given to the hop answers the key of the request it wrote instead, with the subprotocol URLSession reports,
    /// and with no extension: URLSession applies any it negotiated itself, so the frames it hands over carry none.
    static func upgradeHead(status: Int, headers: HTTPHeaders, key: String?, subprotocol: String?) -> Data {
        var fields = HTTPHeaders()
        for field in headers {
            let name = field.name.lowercased()
            if status == 101,
                handshakeFields.contains(name) || name == "sec-websocket-accept"
                    || name == "sec-websocket-protocol"
            {
                continue
            }
            // The head stands alone: its body, if any, was not handed over.
            if name == "content-length" || name == "transfer-encoding" { continue }
            fields.add(name: field.name, value: sanitized(field.value))
        }
        if status == 101 {
            fields["Upgrade"] = "websocket"
            fields["Connection"] = "Upgrade"
            if let key { fields["Sec-WebSocket-Accept"] = WebSocketHandshake.accept(for: key) }
            if let subprotocol, !subprotocol.isEmpty { fields["Sec-WebSocket-Protocol"] = subprotocol }
        } else {
            fields["Content-Length"] = "0"
        }
        var text = "HTTP/1.1 \(status) \(status == 101 ? "Switching Protocols" : "Status")\r\n"
        for field in fields { text += "\(field.name): \(field.value)\r\n" }
        text += "\r\n"
        return Data(text.utf8)
    }

    /// The fields of URLSession's response.
    static func headers(of response: URLResponse?) -> HTTPHeaders {
        guard let http = response as? HTTPURLResponse else { return HTTPHeaders() }
        return HTTPHeaders(urlSessionResponse: http)
    }

    private static func sanitized(_ value: String) -> String {
        value.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
    }

    // MARK: Errors

    /// A failure of the task as Errand reports it. `foundationNetworking` is whether the session is
    /// FoundationNetworking's, whose `unsupportedURL` before the handshake means that its libcurl was built without
    /// WebSocket support (Debian 12's 7.88.1 is): a request no connection can be opened for, not a failure on the wire.
    static func failure(_ error: any Error, url: URL, beforeOpening: Bool, foundationNetworking: Bool) -> ErrandError {
        let nsError = error as NSError
        if beforeOpening, foundationNetworking, nsError.domain == NSURLErrorDomain,
            nsError.code == URLError.unsupportedURL.rawValue
        {
            return .invalidRequest(
                "URLSession cannot open WebSocket connections on this system: FoundationNetworking's libcurl has "
                    + "no WebSocket support (\(nsError.localizedDescription)); use CurlTransport.")
        }
        return URLSessionExchange.map(error, url: url)
    }
}
