import Foundation
import Synchronization
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A raw-socket server on 127.0.0.1 that keeps every request's bytes as they arrived (head and `Content-Length`
/// body) and answers each with an empty 200, so that what curl sent for a printed command can be compared byte for
/// byte with what Errand sent. Connections are served on threads of their own, never on Swift's cooperative pool.
final class RequestRecorder: @unchecked Sendable {
    // Unchecked: `descriptor` and `port` are written once in init; the requests sit behind their lock.
    let port: UInt16
    private let descriptor: Int32
    private let received = Mutex<[RecordedRequest]>([])

    init() throws {
        (descriptor, port) = try LoopbackListener.open(backlog: 16)
        let thread = Thread { [self] in acceptConnections() }
        thread.name = "request-recorder"
        thread.start()
    }

    deinit {
        shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
    }

    /// `http://127.0.0.1:PORT/`.
    var url: URL { URL(string: "http://127.0.0.1:\(port)/")! }

    /// Every request so far, in arrival order; removes them.
    func takeRequests() -> [RecordedRequest] {
        received.withLock { requests in
            defer { requests = [] }
            return requests
        }
    }

    private func acceptConnections() {
        while true {
            let connection = accept(descriptor, nil, nil)
            guard connection >= 0 else { return }
            let thread = Thread { [self] in serve(connection) }
            thread.start()
        }
    }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        var request: RecordedRequest?
        while request == nil {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return }
            bytes += buffer[0..<count]
            request = RecordedRequest(complete: Data(bytes))
        }
        guard let request else { return }
        received.withLock { $0.append(request) }
        let answer = Array("HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
        _ = answer.withUnsafeBytes { send(connection, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }
    }
}

/// One request as it arrived: its request line, header fields in order, and body.
struct RecordedRequest: Sendable, Equatable {
    var requestLine: String
    var headers: [(name: String, value: String)]
    var body: Data

    static func == (lhs: RecordedRequest, rhs: RecordedRequest) -> Bool {
        lhs.requestLine == rhs.requestLine && lhs.body == rhs.body
            && lhs.headers.map { "\($0.name): \($0.value)" } == rhs.headers.map { "\($0.name): \($0.value)" }
    }

    /// The request in `data` once all of it has arrived, or `nil` while its head or body is incomplete.
    init?(complete data: Data) {
        guard let end = data.range(of: Data("\r\n\r\n".utf8)) else { return nil }
        let lines = String(decoding: data[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        requestLine = lines[0]
        headers = lines.dropFirst().map { line in
            let colon = line.firstIndex(of: ":") ?? line.endIndex
            let value = line[colon...].dropFirst().drop { $0 == " " }
            return (String(line[..<colon]), String(value))
        }
        let body = data[end.upperBound...]
        if headers.contains(where: { $0.name.lowercased() == "transfer-encoding" && $0.value.lowercased() == "chunked" }
        ) {
            guard let decoded = Self.dechunked(body) else { return nil }
            self.body = decoded
            return
        }
        let length = headers.first { $0.name.lowercased() == "content-length" }.flatMap { Int($0.value) } ?? 0
        guard body.count >= length else { return nil }
        self.body = Data(body.prefix(length))
    }

    /// A chunked body's content once its last chunk has arrived, or `nil` before.
    private static func dechunked(_ body: Data.SubSequence) -> Data? {
        var content = Data()
        var rest = body
        let lineEnd = Data("\r\n".utf8)
        while let sizeEnd = rest.range(of: lineEnd) {
            let sizeLine = String(decoding: rest[..<sizeEnd.lowerBound], as: UTF8.self)
            guard let size = Int(sizeLine.prefix { $0 != ";" }, radix: 16) else { return nil }
            let start = sizeEnd.upperBound
            if size == 0 { return content }
            guard rest.distance(from: start, to: rest.endIndex) >= size + 2 else { return nil }
            let end = rest.index(start, offsetBy: size)
            content.append(rest[start..<end])
            rest = rest[rest.index(end, offsetBy: 2)...]
        }
        return nil
    }

    /// The first value of a header field (names compared case-insensitively).
    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The parts of a multipart body, split at the boundary its `Content-Type` names: each part's header lines and
    /// content.
    var parts: [(headers: [String], content: Data)] {
        guard let type = header("Content-Type"), let range = type.range(of: "boundary=") else { return [] }
        let delimiter = Data("--\(type[range.upperBound...])".utf8)
        var pieces: [Data] = []
        var rest = body[...]
        while let found = rest.range(of: delimiter) {
            pieces.append(Data(rest[..<found.lowerBound]))
            rest = rest[found.upperBound...]
        }
        // Between two delimiters: CRLF, the header block, a blank line, the content, CRLF.
        return pieces.dropFirst().map { piece in
            let inner = piece.dropFirst(2).dropLast(2)
            guard let blank = inner.range(of: Data("\r\n\r\n".utf8)) else { return ([], Data(inner)) }
            let head = String(decoding: inner[..<blank.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
            return (head, Data(inner[blank.upperBound...]))
        }
    }
}
