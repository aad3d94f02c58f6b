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

    /// The key of a URL's server for connection slots — scheme and host in lower case, and the port (the scheme's
    /// default when absent) — read from the URL's text in one pass, without asking `URL` for its parts.
    static func hostKey(ofURLText text: String) -> String {
        text.utf8.withContiguousStorageIfAvailable { hostKey(ofURLBytes: $0) } ?? hostKey(ofURLBytes: Array(text.utf8))
    }

    private static func hostKey<Bytes: RandomAccessCollection<UInt8>>(ofURLBytes bytes: Bytes) -> String
    where Bytes.Index == Int, Bytes.SubSequence: RandomAccessCollection<UInt8> {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return String(decoding: bytes, as: UTF8.self) }
        let scheme = lowercased(bytes[..<colon])
        var start = colon + 1
        while start < bytes.endIndex, bytes[start] == UInt8(ascii: "/") { start += 1 }
        var end = start
        while end < bytes.endIndex, bytes[end] != UInt8(ascii: "/"), bytes[end] != UInt8(ascii: "?"),
            bytes[end] != UInt8(ascii: "#")
        { end += 1 }
        // user:password@ is not part of the server.
        if let at = bytes[start..<end].lastIndex(of: UInt8(ascii: "@")) { start = at + 1 }
        let authority = bytes[start..<end]
        // The port follows the last colon, unless that colon is inside an IPv6 literal's brackets.
        var hostEnd = authority.endIndex
        var port = authority[authority.endIndex...]
        if let portColon = authority.lastIndex(of: UInt8(ascii: ":")),
            authority.lastIndex(of: UInt8(ascii: "]")).map({ $0 < portColon }) ?? true
        {
            hostEnd = portColon
            port = authority[(portColon + 1)...]
        }
        let defaultPort = scheme.elementsEqual("https".utf8) ? "443" : "80"
        return String(decoding: scheme, as: UTF8.self) + "://"
            + String(decoding: lowercased(authority[..<hostEnd]), as: UTF8.self) + ":"
            + (port.isEmpty ? defaultPort : String(decoding: port, as: UTF8.self))
    }

    private static func lowercased<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> [UInt8] {
        bytes.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 | 0x20 : $0 }
    }

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
