#if canImport(CCurl)
import CCurl
import Foundation

/// The baseline: libcurl used as plainly as a C program would — one reused easy handle with `curl_easy_perform`
/// when one request is in flight, a multi handle with one easy handle per concurrent request otherwise — on a thread
/// of its own, collecting each body into a reused buffer.
///
/// It keeps to the same connection limit per host as `errand-curl` (``connectionsPerHost``, `CurlTransport`'s
/// default): transfers beyond it wait in libcurl's own queue. Over https it negotiates HTTP/2 and multiplexes every
/// transfer on one connection (`CURLPIPE_MULTIPLEX`, `CURLOPT_PIPEWAIT`), as `CurlTransport` does.
enum RawLibcurl {
    /// `CurlTransport.Configuration`'s default `maxConnectionsPerHost`.
    static let connectionsPerHost = 8

    static func run(_ workload: Workload) async throws -> Measurement {
        try await onThread { try measure(workload) }
    }

    private static func measure(_ workload: Workload) throws -> Measurement {
        curl_global_init(Int(CURL_GLOBAL_ALL))
        let handles = try (0..<workload.concurrency).map { _ in try Handle(workload) }
        defer { for handle in handles { handle.close() } }
        let perform = workload.concurrency == 1 ? performSequentially : performConcurrently
        guard let multi = curl_multi_init() else { throw BenchError("libcurl: no multi handle") }
        defer { curl_multi_cleanup(multi) }
        _ = errand_curl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, connectionsPerHost)
        _ = errand_curl_multi_setopt_long(multi, CURLMOPT_PIPELINING, errand_curl_pipe_multiplex)
        try perform(multi, handles, workload, workload.warmUpRequests)
        var measurement = try Measurement.ofBlocking { try perform(multi, handles, workload, workload.requests) }
        measurement.httpVersion = handles.first?.httpVersion
        return measurement
    }

    private static func performSequentially(
        _ multi: UnsafeMutableRawPointer, _ handles: [Handle], _ workload: Workload, _ count: Int
    ) throws {
        guard let handle = handles.first else { return }
        for _ in 0..<count {
            handle.body.removeAll(keepingCapacity: true)
            let code = curl_easy_perform(handle.easy)
            guard code == CURLE_OK else { throw BenchError("libcurl: \(String(cString: curl_easy_strerror(code)))") }
            try workload.check(bodyLength: handle.body.count, status: handle.status)
        }
    }

    private static func performConcurrently(
        _ multi: UnsafeMutableRawPointer, _ handles: [Handle], _ workload: Workload, _ count: Int
    ) throws {
        var byEasy: [UnsafeMutableRawPointer: Handle] = [:]
        var started = 0
        var finished = 0
        func add(_ handle: Handle) {
            handle.body.removeAll(keepingCapacity: true)
            curl_multi_add_handle(multi, handle.easy)
            started += 1
        }
        for handle in handles.prefix(count) {
            byEasy[handle.easy] = handle
            add(handle)
        }
        var running: Int32 = 0
        while finished < count {
            curl_multi_perform(multi, &running)
            var queued: Int32 = 0
            while let message = curl_multi_info_read(multi, &queued) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                    let handle = byEasy[easy]
                else { continue }
                let code = message.pointee.data.result
                curl_multi_remove_handle(multi, easy)
                guard code == CURLE_OK else {
                    throw BenchError("libcurl: \(String(cString: curl_easy_strerror(code)))")
                }
                try workload.check(bodyLength: handle.body.count, status: handle.status)
                finished += 1
                if started < count { add(handle) }
            }
            if finished < count { curl_multi_poll(multi, nil, 0, 1000, nil) }
        }
    }

    /// Runs blocking work on a new thread and awaits its result.
    private static func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    /// One easy handle set up for the file's URL, with the buffer its body goes into.
    final class Handle {
        let easy: UnsafeMutableRawPointer
        var body: [UInt8] = []

        init(_ workload: Workload) throws {
            guard let easy = curl_easy_init() else { throw BenchError("libcurl: no easy handle") }
            self.easy = easy
            _ = errand_curl_easy_setopt_string(easy, CURLOPT_URL, workload.url.absoluteString)
            _ = errand_curl_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
            if workload.scheme == .https {
                if let ca = workload.caBundle { _ = errand_curl_easy_setopt_string(easy, CURLOPT_CAINFO, ca.path) }
                _ = errand_curl_easy_setopt_long(easy, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS))
                _ = errand_curl_easy_setopt_long(easy, CURLOPT_PIPEWAIT, 1)
            }
            _ = errand_curl_easy_setopt_data_callback(easy, CURLOPT_WRITEFUNCTION) { buffer, size, count, context in
                guard let buffer, let context else { return 0 }
                let handle = Unmanaged<Handle>.fromOpaque(context).takeUnretainedValue()
                handle.body.append(contentsOf: UnsafeRawBufferPointer(start: buffer, count: size * count))
                return size * count
            }
            _ = errand_curl_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, Unmanaged.passUnretained(self).toOpaque())
        }

        var status: Int {
            var code = 0
            _ = errand_curl_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &code)
            return code
        }

        /// The HTTP version of the last response, as `1.1` or `2`.
        var httpVersion: String? {
            var version = 0
            _ = errand_curl_easy_getinfo_long(easy, CURLINFO_HTTP_VERSION, &version)
            switch version {
            case Int(CURL_HTTP_VERSION_1_1): return "1.1"
            case Int(CURL_HTTP_VERSION_2_0): return "2"
            default: return nil
            }
        }

        func close() { curl_easy_cleanup(easy) }
    }
}
#endif
