#if canImport(CCurl)
import CCurl
import Foundation

extension CurlEasyHandle {
    /// Sets the options every request of a transport shares; done once per handle, not per request.
    ///
    /// Handles are reused without `curl_easy_reset` (which measured a fifth of libcurl's cost per request), so
    /// ``CurlTransfer/configure(_:)`` sets each option a request may change whenever its value differs from the one
    /// the handle's previous request left (``CurlAppliedOptions``).
    func applySharedOptions(_ configuration: CurlTransport.Configuration) -> ErrandError? {
        set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
        set(CURLOPT_NOSIGNAL, true)
        _ = set(CURLOPT_PROTOCOLS_STR, "http,https")
        // Bodies arrive as sent: Errand decodes them itself (``ContentDecoder``), so a coded stream cut short is noticed.
        set(CURLOPT_HTTP_CONTENT_DECODING, false)
        set(CURLOPT_HTTP_VERSION, Int(configuration.prefersHTTP2 ? CURL_HTTP_VERSION_2TLS : CURL_HTTP_VERSION_1_1))
        set(CURLOPT_SSLVERSION, Int(CURL_SSLVERSION_TLSv1_2))
        if let error = CurlTrustOptions.apply(configuration, to: raw) { return error }
        if let error = applyConnectivityOptions(configuration) { return error }
        // Every head comes through the header callback, line by line, into one byte buffer (``ResponseHead``).
        set(CURLOPT_HEADERFUNCTION, callback: curlHeaderCallback)
        set(CURLOPT_WRITEFUNCTION, callback: curlWriteCallback)
        set(CURLOPT_READFUNCTION, readCallback: curlReadCallback)
        return nil
    }
}

extension CurlTransfer {
    /// Takes `easy` for this transfer's life and sets it up for the request.
    func configure(taking easy: CurlEasyHandle) throws(ErrandError) {
        self.easy = easy
        let context = Unmanaged.passUnretained(self).toOpaque()
        easy.set(CURLOPT_HEADERDATA, pointer: context)
        easy.set(CURLOPT_WRITEDATA, pointer: context)
        easy.set(CURLOPT_READDATA, pointer: context)
        // Zero restores libcurl's default of 300 s to connect.
        let connectTimeout = request.timeouts.connect.map { max(1, Self.milliseconds($0)) } ?? 0
        if easy.applied.connectTimeout != connectTimeout {
            easy.set(CURLOPT_CONNECTTIMEOUT_MS, connectTimeout)
            easy.applied.connectTimeout = connectTimeout
        }
        configureProgress(easy, context: context)
        try configure(easy)
    }

    /// Switches libcurl's progress callback on for a request whose progress someone watches, and off again for one
    /// nobody watches, so that an unwatched transfer pays nothing for progress.
    private func configureProgress(_ easy: CurlEasyHandle, context: UnsafeMutableRawPointer) {
        let reports = progress != nil
        if reports {
            easy.set(CURLOPT_XFERINFODATA, pointer: context)
        }
        guard easy.applied.reportsProgress != reports else { return }
        easy.set(CURLOPT_XFERINFOFUNCTION, progressCallback: reports ? curlProgressCallback : nil)
        easy.set(CURLOPT_NOPROGRESS, !reports)
        easy.applied.reportsProgress = reports
    }

    /// Sets the options the request needs differently from the handle's previous one.
    func configure(_ easy: CurlEasyHandle) throws(ErrandError) {
        // The URL's text, read once: its scheme is taken from it too, without asking `URL` to parse its parts.
        let urlText = request.url.absoluteString
        if easy.applied.url != urlText {
            easy.applied.url = nil
            guard easy.set(CURLOPT_URL, urlText) == CURLE_OK else {
                throw .invalidURL("\(urlText) is not a URL libcurl accepts.")
            }
            easy.applied.url = urlText
            easy.applied.hostKey = ServerIdentity(urlText: urlText)?.description ?? urlText
        }
        isTLS = Self.isHTTPS(urlText)
        hostKey = easy.applied.hostKey
        configureProxy(easy)
        configureMethodAndBody(easy)
        configureHeaders(easy)
        // Over TLS, wait for a connection being opened to the same host to offer HTTP/2 multiplexing rather than
        // opening more connections.
        let pipeWait = owner.configuration.prefersHTTP2 && isTLS
        if easy.applied.pipeWait != pipeWait {
            easy.set(CURLOPT_PIPEWAIT, pipeWait)
            easy.applied.pipeWait = pipeWait
        }
    }

    private func configureMethodAndBody(_ easy: CurlEasyHandle) {
        let method = request.method
        let bodySize = requestBody.map { $0.size ?? -1 } ?? (method == .post ? 0 : nil)
        let shape = CurlRequestShape(method: method, bodySize: bodySize)
        guard easy.applied.shape != shape else { return }
        easy.applied.shape = shape
        // HTTPGET also switches off NOBODY and upload left from the handle's previous request.
        easy.set(CURLOPT_HTTPGET, true)
        if let requestBody {
            // POST with a known size sends Content-Length and reads the bytes through the read callback; with -1 (a
            // streamed body of unknown length) libcurl sends HTTP/1.1 chunked and lets HTTP/2 frame it.
            easy.set(CURLOPT_POST, true)
            easy.set(CURLOPT_POSTFIELDSIZE_LARGE, size: Int64(requestBody.size ?? -1))
        } else if method == .post {
            // A zero size without post fields sends an empty body with `Content-Length: 0`.
            easy.set(CURLOPT_POST, true)
            easy.set(CURLOPT_POSTFIELDSIZE_LARGE, size: 0)
        } else {
            easy.set(CURLOPT_POSTFIELDSIZE_LARGE, size: -1)
            if method == .head { easy.set(CURLOPT_NOBODY, true) }
        }
        let standard = method == .get || method == .head || method == .post
        easy.set(CURLOPT_CUSTOMREQUEST, pointer: nil)
        if !standard { _ = easy.set(CURLOPT_CUSTOMREQUEST, method.rawValue) }
    }

    private func configureHeaders(_ easy: CurlEasyHandle) {
        let body: CurlHeaderList.BodyKind =
            requestBody == nil ? .none : request.headers.contains("Content-Type") ? .some : .withoutContentType
        let list = easy.headerList.list(for: request.headers, body: body)
        guard easy.applied.headerList != list else { return }
        easy.set(CURLOPT_HTTPHEADER, list: list)
        easy.applied.headerList = list
    }

    /// Whether a URL's text starts with the `https:` scheme (in any case).
    static func isHTTPS(_ urlText: String) -> Bool {
        var letters = urlText.utf8.makeIterator()
        for expected in "https:".utf8 {
            guard let byte = letters.next(), byte | (byte >= UInt8(ascii: "A") ? 0x20 : 0) == expected else {
                return false
            }
        }
        return true
    }

    /// Sets the time left of the total timeout, as the hop enters the multi handle (time spent waiting for a
    /// connection slot counts); false when none is left.
    func applyTimeLeft(_ easy: CurlEasyHandle) -> Bool {
        guard let deadline else {
            easy.set(CURLOPT_TIMEOUT_MS, 0)
            return true
        }
        let left = Self.milliseconds(deadline - .now)
        guard left > 0 else { return false }
        easy.set(CURLOPT_TIMEOUT_MS, left)
        return true
    }

    /// The failure of a transfer whose total timeout passed before libcurl could enforce it.
    var totalTimeoutFailure: ErrandError {
        .transport(
            TransportFailure(
                kind: .timedOut, url: request.url,
                underlying: "no complete response within \(request.timeouts.total ?? .zero)"))
    }

    /// A duration in whole milliseconds, rounded up so a positive duration never becomes zero (which libcurl
    /// reads as "no timeout").
    static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        let fraction = attoseconds > 0 ? (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000 : 0
        return Int(seconds) * 1000 + Int(fraction)
    }
}
#endif
