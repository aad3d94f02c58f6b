#if canImport(CCurl)
import CCurl
import Foundation

extension CurlEasyHandle {
    /// Sets where connections go (proxy, Unix socket) and the client certificate, once per handle.
    func applyConnectivityOptions(_ configuration: CurlTransport.Configuration) -> ErrandError? {
        // An empty proxy and no-proxy list keep libcurl from reading `http_proxy` and the rest by itself: only
        // ``ProxySettings`` decides, per request (``CurlTransfer/configureProxy(_:)``).
        _ = set(CURLOPT_PROXY, "")
        _ = set(CURLOPT_NOPROXY, "")
        if configuration.proxy != .direct {
            // CURLAUTH_BASIC (1 << 0), a macro Swift cannot import: Basic only, never a scheme the proxy proposes.
            set(CURLOPT_PROXYAUTH, 1)
            if configuration.trust == nil, let caBundle = configuration.caBundle {
                _ = set(CURLOPT_PROXY_CAINFO, caBundle.path)
            }
        }
        if let path = configuration.unixSocketPath, set(CURLOPT_UNIX_SOCKET_PATH, path) != CURLE_OK {
            return .invalidRequest("this libcurl cannot connect to the Unix socket \(path).")
        }
        if let certificate = configuration.clientCertificate {
            return apply(certificate)
        }
        return nil
    }

    private func apply(_ certificate: ClientCertificate) -> ErrandError? {
        let unusable = ErrandError.invalidRequest("this libcurl cannot use the client certificate.")
        let isPKCS12 = if case .pkcs12 = certificate.certificate { true } else { false }
        _ = set(CURLOPT_SSLCERTTYPE, isPKCS12 ? "P12" : "PEM")
        guard set(certificate.certificate, path: CURLOPT_SSLCERT, blob: CURLOPT_SSLCERT_BLOB) == CURLE_OK else {
            return unusable
        }
        if let key = certificate.key {
            _ = set(CURLOPT_SSLKEYTYPE, "PEM")
            guard set(key, path: CURLOPT_SSLKEY, blob: CURLOPT_SSLKEY_BLOB) == CURLE_OK else { return unusable }
        }
        guard let passphrase = certificate.passphrase else { return nil }
        do {
            _ = set(CURLOPT_KEYPASSWD, try passphrase.resolved())
            return nil
        } catch {
            return error
        }
    }

    private func set(_ source: ClientCertificate.Source, path: CURLoption, blob: CURLoption) -> CURLcode {
        switch source {
        case .file(let url):
            return set(path, url.path)
        #if canImport(Security)
        case .identity:
            // A keychain identity is URLSession's; libcurl takes the same certificate exported as PKCS#12.
            return CURLE_BAD_FUNCTION_ARGUMENT
        #endif
        case .pem(let data), .pkcs12(let data):
            // CURL_BLOB_COPY: libcurl keeps its own copy, so the bytes need not outlive this call.
            var bytes = [UInt8](data)
            return bytes.withUnsafeMutableBytes { buffer in
                var value = curl_blob(data: buffer.baseAddress, len: buffer.count, flags: UInt32(CURL_BLOB_COPY))
                return withUnsafeMutablePointer(to: &value) { errand_curl_easy_setopt_pointer(raw, blob, $0) }
            }
        }
    }
}
#endif
