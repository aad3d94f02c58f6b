#if canImport(CCurl)
import CCurl
import Foundation

/// Maps libcurl's result codes to Errand's failure kinds.
enum CurlFailure {
    /// The failure for a transfer that ended with `code`; `message` is libcurl's detailed text, if any.
    static func error(for code: CURLcode, message: String?, url: URL) -> ErrandError {
        let summary = String(cString: curl_easy_strerror(code))
        let underlying = message.map { "\(summary): \($0)" } ?? summary
        if code == CURLE_URL_MALFORMAT {
            return .invalidURL("\(url.absoluteString) is not a URL libcurl accepts (\(underlying)).")
        }
        return .transport(TransportFailure(kind: kind(of: code), url: url, underlying: underlying))
    }

    static func kind(of code: CURLcode) -> TransportFailure.Kind {
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            return .timedOut
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return .dnsFailure
        case CURLE_COULDNT_CONNECT:
            return .cannotConnect
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
            CURLE_SSL_CACERT_BADFILE, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_CRL_BADFILE,
            CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED,
            CURLE_SSL_ENGINE_INITFAILED, CURLE_USE_SSL_FAILED, CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_CLIENTCERT:
            return .tls
        case CURLE_GOT_NOTHING, CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_PARTIAL_FILE, CURLE_HTTP2,
            CURLE_HTTP2_STREAM:
            return .connectionLost
        case CURLE_TOO_MANY_REDIRECTS:
            return .tooManyRedirects
        case CURLE_BAD_CONTENT_ENCODING, CURLE_WEIRD_SERVER_REPLY:
            return .badResponse
        // Errand refuses every scheme but http and https before sending, so here this is an answer that is not HTTP
        // libcurl speaks: an HTTP/0.9 reply, or a status line with an unknown version.
        case CURLE_UNSUPPORTED_PROTOCOL:
            return .badResponse
        // libcurl 7.88 says "out of memory" for a header line longer than its 100 KB limit.
        case CURLE_OUT_OF_MEMORY:
            return .badResponse
        default:
            return .other
        }
    }
}
#endif
