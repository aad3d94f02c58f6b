#if canImport(CCurl)
import CCurl
import Foundation

/// The trust options of a ``CurlTransport``'s handles: its ``ServerTrust`` when it has one, else the older
/// `caBundle` and `pinnedPublicKey`, for request handles and WebSocket connections alike.
enum CurlTrustOptions {
    static func apply(_ configuration: CurlTransport.Configuration, to easy: UnsafeMutableRawPointer) -> ErrandError? {
        guard let trust = configuration.trust else {
            if let caBundle = configuration.caBundle,
                errand_curl_easy_setopt_string(easy, CURLOPT_CAINFO, caBundle.path) != CURLE_OK
            {
                return .invalidRequest("the CA bundle \(caBundle.path) cannot be used.")
            }
            if let pin = configuration.pinnedPublicKey,
                errand_curl_easy_setopt_string(easy, CURLOPT_PINNEDPUBLICKEY, pin) != CURLE_OK
            {
                return .invalidRequest("public-key pinning is not supported by this libcurl.")
            }
            return nil
        }
        return apply(trust, to: easy)
    }

    private static func apply(_ trust: ServerTrust, to easy: UnsafeMutableRawPointer) -> ErrandError? {
        if !trust.anchors.isEmpty {
            // The blob replaces libcurl's CA file; its CA directory (Debian's /etc/ssl/certs) is the rest of the
            // system's trust, kept beside the anchors or dropped for anchors only. The same anchors verify an
            // https proxy.
            let pem = trust.anchors.map(\.pem).joined()
            for (blob, path) in [
                (CURLOPT_CAINFO_BLOB, CURLOPT_CAPATH), (CURLOPT_PROXY_CAINFO_BLOB, CURLOPT_PROXY_CAPATH),
            ] {
                guard set(blob, pem: pem, on: easy) == CURLE_OK else {
                    return .invalidRequest("this libcurl cannot take trust anchors from memory.")
                }
                if trust.anchorsOnly { _ = errand_curl_easy_setopt_pointer(easy, path, nil) }
            }
        }
        guard !trust.pins.isEmpty else { return nil }
        let pins = trust.pins.map(\.description).joined(separator: ";")
        guard errand_curl_easy_setopt_string(easy, CURLOPT_PINNEDPUBLICKEY, pins) == CURLE_OK else {
            return .invalidRequest("public-key pinning is not supported by this libcurl.")
        }
        return nil
    }

    private static func set(_ option: CURLoption, pem: String, on easy: UnsafeMutableRawPointer) -> CURLcode {
        // CURL_BLOB_COPY: libcurl keeps its own copy, so the bytes need not outlive this call.
        var bytes = Array(pem.utf8)
        return bytes.withUnsafeMutableBytes { buffer in
            var value = curl_blob(data: buffer.baseAddress, len: buffer.count, flags: UInt32(CURL_BLOB_COPY))
            return withUnsafeMutablePointer(to: &value) { errand_curl_easy_setopt_pointer(easy, option, $0) }
        }
    }
}
#endif
