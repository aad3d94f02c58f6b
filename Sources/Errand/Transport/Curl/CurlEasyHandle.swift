#if canImport(CCurl)
import CCurl
import Foundation

/// One libcurl easy handle and the error buffer libcurl writes its detailed messages into.
///
/// `@unchecked Sendable` because it is a pair of raw pointers used by one thread only: the loop thread of the
/// transport whose pool made it sets it up, drives it and frees it.
struct CurlEasyHandle: @unchecked Sendable {
    let raw: UnsafeMutableRawPointer
    let errorBuffer: UnsafeMutablePointer<CChar>
    /// The request header lines the handle sends, reused while requests carry the same headers.
    let headerList: CurlHeaderList
    /// The per-request options as last set, so a request sets only those it changes.
    let applied: CurlAppliedOptions

    /// Makes a new handle, or `nil` when libcurl cannot allocate one.
    static func make() -> CurlEasyHandle? {
        CurlGlobal.ensureInitialized()
        guard let raw = curl_easy_init() else { return nil }
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: errand_curl_error_size)
        buffer.initialize(repeating: 0, count: errand_curl_error_size)
        return CurlEasyHandle(
            raw: raw, errorBuffer: buffer, headerList: CurlHeaderList(), applied: CurlAppliedOptions())
    }

    /// Frees the handle; it must not be in a multi handle.
    func destroy() {
        curl_easy_cleanup(raw)
        headerList.free()
        errorBuffer.deallocate()
    }

    /// Clears every option (connections and caches live in the multi handle and stay) and the last error message.
    func reset() {
        curl_easy_reset(raw)
        applied.forget()
        errorBuffer[0] = 0
    }

    /// libcurl's detailed message for the last failure, if it wrote one.
    var errorMessage: String? {
        let message = String(cString: errorBuffer)
        return message.isEmpty ? nil : message
    }

    // MARK: Options (libcurl copies strings; lists and callbacks' user data must outlive the transfer)

    func set(_ option: CURLoption, _ value: Int) {
        _ = errand_curl_easy_setopt_long(raw, option, value)
    }

    func set(_ option: CURLoption, _ value: Bool) {
        _ = errand_curl_easy_setopt_long(raw, option, value ? 1 : 0)
    }

    func set(_ option: CURLoption, size value: Int64) {
        _ = errand_curl_easy_setopt_off_t(raw, option, curl_off_t(value))
    }

    func set(_ option: CURLoption, _ value: String) -> CURLcode {
        errand_curl_easy_setopt_string(raw, option, value)
    }

    func set(_ option: CURLoption, pointer: UnsafeMutableRawPointer?) {
        _ = errand_curl_easy_setopt_pointer(raw, option, pointer)
    }

    func set(_ option: CURLoption, list: UnsafeMutablePointer<curl_slist>?) {
        _ = errand_curl_easy_setopt_slist(raw, option, list)
    }

    func set(_ option: CURLoption, callback: errand_curl_data_callback?) {
        _ = errand_curl_easy_setopt_data_callback(raw, option, callback)
    }

    func set(_ option: CURLoption, readCallback: errand_curl_read_callback) {
        _ = errand_curl_easy_setopt_read_callback(raw, option, readCallback)
    }

    func set(_ option: CURLoption, progressCallback: errand_curl_xferinfo_callback?) {
        _ = errand_curl_easy_setopt_xferinfo_callback(raw, option, progressCallback)
    }

    // MARK: Information

    func info(long: CURLINFO) -> Int? {
        var value = 0
        return errand_curl_easy_getinfo_long(raw, long, &value) == CURLE_OK ? value : nil
    }

    func info(offset: CURLINFO) -> Int64? {
        var value: curl_off_t = 0
        return errand_curl_easy_getinfo_off_t(raw, offset, &value) == CURLE_OK ? Int64(value) : nil
    }

    func info(string: CURLINFO) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard errand_curl_easy_getinfo_string(raw, string, &value) == CURLE_OK, let value else { return nil }
        return String(cString: value)
    }
}

/// The per-request options an easy handle was last given: libcurl keeps an option until it is set again, so a request
/// that sends what the handle's previous one sent (the same URL, method and headers, as clients mostly do) sets only
/// its timeout. Belongs to its handle and shares its confinement to the loop thread.
final class CurlAppliedOptions {
    /// The method and the body size its options were set for; `nil` when not known.
    var shape: CurlRequestShape?
    var url: String?
    /// The server key of ``url`` (its ``ServerIdentity`` as text), worked out once per URL.
    var hostKey = ""
    var headerList: UnsafeMutablePointer<curl_slist>?
    var pipeWait: Bool?
    var connectTimeout: Int?
    /// Whether libcurl calls the progress callback (only for requests someone watches the progress of).
    var reportsProgress: Bool?

    /// Forgets everything, after `curl_easy_reset`.
    func forget() {
        reportsProgress = nil
        shape = nil
        url = nil
        headerList = nil
        pipeWait = nil
        connectTimeout = nil
    }
}

/// What a request's method and body options depend on.
struct CurlRequestShape: Equatable {
    let method: HTTPMethod
    /// The `Content-Length` sent: the body's size, 0 for a POST without one, -1 for a body of unknown length, `nil` for
    /// no body.
    let bodySize: Int?
}

/// Easy handles kept for reuse, so a request does not pay for allocating and setting one up.
///
/// Every handle carries the transport's shared options (trust, pinning, protocol, callbacks) from its creation. Used
/// by the loop thread alone, so it needs no lock.
final class CurlEasyPool {
    // The loop thread's alone: no dynamic exclusivity checks (see CurlTransfer's loop-confined state).
    @exclusivity(unchecked) private var handles: [CurlEasyHandle] = []
    private let limit: Int
    private let configuration: CurlTransport.Configuration

    init(limit: Int, configuration: CurlTransport.Configuration) {
        self.limit = limit
        self.configuration = configuration
    }

    /// A handle from the pool, or a new one with the shared options set.
    func take() throws(ErrandError) -> CurlEasyHandle {
        if let handle = handles.popLast() { return handle }
        guard let handle = CurlEasyHandle.make() else {
            throw .transport(TransportFailure(kind: .other, underlying: "libcurl could not create a transfer handle"))
        }
        if let failure = handle.applySharedOptions(configuration) {
            handle.destroy()
            throw failure
        }
        return handle
    }

    /// Keeps a handle for the next request, or frees it when the pool is full.
    ///
    /// A handle whose transfer did not end cleanly (failed, aborted, paused) is reset to a blank state first, so no
    /// state of that transfer can leak into the next one.
    func recycle(_ handle: CurlEasyHandle, clean: Bool) {
        guard handles.count < limit else {
            handle.destroy()
            return
        }
        if clean {
            handle.errorBuffer[0] = 0
        } else {
            handle.reset()
            _ = handle.applySharedOptions(configuration)
        }
        handles.append(handle)
    }

    /// Frees every pooled handle.
    func drain() {
        for handle in handles { handle.destroy() }
        handles.removeAll()
    }
}

/// libcurl's process-wide initialisation, done once before the first handle exists.
enum CurlGlobal {
    private static let initialized: Bool = curl_global_init(Int(CURL_GLOBAL_ALL)) == CURLE_OK

    static func ensureInitialized() {
        _ = initialized
    }
}
#endif
