#if canImport(CCurl)
import Foundation

/// One request on the wire: the original one, or the one a followed redirect leads to.
///
/// libcurl's own redirect following is off: Errand decides each hop itself, so the rules are the same as every other
/// transport's and visible in one place.
struct CurlHop: Sendable {
    var method: HTTPMethod
    var url: URL
    var headers: HTTPHeaders
    var body: TransportBody

    init(_ request: TransportRequest) {
        method = request.method
        url = request.url
        headers = request.headers
        body = request.body
    }

    /// The key of a URL's host for connection slots: scheme, host (in lower case) and port, the scheme's default
    /// when absent.
    static func hostKey(_ url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
    }

    /// The hop a redirect with `status` to `target` leads to, or the failure that refuses it.
    ///
    /// https never goes to http; credentials stay behind when the host or port changes; 307 and 308 repeat
    /// the method and body; 303 turns into GET (HEAD stays HEAD); 301 and 302 turn POST into GET.
    func following(status: Int, to target: URL) -> Result<CurlHop, ErrandError> {
        let fromScheme = url.scheme?.lowercased()
        let toScheme = target.scheme?.lowercased()
        guard toScheme == "https" || (toScheme == "http" && fromScheme == "http") else {
            return .failure(.transport(TransportFailure(
                kind: .insecureRedirect, url: url,
                underlying: "refused redirect from \(fromScheme ?? "?") to \(toScheme ?? "?")")))
        }
        var next = self
        next.url = target
        if !RedirectPolicy.sameServer(url, target) {
            for name in RedirectPolicy.credentialHeaders { next.headers.remove(name) }
        }
        switch status {
        case 303 where method != .head:
            next.dropBody(becoming: .get)
        case 301 where method == .post, 302 where method == .post:
            next.dropBody(becoming: .get)
        default:
            break
        }
        return .success(next)
    }

    private mutating func dropBody(becoming newMethod: HTTPMethod) {
        method = newMethod
        body = .none
        headers.remove("Content-Type")
        headers.remove("Content-Length")
    }
}
#endif
