#if canImport(CCurl)
import CCurl
import Foundation

/// The baseline: libcurl used as plainly as a C program would — one reused easy handle with `curl_easy_perform`
/// when one request is in flight, a multi handle with one easy handle per concurrent request otherwise — on a thread
/// of its own, collecting each body into a reused buffer.
enum RawLibcurl {
    static func run(_ workload: Workload) async throws -> Measurement {
        try await onThread { try measure(workload) }
    }

    private static func measure(_ workload: Workload) throws -> Measurement {
        curl_global_init(Int(CURL_GLOBAL_ALL))
        let handles = try (0..<workload.concurrency).map { _ in try Handle(url: workload.url) }
        defer { handles.forEach { $0.close() } }
        let perform = workload.concurrency == 1 ? performSequentially : performConcurrently
        try perform(handles, workload, workload.warmUpRequests)
        return try Measurement.ofBlocking { try perform(handles, workload, workload.requests) }
    }

    private static func performSequentially(_ handles: [Handle], _ workload: Workload, _ count: Int) throws {
        guard let handle = handles.first else { return }
        for _ in 0..<count {
            handle.body.removeAll(keepingCapacity: true)
            let code = curl_easy_perform(handle.easy)
            guard code == CURLE_OK else { throw BenchError("libcurl: \(String(cString: curl_easy_strerror(code)))") }
            try workload.check(bodyLength: handle.body.count, status: handle.status)
        }
    }

    private static func performConcurrently(_ handles: [Handle], _ workload: Workload, _ count: Int) throws {
        guard let multi = curl_multi_init() else { throw BenchError("libcurl: no multi handle") }
        defer { curl_multi_cleanup(multi) }
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
                guard code == CURLE_OK else { throw BenchError("libcurl: \(String(cString: curl_easy_strerror(code)))") }
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

        init(url: URL) throws {
            guard let easy = curl_easy_init() else { throw BenchError("libcurl: no easy handle") }
            self.easy = easy
            _ = errand_curl_easy_setopt_string(easy, CURLOPT_URL, url.absoluteString)
            _ = errand_curl_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
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

        func close() { curl_easy_cleanup(easy) }
    }
}
#endif
