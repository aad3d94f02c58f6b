import CCurl
import Foundation

extension CurlTransfer {
    /// Sets every option the current hop needs on a freshly reset handle.
    func configure(_ easy: CurlEasyHandle) throws(ErrandError) {
        let configuration = owner.configuration
        guard easy.set(CURLOPT_URL, hop.url.absoluteString) == CURLE_OK else {
            throw .invalidURL("\(hop.url.absoluteString) is not a URL libcurl accepts.")
        }
        easy.set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(easy.errorBuffer))
        easy.set(CURLOPT_NOSIGNAL, true)
        _ = easy.set(CURLOPT_PROTOCOLS_STR, "http,https")
        try configureMethodAndBody(easy)
        configureHeaders(easy)

        // An empty string asks for every encoding libcurl decodes (gzip, deflate, br) and decodes the response.
        _ = easy.set(CURLOPT_ACCEPT_ENCODING, "")
        if configuration.prefersHTTP2 {
            easy.set(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS))
            // Wait for a connection being opened to the same host to offer multiplexing instead of opening more.
            if hop.url.scheme?.lowercased() == "https" { easy.set(CURLOPT_PIPEWAIT, true) }
        } else {
            easy.set(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_1_1))
        }
        easy.set(CURLOPT_SSLVERSION, Int(CURL_SSLVERSION_TLSv1_2))
        if let caBundle = configuration.caBundle {
            guard easy.set(CURLOPT_CAINFO, caBundle.path) == CURLE_OK else {
                throw .invalidRequest("the CA bundle \(caBundle.path) cannot be used.")
            }
        }
        if let pin = configuration.pinnedPublicKey {
            guard easy.set(CURLOPT_PINNEDPUBLICKEY, pin) == CURLE_OK else {
                throw .invalidRequest("public-key pinning is not supported by this libcurl.")
            }
        }
        try configureTimeouts(easy)

        let context = Unmanaged.passUnretained(self).toOpaque()
        easy.set(CURLOPT_HEADERFUNCTION, callback: curlHeaderCallback)
        easy.set(CURLOPT_HEADERDATA, pointer: context)
        easy.set(CURLOPT_WRITEFUNCTION, callback: curlWriteCallback)
        easy.set(CURLOPT_WRITEDATA, pointer: context)
        if requestBody != nil {
            easy.set(CURLOPT_READFUNCTION, readCallback: curlReadCallback)
            easy.set(CURLOPT_READDATA, pointer: context)
        }
    }

    private func configureMethodAndBody(_ easy: CurlEasyHandle) throws(ErrandError) {
        requestBody = try CurlRequestBody.open(hop.body)
        let method = hop.method
        if let requestBody {
            // POST with a known size sends Content-Length and reads the bytes through the read callback.
            easy.set(CURLOPT_POST, true)
            easy.set(CURLOPT_POSTFIELDSIZE_LARGE, size: Int64(requestBody.size))
            if method != .post { _ = easy.set(CURLOPT_CUSTOMREQUEST, method.rawValue) }
        } else if method == .head {
            easy.set(CURLOPT_NOBODY, true)
        } else if method == .post {
            easy.set(CURLOPT_POSTFIELDSIZE_LARGE, size: 0)
            _ = easy.set(CURLOPT_COPYPOSTFIELDS, "")
        } else if method != .get {
            _ = easy.set(CURLOPT_CUSTOMREQUEST, method.rawValue)
        }
    }

    private func configureHeaders(_ easy: CurlEasyHandle) {
        var list: UnsafeMutablePointer<curl_slist>?
        func append(_ line: String) {
            if let grown = curl_slist_append(list, line) { list = grown }
        }
        for field in hop.headers {
            // "Name:" would remove a header libcurl adds; "Name;" is libcurl's way to send an empty value.
            append(field.value.isEmpty ? "\(field.name);" : "\(field.name): \(field.value)")
        }
        // libcurl would add `Expect: 100-continue` to large bodies (a round trip of waiting) and a form
        // Content-Type to any POST; neither is the caller's request.
        if !hop.headers.contains("Expect") { append("Expect:") }
        if requestBody != nil && !hop.headers.contains("Content-Type") { append("Content-Type:") }
        headerList = list
        easy.set(CURLOPT_HTTPHEADER, list: list)
    }

    private func configureTimeouts(_ easy: CurlEasyHandle) throws(ErrandError) {
        if let connect = request.timeouts.connect {
            easy.set(CURLOPT_CONNECTTIMEOUT_MS, max(1, Self.milliseconds(connect)))
        }
        if let deadline {
            let left = Self.milliseconds(deadline - .now)
            guard left > 0 else {
                throw .transport(TransportFailure(
                    kind: .timedOut, url: hop.url, underlying: "no complete response within \(request.timeouts.total ?? .zero)"))
            }
            easy.set(CURLOPT_TIMEOUT_MS, left)
        }
    }

    /// A duration in whole milliseconds, rounded up so a positive duration never becomes zero (which libcurl
    /// reads as "no timeout").
    static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        let fraction = attoseconds > 0 ? (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000 : 0
        return Int(seconds) * 1000 + Int(fraction)
    }
}
