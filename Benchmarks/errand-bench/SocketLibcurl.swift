#if canImport(CCurl) && os(Linux)
import CCurl
import Foundation
import Glibc
import Synchronization

/// Another way of driving libcurl from async callers, measured beside `errand-curl` to see what a different loop
/// would save: libcurl's socket interface (`curl_multi_socket_action`), with a thread of its own that waits in
/// `epoll_wait` on libcurl's sockets and on a `timerfd` for libcurl's timers — never inside libcurl — so that a caller
/// starts its transfer itself, under a lock, on its own thread. A request then costs one hand-off between threads
/// (the loop resuming the caller's task) instead of two (the caller waking the loop, the loop resuming the caller).
///
/// The same easy handles as `raw-libcurl` (one per request in flight, reused), no Errand code: what is measured is
/// the loop and the async hand-off alone, an upper bound on what rebuilding `CurlTransport`'s loop this way could give.
enum SocketLibcurl {
    static func run(_ workload: Workload) async throws -> Measurement {
        curl_global_init(Int(CURL_GLOBAL_ALL))
        let loop = try SocketLoop()
        defer { loop.stop() }
        let handles = HandlePool(try (0..<workload.concurrency).map { _ in try RawLibcurl.Handle(workload) })
        defer { handles.close() }
        let fetch: @Sendable () async throws -> String? = {
            let handle = handles.take()
            defer { handles.give(handle) }
            try await loop.perform(handle)
            try workload.check(bodyLength: handle.body.count, status: handle.status)
            return handle.httpVersion
        }
        return try await workload.warmUpAndMeasure(fetch)
    }
}

// A handle is used by one request at a time: the pool hands it out and takes it back under its lock.
extension RawLibcurl.Handle: @unchecked Sendable {}

/// The easy handles not in use.
private final class HandlePool: Sendable {
    private let free: Mutex<[RawLibcurl.Handle]>
    private let all: [RawLibcurl.Handle]

    init(_ handles: [RawLibcurl.Handle]) {
        all = handles
        free = Mutex(handles)
    }

    func take() -> RawLibcurl.Handle {
        free.withLock { $0.removeLast() }
    }

    func give(_ handle: RawLibcurl.Handle) {
        free.withLock { $0.append(handle) }
    }

    func close() {
        for handle in all { handle.close() }
    }
}

/// libcurl's multi handle driven through its socket interface by a thread waiting in `epoll_wait`.
///
/// Every libcurl call, and so every callback, runs under ``lock``; the fields below it belong to whoever holds it.
/// No thread waits for the lock: a caller queues its transfer in ``inbox`` and starts the queue itself when the lock
/// is free; when it is not, its holder starts it on the way out (each side looks at the inbox after letting go).
private final class SocketLoop: @unchecked Sendable {
    private let multi: UnsafeMutableRawPointer
    private let epoll: Int32
    private let timer: Int32
    private let wake: Int32
    private let lock = Mutex<Void>(())
    /// Transfers to start: the easy handle's address and its caller.
    private let inbox = Mutex<[(easy: UInt, caller: CheckedContinuation<Void, any Error>)]>([])
    private var waiting: [UnsafeMutableRawPointer: CheckedContinuation<Void, any Error>] = [:]
    /// Sockets in the epoll set.
    private var watched: Set<Int32> = []
    /// libcurl asked for its timers to run at once (a timeout of 0 ms); they run when the current call returns.
    private var timersDue = false

    init() throws {
        guard let multi = curl_multi_init() else { throw BenchError("libcurl: no multi handle") }
        self.multi = multi
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        timer = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        wake = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard epoll >= 0, timer >= 0, wake >= 0 else {
            throw BenchError("epoll, timerfd or eventfd: \(String(cString: strerror(errno)))")
        }
        for descriptor in [timer, wake] {
            var event = epoll_event()
            event.events = EPOLLIN.rawValue
            event.data.fd = descriptor
            _ = epoll_ctl(epoll, EPOLL_CTL_ADD, descriptor, &event)
        }
        _ = errand_curl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, RawLibcurl.connectionsPerHost)
        _ = errand_curl_multi_setopt_long(multi, CURLMOPT_PIPELINING, errand_curl_pipe_multiplex)
        let context = Unmanaged.passUnretained(self).toOpaque()
        _ = errand_curl_multi_setopt_pointer(multi, CURLMOPT_SOCKETDATA, context)
        _ = errand_curl_multi_setopt_pointer(multi, CURLMOPT_TIMERDATA, context)
        _ = errand_curl_multi_setopt_socket_callback(multi) { _, socket, what, context, _ in
            guard let context else { return -1 }
            Unmanaged<SocketLoop>.fromOpaque(context).takeUnretainedValue().watch(socket, what)
            return 0
        }
        _ = errand_curl_multi_setopt_timer_callback(multi) { _, milliseconds, context in
            guard let context else { return -1 }
            Unmanaged<SocketLoop>.fromOpaque(context).takeUnretainedValue().arm(milliseconds)
            return 0
        }
        // The thread keeps the loop alive until stop() ends it; it then releases libcurl and the descriptors.
        Thread { [self] in run() }.start()
    }

    /// Starts the handle's transfer on the calling thread and waits for the loop to report it done.
    func perform(_ handle: RawLibcurl.Handle) async throws {
        handle.body.removeAll(keepingCapacity: true)
        let easy = UInt(bitPattern: handle.easy)
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            inbox.withLock { $0.append((easy, continuation)) }
            startQueued()
        }
    }

    /// Starts the inbox's transfers while the lock is free; a holder that keeps it will start them on its way out.
    private func startQueued() {
        while !inbox.withLock({ $0.isEmpty }) {
            let ran: Bool? = lock.withLockIfAvailable { (_: inout Void) -> Bool in
                let queued = inbox.withLock { queue in
                    defer { queue.removeAll() }
                    return queue
                }
                for item in queued {
                    guard let pointer = UnsafeMutableRawPointer(bitPattern: item.easy) else { continue }
                    waiting[pointer] = item.caller
                    curl_multi_add_handle(multi, pointer)
                }
                runDueTimers()
                collect()
                return true
            }
            if ran == nil { return }
        }
    }

    /// Ends the loop thread; it cleans up once it sees the wake-up.
    func stop() {
        var one: UInt64 = 1
        _ = write(wake, &one, 8)
    }

    private func run() {
        errand_name_this_thread("bench-socket-loop")
        var events = [epoll_event](repeating: epoll_event(), count: 64)
        var stopping = false
        while !stopping {
            let count = epoll_wait(epoll, &events, Int32(events.count), -1)
            if count < 0 {
                if errno == EINTR { continue }
                break
            }
            lock.withLock { _ in
                for index in 0..<Int(count) {
                    let descriptor = events[index].data.fd
                    var running: Int32 = 0
                    if descriptor == wake {
                        stopping = true
                    } else if descriptor == timer {
                        var expirations: UInt64 = 0
                        _ = read(timer, &expirations, 8)
                        curl_multi_socket_action(multi, errand_curl_socket_timeout, 0, &running)
                    } else {
                        let flags = events[index].events
                        var mask: Int32 = 0
                        if flags & (EPOLLIN.rawValue | EPOLLHUP.rawValue) != 0 { mask |= CURL_CSELECT_IN }
                        if flags & EPOLLOUT.rawValue != 0 { mask |= CURL_CSELECT_OUT }
                        if flags & EPOLLERR.rawValue != 0 { mask |= CURL_CSELECT_ERR }
                        curl_multi_socket_action(multi, descriptor, mask, &running)
                    }
                }
                runDueTimers()
                collect()
            }
            startQueued()
        }
        lock.withLock { _ in
            for (_, continuation) in waiting { continuation.resume(throwing: BenchError("the loop stopped")) }
            waiting.removeAll()
            curl_multi_cleanup(multi)
        }
        for descriptor in [epoll, timer, wake] { Glibc.close(descriptor) }
    }

    /// CURLMOPT_SOCKETFUNCTION: what libcurl wants to hear about a socket, kept in the epoll set.
    private func watch(_ socket: curl_socket_t, _ what: Int32) {
        var event = epoll_event()
        event.data.fd = socket
        if what == CURL_POLL_REMOVE {
            if watched.remove(socket) != nil { _ = epoll_ctl(epoll, EPOLL_CTL_DEL, socket, &event) }
            return
        }
        event.events =
            (what & CURL_POLL_IN != 0 ? EPOLLIN.rawValue : 0) | (what & CURL_POLL_OUT != 0 ? EPOLLOUT.rawValue : 0)
        if watched.insert(socket).inserted || epoll_ctl(epoll, EPOLL_CTL_MOD, socket, &event) != 0 {
            // New, or closed and reopened under the same number since it was last seen (the kernel dropped it).
            _ = epoll_ctl(epoll, EPOLL_CTL_ADD, socket, &event)
        }
    }

    /// CURLMOPT_TIMERFUNCTION: 0 ms runs the timers once the current call returns, -1 disarms, more arms the timerfd.
    private func arm(_ milliseconds: Int) {
        if milliseconds == 0 {
            timersDue = true
            return
        }
        var spec = itimerspec()
        if milliseconds > 0 {
            spec.it_value = timespec(tv_sec: milliseconds / 1000, tv_nsec: (milliseconds % 1000) * 1_000_000)
        }
        _ = timerfd_settime(timer, 0, &spec, nil)
    }

    private func runDueTimers() {
        while timersDue {
            timersDue = false
            var running: Int32 = 0
            curl_multi_socket_action(multi, errand_curl_socket_timeout, 0, &running)
        }
    }

    /// Resumes the callers whose transfers are done.
    private func collect() {
        var queued: Int32 = 0
        while let message = curl_multi_info_read(multi, &queued) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            let code = message.pointee.data.result
            curl_multi_remove_handle(multi, easy)
            guard let continuation = waiting.removeValue(forKey: easy) else { continue }
            if code == CURLE_OK {
                continuation.resume()
            } else {
                continuation.resume(throwing: BenchError("libcurl: \(String(cString: curl_easy_strerror(code)))"))
            }
        }
    }
}
#endif
