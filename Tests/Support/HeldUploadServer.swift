import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A raw-socket server on 127.0.0.1 that stands for a server reading an upload slowly: it reads a request's head,
/// then reads nothing more until ``release()``, so the client's body fills the socket's buffers and waits; released,
/// it reads whatever comes until the client closes the connection, and never answers.
///
/// A client that stops its upload (a file that changed under it) closes the connection, which ends the connection's
/// thread; one that kept waiting for the rest of its body would meet its own timeout instead. Each connection is
/// served on a thread of its own, never on Swift's cooperative pool.
public final class HeldUploadServer: @unchecked Sendable {
    // Unchecked: `descriptor` and `port` are written once in init; the mutable state sits behind `state`'s lock and
    // `released`'s condition.
    /// The port the server listens on.
    public let port: UInt16
    private let descriptor: Int32
    private let released = NSCondition()
    private var isReleased = false
    private let state = Mutex(Record())
    private let arrivals: AsyncStream<Void>
    private let arrived: AsyncStream<Void>.Continuation
    private let closings: AsyncStream<Int>
    private let closed: AsyncStream<Int>.Continuation

    private struct Record {
        var heads: [String] = []
    }

    /// Starts listening.
    public init() throws {
        (arrivals, arrived) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .unbounded)
        (closings, closed) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .unbounded)
        (descriptor, port) = try LoopbackListener.open(backlog: 16)
        let thread = Thread { [self] in acceptConnections() }
        thread.name = "held-upload-server"
        thread.start()
    }

    deinit {
        arrived.finish()
        closed.finish()
        release()
        shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
    }

    /// The server's URL for `path`.
    public func url(_ path: String = "/") -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// The request heads received so far.
    public var requestHeads: [String] { state.withLock { $0.heads } }

    /// Waits until a request's head has arrived.
    public func waitForRequest() async {
        var iterator = arrivals.makeAsyncIterator()
        _ = await iterator.next()
    }

    /// Waits until a client closed its connection; returns how many bytes after the head the server read from it.
    public func waitForClose() async -> Int? {
        var iterator = closings.makeAsyncIterator()
        return await iterator.next()
    }

    /// Lets every connection read its body.
    public func release() {
        released.lock()
        isReleased = true
        released.broadcast()
        released.unlock()
    }

    private func acceptConnections() {
        while true {
            let connection = accept(descriptor, nil, nil)
            guard connection >= 0 else { return }
            let thread = Thread { [self] in serve(connection) }
            thread.name = "held-upload-connection"
            thread.start()
        }
    }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var received: [UInt8] = []
        let end = Array("\r\n\r\n".utf8)
        var extra = 0
        while true {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return }
            received += buffer[0..<count]
            if let range = received.firstRange(of: end) {
                extra = received.count - range.upperBound
                state.withLock { $0.heads.append(String(decoding: received[..<range.upperBound], as: UTF8.self)) }
                break
            }
        }
        arrived.yield()
        released.lock()
        while !isReleased { released.wait() }
        released.unlock()
        while true {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            extra += count
        }
        closed.yield(extra)
    }
}
