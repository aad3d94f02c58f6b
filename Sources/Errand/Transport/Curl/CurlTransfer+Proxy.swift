#if canImport(CCurl)
import CCurl
import Foundation

extension CurlEasyHandle {
    /// Points the handle at the proxy `settings` pick for `url`, or straight at the server.
    func pointAtProxy(_ settings: ProxySettings, for url: URL) {
        guard settings != .direct else { return }
        guard let server = settings.proxy(for: url) else {
            _ = set(CURLOPT_PROXY, "")
            return
        }
        _ = set(CURLOPT_PROXY, "\(server.kind.rawValue)://\(server.hostAndPort)")
        // Set apart from the proxy URL, so that no URL libcurl might print carries them.
        if let credentials = server.credentials {
            _ = set(CURLOPT_PROXYUSERNAME, credentials.user)
            _ = set(CURLOPT_PROXYPASSWORD, credentials.password)
        } else {
            set(CURLOPT_PROXYUSERNAME, pointer: nil)
            set(CURLOPT_PROXYPASSWORD, pointer: nil)
        }
    }
}

extension CurlTransfer {
    /// Points the handle at the proxy ``ProxySettings`` picks for this request's URL, or straight at the server.
    ///
    /// Set on every request of a transport with proxy settings (the choice depends on the URL), never on one without.
    func configureProxy(_ easy: CurlEasyHandle) {
        easy.pointAtProxy(owner.configuration.proxy, for: request.url)
    }

    /// The error for a hop that ended with `code`, worded for the proxy or the client certificate when one of them
    /// is what failed.
    func failure(for code: CURLcode) -> ErrandError {
        let generic = CurlFailure.error(for: code, message: easy?.errorMessage, url: request.url)
        guard case .transport(var failure) = generic else { return generic }
        if let proxy = owner.configuration.proxy.proxy(for: request.url), code != CURLE_OK,
            let status = easy?.info(long: CURLINFO_HTTP_CONNECTCODE), status >= 300
        {
            failure.kind = .proxy
            failure.underlying = Self.proxyRefusal(status: status, proxy: proxy) + " (\(failure.underlying))"
            return .transport(failure)
        }
        if code == CURLE_SSL_CERTPROBLEM, owner.configuration.clientCertificate != nil {
            failure.underlying =
                "the client certificate or its key cannot be used: a wrong passphrase, a key that does not match the "
                + "certificate, or a file that is not PEM (\(failure.underlying))"
        }
        return .transport(failure)
    }

    static func proxyRefusal(status: Int, proxy: ProxyServer) -> String {
        let address = proxy.hostAndPort
        // tinyproxy, for one, answers wrong credentials with 401 rather than 407.
        switch status {
        case 407 where proxy.credentials == nil:
            return "the proxy \(address) asks for a user name and password (407 Proxy Authentication Required)"
        case 401, 407:
            return "the proxy \(address) refused the user name and password (status \(status))"
        default:
            return "the proxy \(address) refused to open a tunnel to the server (status \(status))"
        }
    }
}
#endif
