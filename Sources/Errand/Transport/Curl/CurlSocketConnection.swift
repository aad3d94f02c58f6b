#if canImport(CCurl)
import CCurl
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The type's own `close`, `read` and `write` hide the system's inside it.
private func systemClose(_ fd: Int32) { _ = close(fd) }
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int { read(fd, buffer, count) }
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { write(fd, buffer, count) }

/// A connection libcurl opens with `CURLOPT_CONNECT_ONLY` (so the transport's TLS trust and pinning, its proxy (through
/// a CONNECT tunnel), Unix socket and client certificate apply, as to the exchange's handles), then
/// carries raw bytes with `curl_easy_send`/`curl_easy_recv`: what a WebSocket frames over, since the libcurl of
/// Debian 12 (7.88) has no `ws` scheme of its own.
///
/// One thread of its own per connection runs the blocking connect and then polls the socket and a wake-up pipe;
/// no task of the cooperative pool ever blocks or spins on it. It reads only while its buffer has room (a slow
/// reader stops the reading, and TCP's window then stops the peer).
///
/// `@unchecked Sendable` because the easy handle is touched by the connection's thread only, and everything the
/// thread shares with callers is behind `shared`.
final class CurlSocketConnection: WebSocketByteStream, @unchecked Sendable {
    private enum Phase {
        case connecting(CheckedContinuation<Void, any Error>?)
        case open
        case ended(ErrandError?)
    }

    private struct Shared {
        var phase = Phase.connecting(nil)
        var outgoing: [(bytes: Data, done: CheckedContinuation<Void, any Error>)] = []
        var sentOfFirst = 0
        var inbound = Data()
        var reader: CheckedContinuation<Data, any Error>?
        var closeRequested = false
    }

    private let shared = Mutex(Shared())
    private let wake: (read: Int32, write: Int32)
    private let url: URL
    private let capacity: Int

    private init(url: URL, wake: (Int32, Int32), capacity: Int) {
        self.url = url
        self.wake = wake
        self.capacity = capacity
    }

    /// Connects to the URL's host (an `http` or `https` URL), with the transport's TLS settings.
    static func open(
        _ url: URL, configuration: CurlTransport.Configuration, connectTimeout: Duration?, bufferSize: Int = 64 * 1024
    ) async throws(ErrandError) -> CurlSocketConnection {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            throw .transport(TransportFailure(kind: .other, url: url, underlying: "no pipe for the connection"))
        }
        for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        let connection = CurlSocketConnection(url: url, wake: (fds[0], fds[1]), capacity: bufferSize)
        let thread = Thread { connection.run(configuration, connectTimeout: connectTimeout) }
        thread.name = "Errand WebSocket"
        do {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    connection.shared.withLock { $0.phase = .connecting(continuation) }
                    thread.start()
                }
            } onCancel: {
                connection.close()
            }
        } catch {
            throw ErrandError(error)
        }
        return connection
    }

    /// Cancelling the task closes the connection: bytes written in part cannot be taken back.
    func write(_ bytes: Data) async throws(ErrandError) {
        guard !bytes.isEmpty else { return }
        do {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    let refusal: ErrandError? = shared.withLock { shared in
                        if case .ended(let failure) = shared.phase { return failure ?? Self.closed(url) }
                        if shared.closeRequested { return Self.closed(url) }
                        shared.outgoing.append((bytes, continuation))
                        return nil
                    }
                    if let refusal { continuation.resume(throwing: refusal) } else { signal() }
                }
            } onCancel: {
                close()
            }
        } catch {
            throw ErrandError(error)
        }
    }

    func read() async throws(ErrandError) -> Data {
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data, any Error>) in
                    enum Outcome {
                        case bytes(Data)
                        case failure(any Error)
                        case wait
                    }
                    let outcome: Outcome = shared.withLock { shared in
                        if !shared.inbound.isEmpty {
                            defer { shared.inbound = Data() }
                            return .bytes(shared.inbound)
                        }
                        if case .ended(let failure) = shared.phase {
                            return failure.map { .failure($0) } ?? .bytes(Data())
                        }
                        if Task.isCancelled { return .failure(CancellationError()) }
                        shared.reader = continuation
                        return .wait
                    }
                    switch outcome {
                    case .bytes(let bytes):
                        continuation.resume(returning: bytes)
                        signal()  // the buffer has room again
                    case .failure(let error):
                        continuation.resume(throwing: error)
                    case .wait:
                        break
                    }
                }
            } onCancel: {
                let reader = shared.withLock { shared in
                    defer { shared.reader = nil }
                    return shared.reader
                }
                reader?.resume(throwing: CancellationError())
            }
        } catch {
            throw ErrandError(error)
        }
    }

    func close() {
        shared.withLock { $0.closeRequested = true }
        signal()
    }

    deinit {
        systemClose(wake.read)
        systemClose(wake.write)
    }

    private func signal() {
        var byte: UInt8 = 1
        _ = systemWrite(wake.write, &byte, 1)
    }

    private static func closed(_ url: URL) -> ErrandError {
        .transport(TransportFailure(kind: .connectionLost, url: url, underlying: "the WebSocket connection is closed"))
    }

    // MARK: The connection's thread

    private func run(_ configuration: CurlTransport.Configuration, connectTimeout: Duration?) {
        guard let handle = CurlEasyHandle.make() else {
            end(.transport(TransportFailure(kind: .other, url: url, underlying: "libcurl could not make a handle")))
            return
        }
        defer { handle.destroy() }
        let easy = handle.raw
        if let failure = Self.configure(handle, url: url, configuration, connectTimeout) {
            end(failure)
            return
        }
        let code = curl_easy_perform(easy)
        guard code == CURLE_OK else {
            end(Self.failure(code, handle, url: url, configuration))
            return
        }
        var socket = curl_socket_t(-1)
        guard errand_curl_easy_getinfo_socket(easy, CURLINFO_ACTIVESOCKET, &socket) == CURLE_OK, socket >= 0 else {
            end(.transport(TransportFailure(kind: .other, url: url, underlying: "libcurl gave no socket")))
            return
        }
        let connecting: CheckedContinuation<Void, any Error>? = shared.withLock { shared in
            guard case .connecting(let continuation) = shared.phase else { return nil }
            shared.phase = .open
            return continuation
        }
        connecting?.resume()
        end(pump(easy, socket: Int32(socket)))
    }

    private static func configure(
        _ handle: CurlEasyHandle, url: URL, _ configuration: CurlTransport.Configuration, _ connectTimeout: Duration?
    ) -> ErrandError? {
        let easy = handle.raw
        _ = errand_curl_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, UnsafeMutableRawPointer(handle.errorBuffer))
        _ = errand_curl_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        _ = errand_curl_easy_setopt_long(easy, CURLOPT_CONNECT_ONLY, 1)
        _ = errand_curl_easy_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https")
        // The upgrade is an HTTP/1.1 exchange: ALPN must not offer h2.
        _ = errand_curl_easy_setopt_long(easy, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_1_1))
        _ = errand_curl_easy_setopt_long(easy, CURLOPT_SSLVERSION, Int(CURL_SSLVERSION_TLSv1_2))
        if let timeout = connectTimeout.map({ $0 > .zero ? $0 : .milliseconds(1) }) {
            let clamped = min(timeout, Timeouts.longest)
            let milliseconds =
                clamped.components.seconds * 1000 + clamped.components.attoseconds / 1_000_000_000_000_000
            _ = errand_curl_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, Int(max(1, milliseconds)))
        }
        if let error = CurlTrustOptions.apply(configuration, to: easy) { return error }
        if let failure = handle.applyConnectivityOptions(configuration) { return failure }
        handle.pointAtProxy(configuration.proxy, for: url)
        // CONNECT_ONLY through an HTTP proxy only reaches the proxy: the tunnel makes the upgrade reach the server.
        if configuration.proxy.proxy(for: url) != nil { handle.set(CURLOPT_HTTPPROXYTUNNEL, true) }
        guard errand_curl_easy_setopt_string(easy, CURLOPT_URL, url.absoluteString) == CURLE_OK else {
            return .invalidURL("\(url.absoluteString) is not a URL libcurl accepts.")
        }
        return nil
    }

    /// The error for a connection that could not be opened, worded for the proxy when it refused the tunnel.
    private static func failure(
        _ code: CURLcode, _ handle: CurlEasyHandle, url: URL, _ configuration: CurlTransport.Configuration
    ) -> ErrandError {
        let generic = CurlFailure.error(for: code, message: handle.errorMessage, url: url)
        guard case .transport(var failure) = generic, let proxy = configuration.proxy.proxy(for: url),
            let status = handle.info(long: CURLINFO_HTTP_CONNECTCODE), status >= 300
        else { return generic }
        failure.kind = .proxy
        failure.underlying = CurlTransfer.proxyRefusal(status: status, proxy: proxy) + " (\(failure.underlying))"
        return .transport(failure)
    }

    /// Moves bytes until the connection ends or is closed; returns the failure, if it failed.
    private func pump(_ easy: UnsafeMutableRawPointer, socket: Int32) -> ErrandError? {
        var scratch = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            drainWake()
            let (closing, hasRoom) = shared.withLock { ($0.closeRequested, $0.inbound.count < capacity) }
            // Closing ends the connection now: a write the peer is not taking is failed, never waited for.
            if closing { return nil }
            var writeBlocked = false
            switch flush(easy) {
            case .failed(let failure): return failure
            case .blocked: writeBlocked = true
            case .done: break
            }
            var readBlocked = false
            if hasRoom {
                switch receive(easy, into: &scratch) {
                case .failed(let failure): return failure
                case .ended: return nil
                case .blocked: readBlocked = true
                case .full: break
                }
            }
            var fds = [
                pollfd(
                    fd: socket, events: Int16((readBlocked ? POLLIN : 0) | (writeBlocked ? POLLOUT : 0)), revents: 0),
                pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
            ]
            if poll(&fds, 2, -1) < 0, errno != EINTR {
                return .transport(TransportFailure(kind: .other, url: url, underlying: "poll failed (\(errno))"))
            }
        }
    }

    private enum Progress {
        case done, blocked
        case failed(ErrandError)
    }

    private func flush(_ easy: UnsafeMutableRawPointer) -> Progress {
        while true {
            guard let (bytes, offset) = shared.withLock({ s in s.outgoing.first.map { ($0.bytes, s.sentOfFirst) } })
            else { return .done }
            var sent = 0
            let code = bytes.withUnsafeBytes { raw in
                curl_easy_send(easy, raw.baseAddress! + offset, raw.count - offset, &sent)
            }
            if code == CURLE_AGAIN { return .blocked }
            guard code == CURLE_OK else { return .failed(CurlFailure.error(for: code, message: nil, url: url)) }
            let finished: CheckedContinuation<Void, any Error>? = shared.withLock { shared in
                shared.sentOfFirst += sent
                guard shared.sentOfFirst >= shared.outgoing[0].bytes.count else { return nil }
                shared.sentOfFirst = 0
                return shared.outgoing.removeFirst().done
            }
            finished?.resume()
        }
    }

    private enum Reception {
        case full, blocked, ended
        case failed(ErrandError)
    }

    private func receive(_ easy: UnsafeMutableRawPointer, into scratch: inout [UInt8]) -> Reception {
        while true {
            var received = 0
            let code = scratch.withUnsafeMutableBytes { raw in
                curl_easy_recv(easy, raw.baseAddress!, raw.count, &received)
            }
            if code == CURLE_AGAIN { return .blocked }
            guard code == CURLE_OK else { return .failed(CurlFailure.error(for: code, message: nil, url: url)) }
            if received == 0 { return .ended }
            let chunk = Data(scratch[0..<received])
            let (reader, bytes, full): (CheckedContinuation<Data, any Error>?, Data, Bool) = shared.withLock { shared in
                shared.inbound.append(chunk)
                guard let reader = shared.reader else { return (nil, Data(), shared.inbound.count >= capacity) }
                shared.reader = nil
                defer { shared.inbound = Data() }
                return (reader, shared.inbound, false)
            }
            reader?.resume(returning: bytes)
            if full { return .full }
        }
    }

    private func drainWake() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while systemRead(wake.read, &bytes, bytes.count) > 0 {}
    }

    /// Ends the connection: a waiting connect, reader and writers learn how.
    private func end(_ failure: ErrandError?) {
        let (phase, reader, writers) = shared.withLock { shared in
            let phase = shared.phase
            shared.phase = .ended(failure)
            let reader = shared.inbound.isEmpty ? shared.reader : nil
            if reader != nil { shared.reader = nil }
            let writers = shared.outgoing.map(\.done)
            shared.outgoing = []
            return (phase, reader, writers)
        }
        if case .connecting(let continuation) = phase {
            continuation?.resume(throwing: failure ?? Self.closed(url))
        }
        if let failure { reader?.resume(throwing: failure) } else { reader?.resume(returning: Data()) }
        for writer in writers { writer.resume(throwing: failure ?? Self.closed(url)) }
    }
}
#endif
