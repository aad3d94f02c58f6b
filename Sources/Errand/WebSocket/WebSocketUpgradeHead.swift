import Foundation

/// The HTTP/1.1 text of the upgrade over a raw connection: the request written as a transport would write it, and
/// the server's head read back, byte for byte, from what may already hold the first frames after it.
enum WebSocketUpgradeHead {
    /// The longest response head accepted; a server that sends more without a blank line is not answering.
    static let maxHeadSize = 64 * 1024

    /// The request's bytes: `GET`, the path and query, `Host`, then the request's own fields.
    static func request(_ request: TransportRequest) -> Data {
        let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        var target = components?.percentEncodedPath ?? "/"
        if target.isEmpty { target = "/" }
        if let query = components?.percentEncodedQuery { target += "?" + query }
        var text = "\(request.method.rawValue) \(target) HTTP/1.1\r\n"
        if request.headers["Host"] == nil, let host = components?.host {
            let bracketed = host.contains(":") ? "[\(host)]" : host
            text += "Host: \(bracketed)\(components?.port.map { ":\($0)" } ?? "")\r\n"
        }
        for field in request.headers { text += "\(field.name): \(field.value)\r\n" }
        text += "\r\n"
        return Data(text.utf8)
    }

    /// A parsed response head and the bytes that followed it.
    struct Response: Sendable, Hashable {
        var status: Int
        var headers: HTTPHeaders
        var remainder: Data
    }

    enum Failure: Error, Sendable, Hashable {
        case malformed
        case tooLarge
    }

    /// The head, once `bytes` holds all of it; `nil` while it does not.
    static func parse(_ bytes: Data) throws(Failure) -> Response? {
        guard let end = bytes.firstRange(of: Data("\r\n\r\n".utf8)) else {
            if bytes.count > maxHeadSize { throw .tooLarge }
            return nil
        }
        guard end.lowerBound - bytes.startIndex <= maxHeadSize else { throw .tooLarge }
        let text = String(decoding: bytes[bytes.startIndex..<end.lowerBound], as: UTF8.self)
        var lines = text.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ", maxSplits: 2)
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let status = Int(statusLine[1]),
            (100...599).contains(status)
        else { throw .malformed }
        var headers = HTTPHeaders()
        for line in lines {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else { throw .malformed }
            let name = String(line[..<colon])
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers.add(name: name, value: value)
        }
        return Response(status: status, headers: headers, remainder: Data(bytes[end.upperBound...]))
    }
}
