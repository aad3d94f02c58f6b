import Foundation

/// RFC 6265bis's host and domain rules (§5.1.2, §5.1.3), on one canonical form that every check reads.
enum CookieDomain {
    /// The longest host name, in bytes (a trailing dot included).
    static let maxLength = 254

    /// A host or `Domain` value as cookies compare it, or `nil` when it cannot name a host.
    ///
    /// The form: ASCII lower case, IDNA-encoded when it is not ASCII, an IPv6 literal without brackets; labels of
    /// letters, digits, `-` and `_`, none empty but a final one: a trailing dot stays, as RFC 6265bis compares hosts as
    /// strings (`example.com.` is not `example.com`), and the public suffix list reads through it
    /// (``PublicSuffixList/isPublicSuffix(_:)``), so `com.` is as public as `com`.
    static func canonical(_ text: String) -> String? {
        var host = text
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if !host.utf8.allSatisfy({ $0 < 0x80 }) {
            var components = URLComponents()
            components.host = host
            guard let encoded = components.encodedHost else { return nil }
            host = encoded
        }
        host = host.lowercased()
        return isWellFormed(host) ? host : nil
    }

    /// Whether lower-case ASCII text is a host name or an IP address in the canonical form.
    private static func isWellFormed(_ host: String) -> Bool {
        let bytes = host.utf8
        guard !bytes.isEmpty, bytes.count <= maxLength else { return false }
        if bytes.contains(UInt8(ascii: ":")) {
            return bytes.allSatisfy { isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }
        }
        let labels = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        for (index, label) in labels.enumerated() {
            if label.isEmpty {
                // Only the empty label after a trailing dot, and not the whole name.
                guard index == labels.count - 1, index > 0 else { return false }
                continue
            }
            guard label.allSatisfy({ isLetterOrDigit($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") })
            else { return false }
        }
        return true
    }

    /// Whether a canonical host is an IP address, which only matches itself: an IPv6 literal, or a name whose last
    /// label is a number (decimal or `0x` hex), which resolvers and URL parsers read as IPv4 (`127.0.0.1`, `127.1`,
    /// `0x7f.1`, `2130706433`), and which no registered domain ends in.
    static func isIPAddress(_ host: String) -> Bool {
        if host.utf8.contains(UInt8(ascii: ":")) { return true }
        var name = Substring(host)
        if name.hasSuffix(".") { name = name.dropLast() }
        guard let last = name.split(separator: ".", omittingEmptySubsequences: false).last, !last.isEmpty else {
            return false
        }
        if last.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) { return true }
        let lowered = last.lowercased()
        return lowered.hasPrefix("0x") && lowered.utf8.dropFirst(2).allSatisfy(isHexDigit)
    }

    /// Whether canonical `host` domain-matches canonical `domain`: the same, or a name under it; an IP address
    /// matches only itself, on either side.
    static func matches(host: String, domain: String) -> Bool {
        if host == domain { return true }
        guard host.utf8.count > domain.utf8.count, host.hasSuffix(domain), !isIPAddress(host), !isIPAddress(domain)
        else { return false }
        return host.dropLast(domain.count).hasSuffix(".")
    }

    /// The domains a host's cookies may be stored under: the host, then each name above it (`a.b.c`, `b.c`, `c`),
    /// a trailing dot kept on each; an IP address alone.
    static func candidates(for host: String) -> [String] {
        guard !isIPAddress(host) else { return [host] }
        var domains = [host]
        var rest = Substring(host)
        while let dot = rest.firstIndex(of: "."), rest.index(after: dot) < rest.endIndex {
            rest = rest[rest.index(after: dot)...]
            if rest == "." { break }
            domains.append(String(rest))
        }
        return domains
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
    }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
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
