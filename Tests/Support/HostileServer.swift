import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The tests' raw-socket server on 127.0.0.1: the stand-in for a hostile or broken server, shared by every class of
/// hostile answer the suites try (malformed heads, oversized heads, cut-off and mislabelled bodies, silence, load).
///
/// It answers every request with the same bytes, whatever they say about HTTP, then closes the connection. Variants:
/// a silent server accepts nothing (requests to it time out), and a held server keeps each request until
/// ``release()``, counting how many were open at once. Each connection is served on a thread of its own (blocking
/// `accept`, `recv` and `send`), never on Swift's cooperative pool.
public final class HostileServer: @unchecked Sendable {
    // Unchecked: `descriptor`, `port`, `response` and `holds` are written once in init and only read afterwards;
    // the mutable counts sit behind `state`'s lock. The accept thread ends when `stop()` shuts the socket down.
    /// The port the server listens on.
    public let port: UInt16
    private let descriptor: Int32
    private let response: [UInt8]
    private let holds: Bool
    private let state = Mutex(Counts())
    private let released = NSCondition()
    private var isReleased = false
    private let arrivals: AsyncStream<Void>
    private let arrived: AsyncStream<Void>.Continuation

    private struct Counts {
        var open = 0
        var peak = 0
        var served = 0
        var requestHeads: [String] = []
    }

    /// Starts serving `response` to every connection; with `holdsResponses`, only once ``release()`` is called.
    public init(response: [UInt8], holdsResponses: Bool = false) throws {
        (arrivals, arrived) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .unbounded)
        (descriptor, port) = try LoopbackListener.open(backlog: 128)
        self.response = response
        holds = holdsResponses
        let thread = Thread { [self] in acceptConnections() }
        thread.name = "hostile-server"
        thread.start()
    }

    /// Starts serving a response made of a head (lines without their line breaks) and a body.
    public convenience init(head: [String], body: [UInt8] = [], holdsResponses: Bool = false) throws {
        try self.init(
            response: Array((head.joined(separator: "\r\n") + "\r\n\r\n").utf8) + body, holdsResponses: holdsResponses)
    }

    /// A server that listens and never accepts: the kernel completes connections, nobody answers, requests time out.
    private init(silent: ()) throws {
        (arrivals, arrived) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .unbounded)
        (descriptor, port) = try LoopbackListener.open(backlog: 16)
        response = []
        holds = false
    }

    /// A port that accepts connections and never answers.
    public static func silent() throws -> HostileServer {
        try HostileServer(silent: ())
    }

    /// The server's URL for `path`.
    public func url(_ path: String = "/") -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// `http://127.0.0.1:PORT`, without a trailing slash.
    public var root: String { "http://127.0.0.1:\(port)" }

    /// How many requests are being served now, the most at once so far, and how many were answered.
    public var openRequests: Int { state.withLock { $0.open } }
    /// The most requests this server held open at the same time.
    public var peakOpenRequests: Int { state.withLock { $0.peak } }
    /// How many responses were sent.
    public var servedRequests: Int { state.withLock { $0.served } }
    /// The request heads received so far, in arrival order.
    public var requestHeads: [String] { state.withLock { $0.requestHeads } }

    /// Waits until `count` more requests have arrived (their heads read), counting from the last call. One waiter at
    /// a time.
    public func waitForRequests(_ count: Int) async {
        var iterator = arrivals.makeAsyncIterator()
        for _ in 0..<count { _ = await iterator.next() }
    }

    /// Lets every held request (and every later one) be answered.
    public func release() {
        released.lock()
        isReleased = true
        released.broadcast()
        released.unlock()
    }

    /// Stops accepting; connections being served finish on their own.
    public func stop() {
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    deinit {
        arrived.finish()
        release()
        stop()
        close(descriptor)
    }

    private func acceptConnections() {
        while true {
            let connection = accept(descriptor, nil, nil)
            guard connection >= 0 else { return }
            let thread = Thread { [self] in serve(connection) }
            thread.name = "hostile-connection"
            thread.start()
        }
    }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        let head = readRequestHead(connection)
        state.withLock { counts in
            counts.open += 1
            counts.peak = max(counts.peak, counts.open)
            counts.requestHeads.append(head)
        }
        arrived.yield()
        defer { state.withLock { $0.open -= 1 } }
        if holds {
            released.lock()
            while !isReleased { released.wait() }
            released.unlock()
        }
        // Counted before the bytes go: a client can read the whole answer and be checked before this thread runs
        // again, so counting after the send would race the test that reads the count.
        state.withLock { $0.served += 1 }
        response.withUnsafeBytes { bytes in
            var sent = 0
            while sent < bytes.count {
                let count = send(connection, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
                guard count > 0 else { break }
                sent += count
            }
        }
    }

    /// Reads until the blank line that ends a request head (bodies are not sent to this server); returns the head.
    private func readRequestHead(_ connection: Int32) -> String {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let end: [UInt8] = Array("\r\n\r\n".utf8)
        while true {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            received += buffer[0..<count]
            if received.count >= 4, received.suffix(4).elementsEqual(end) { break }
        }
        return String(decoding: received, as: UTF8.self)
    }
}
