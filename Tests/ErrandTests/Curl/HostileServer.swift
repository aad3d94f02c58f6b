#if canImport(CCurl)
import Foundation
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A raw-socket HTTP server on 127.0.0.1 that answers every request with the same bytes, whatever they say about
/// HTTP, then closes the connection: the stand-in for a hostile or broken server.
///
/// Runs on a thread of its own (blocking `accept`, `recv` and `send`), never on Swift's cooperative pool.
final class HostileServer: @unchecked Sendable {
    // Unchecked: `descriptor`, `port` and `response` are written once in init and only read afterwards; the accept
    // thread ends when the listening socket is shut down in `stop()`.
    let port: UInt16
    private let descriptor: Int32
    private let response: [UInt8]

    /// Starts serving `response` to every connection.
    init(response: [UInt8]) throws {
        (descriptor, port) = try LoopbackListener.open(backlog: 64)
        self.response = response
        let thread = Thread { [self] in serve() }
        thread.name = "hostile-server"
        thread.start()
    }

    /// Starts serving a response made of a head (lines without their line breaks) and a body.
    convenience init(head: [String], body: [UInt8] = []) throws {
        try self.init(response: Array((head.joined(separator: "\r\n") + "\r\n\r\n").utf8) + body)
    }

    /// The server's URL for `path`.
    func url(_ path: String = "/") -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// Stops accepting; connections being served finish on their own.
    func stop() {
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    deinit {
        stop()
        close(descriptor)
    }

    private func serve() {
        while true {
            let connection = accept(descriptor, nil, nil)
            guard connection >= 0 else { return }
            readRequestHead(connection)
            response.withUnsafeBytes { bytes in
                var sent = 0
                while sent < bytes.count {
                    let count = send(connection, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
                    guard count > 0 else { break }
                    sent += count
                }
            }
            close(connection)
        }
    }

    /// Reads until the blank line that ends a request head (bodies are not sent to this server).
    private func readRequestHead(_ connection: Int32) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let end: [UInt8] = Array("\r\n\r\n".utf8)
        while true {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return }
            received += buffer[0..<count]
            if received.count >= 4, received.suffix(4).elementsEqual(end) { return }
        }
    }
}
#endif
