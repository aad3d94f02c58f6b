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
    /// The rules every hop obeys.
    let policy: RedirectPolicy

    init(_ request: TransportRequest) {
        method = request.method
        url = request.url
        headers = request.headers
        body = request.body
        policy = request.redirects
    }

    /// Statuses that redirect when they carry a `Location`.
    static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

    /// The hop a redirect with `status` to `target` leads to, or the failure that refuses it.
    ///
    /// Each hop obeys ``RedirectPolicy/refusal(from:to:)`` (https never goes to http; plain http only where the
    /// client may use it); credentials stay behind when the scheme, host or port changes; 307 and 308 repeat the
    /// method and body; 303 turns into GET (HEAD stays HEAD); 301 and 302 turn POST into GET.
    func following(status: Int, to target: URL) -> Result<CurlHop, ErrandError> {
        if let refusal = policy.refusal(from: url, to: target) { return .failure(.transport(refusal)) }
        var next = self
        next.url = target
        next.headers = RedirectPolicy.headers(headers, from: url, to: target)
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
