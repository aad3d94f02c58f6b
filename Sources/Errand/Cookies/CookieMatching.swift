import Foundation

/// RFC 6265bis's host and domain rules (§5.1.2, §5.1.3).
enum CookieDomain {
    /// A host or `Domain` value as cookies compare them: ASCII lower case, IDNA-encoded when it is not ASCII, an IPv6
    /// literal without brackets.
    static func canonical(_ text: String) -> String {
        var host = text
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.utf8.allSatisfy({ $0 < 0x80 }) { return host.lowercased() }
        var components = URLComponents()
        components.host = host
        return (components.encodedHost ?? host).lowercased()
    }

    /// Whether a canonical host is an IP address (v4 dotted decimal or v6), which only matches itself.
    static func isIPAddress(_ host: String) -> Bool {
        if host.contains(":") { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { UInt8($0) != nil }
    }

    /// Whether `host` domain-matches `domain`: the same, or a name under it (never for an IP address).
    static func matches(host: String, domain: String) -> Bool {
        if host == domain { return true }
        guard host.count > domain.count, host.hasSuffix(domain), !isIPAddress(host) else { return false }
        return host.dropLast(domain.count).hasSuffix(".")
    }
}

/// RFC 6265bis's path rules (§5.1.4).
enum CookiePath {
    /// The path a cookie without a `Path` gets: the request's path up to, not including, its last `/`; `/` when
    /// that leaves nothing.
    static func defaultPath(of url: URL) -> String {
        let path = url.path(percentEncoded: true)
        guard path.hasPrefix("/"), let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    /// Whether a request path is at or below a cookie path: equal, or the cookie path is a prefix ending in `/` or
    /// followed by `/` in the request path.
    static func matches(requestPath: String, cookiePath: String) -> Bool {
        if requestPath == cookiePath { return true }
        guard requestPath.hasPrefix(cookiePath) else { return false }
        if cookiePath.hasSuffix("/") { return true }
        return requestPath.dropFirst(cookiePath.count).hasPrefix("/")
    }

    /// The path of a request as cookies see it: percent-encoded as sent, `/` when empty.
    static func requestPath(of url: URL) -> String {
        let path = url.path(percentEncoded: true)
        return path.isEmpty ? "/" : path
    }
}
