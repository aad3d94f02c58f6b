import Foundation

/// A server as Errand tells servers apart: scheme and host in lower case, the host IDNA-encoded, the port explicit.
///
/// It is the one answer to "is this the same server?" everywhere it is asked: the connection slots a transport keeps
/// per server, whether a redirect hop keeps its credentials, the rate limiter's per-host budgets and the cache's key.
/// `https://Example.COM/a` and `https://example.com:443/b` are the same server; `http://example.com` is another
/// (another scheme), and so is `https://example.com:8443`. User names and passwords in a URL are not part of it.
public struct ServerIdentity: Hashable, Sendable, CustomStringConvertible {
    /// The scheme, lower-cased (`https`).
    public let scheme: String
    /// The host, lower-cased and IDNA-encoded (`xn--bcher-kva.example`); an IPv6 literal without its brackets.
    public let host: String
    /// The port: the URL's own, or the scheme's default (443 for https, 80 for http).
    public let port: Int

    /// The server of an absolute URL, or `nil` when it names no host (a relative reference, `file:`, `data:`).
    public init?(_ url: URL) {
        guard let scheme = url.scheme?.lowercased(), let rawHost = url.host(percentEncoded: true), !rawHost.isEmpty
        else { return nil }
        self.init(scheme: scheme, encodedHost: rawHost, port: url.port)
    }

    /// The server of a URL's text, read in one pass over its bytes without parsing the rest of the URL (the
    /// transports work this out for every request). Text with no `scheme://host` gives `nil`.
    init?(urlText text: String) {
        let parsed = text.utf8.withContiguousStorageIfAvailable { Self.parse($0) } ?? Self.parse(Array(text.utf8))
        guard let parsed else { return nil }
        self.init(scheme: parsed.scheme, encodedHost: parsed.host, port: parsed.port)
    }

    private init(scheme: String, encodedHost: String, port: Int?) {
        self.scheme = scheme
        self.host = Self.normalized(host: encodedHost)
        self.port = port ?? Self.defaultPort(of: scheme) ?? 0
    }

    /// Where the origin ends in an http or https URL's text whose `scheme://authority` is already ``origin``'s text
    /// (lower case, plain ASCII host, no user name, no default or zero-padded port), or `nil` when it is not.
    ///
    /// It allocates nothing, so the cache can key the common URL without building an identity for it; any other
    /// text goes the long way, and both ways give the same key.
    static func canonicalOriginEnd(inURLText bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        // Byte by byte: `starts(with: "https://".utf8)` costs hundreds of instructions here, on every cache hit.
        guard bytes.count > 7, bytes[0] == UInt8(ascii: "h"), bytes[1] == UInt8(ascii: "t"),
            bytes[2] == UInt8(ascii: "t"), bytes[3] == UInt8(ascii: "p")
        else { return nil }
        let secure = bytes[4] == UInt8(ascii: "s")
        let colon = secure ? 5 : 4
        guard bytes[colon] == UInt8(ascii: ":"), bytes[colon + 1] == UInt8(ascii: "/"),
            bytes[colon + 2] == UInt8(ascii: "/")
        else { return nil }
        var index = colon + 3
        let hostStart = index
        while index < bytes.count {
            let byte = bytes[index]
            guard
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || isDigit(byte) || byte == UInt8(ascii: ".")
                    || byte == UInt8(ascii: "-")
            else { break }
            index += 1
        }
        guard index > hostStart else { return nil }
        if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
            let digitsStart = index + 1
            var port = 0
            index = digitsStart
            while index < bytes.count, isDigit(bytes[index]), index - digitsStart < 5 {
                port = port * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                index += 1
            }
            guard index > digitsStart, bytes[digitsStart] != UInt8(ascii: "0"), port <= 65_535,
                port != (secure ? 443 : 80)
            else { return nil }
        }
        guard
            index == bytes.count || bytes[index] == UInt8(ascii: "/") || bytes[index] == UInt8(ascii: "?")
                || bytes[index] == UInt8(ascii: "#")
        else { return nil }
        return index
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    /// The port a scheme uses when a URL names none.
    static func defaultPort(of scheme: String) -> Int? {
        switch scheme {
        case "https", "wss": 443
        case "http", "ws": 80
        default: nil
        }
    }

    /// Whether ``port`` is the scheme's default, which an origin's text leaves out.
    var hasDefaultPort: Bool { Self.defaultPort(of: scheme) == port }

    /// The host as it stands in a URL: an IPv6 literal in brackets.
    var hostInURL: String { host.utf8.contains(UInt8(ascii: ":")) ? "[" + host + "]" : host }

    /// The origin's text as a URL starts with it, `scheme://host` with the port only when it is not the default
    /// (RFC 6454's serialization): the form the cache stores keys under.
    public var origin: String {
        // Concatenation, not interpolation or Foundation's `contains`: the cache keys every request, hits included.
        hasDefaultPort ? scheme + "://" + hostInURL : scheme + "://" + hostInURL + ":" + String(port)
    }

    /// `scheme://host:port`, the port always written.
    public var description: String { "\(scheme)://\(hostInURL):\(port)" }

    /// The host lower-cased; percent-encoded or non-ASCII text IDNA-encoded as Foundation's URL parser does it.
    private static func normalized(host: String) -> String {
        var text = host
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        let isPlainASCII = text.utf8.allSatisfy { $0 < 0x80 && $0 != UInt8(ascii: "%") }
        if isPlainASCII { return lowercasedASCII(text) }
        var components = URLComponents()
        components.host = text.removingPercentEncoding ?? text
        return lowercasedASCII(components.encodedHost ?? text)
    }

    private static func lowercasedASCII(_ text: String) -> String {
        guard text.utf8.contains(where: { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) else { return text }
        return String(
            decoding: text.utf8.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 | 0x20 : $0 },
            as: UTF8.self)
    }

    private static func parse<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes) -> (
        scheme: String, host: String, port: Int?
    )?
    where Bytes.Index == Int, Bytes.SubSequence: RandomAccessCollection<UInt8> {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > bytes.startIndex,
            bytes.index(colon, offsetBy: 2, limitedBy: bytes.endIndex - 1) != nil,
            bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/")
        else { return nil }
        // RFC 3986: a scheme is a letter, then letters, digits, `+`, `-` and `.`; anything else is no absolute URL.
        guard isScheme(bytes[..<colon]) else { return nil }
        let scheme = lowercasedASCII(String(decoding: bytes[..<colon], as: UTF8.self))
        var start = colon + 3
        var end = start
        while end < bytes.endIndex, bytes[end] != UInt8(ascii: "/"), bytes[end] != UInt8(ascii: "?"),
            bytes[end] != UInt8(ascii: "#")
        { end += 1 }
        // user:password@ is not part of the server.
        if let at = bytes[start..<end].lastIndex(of: UInt8(ascii: "@")) { start = at + 1 }
        let authority = bytes[start..<end]
        // The port follows the last colon, unless that colon is inside an IPv6 literal's brackets.
        var hostEnd = authority.endIndex
        var port: Int?
        if let portColon = authority.lastIndex(of: UInt8(ascii: ":")),
            authority.lastIndex(of: UInt8(ascii: "]")).map({ $0 < portColon }) ?? true
        {
            hostEnd = portColon
            let digits = authority[(portColon + 1)...]
            if !digits.isEmpty {
                guard digits.count <= 5, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                    let value = Int(String(decoding: digits, as: UTF8.self)), value <= 65_535
                else { return nil }
                port = value
            }
        }
        guard hostEnd > authority.startIndex else { return nil }
        let host = authority[..<hostEnd]
        // A colon in a host belongs only inside an IPv6 literal's brackets.
        let bracketed = host.first == UInt8(ascii: "[") && host.last == UInt8(ascii: "]")
        guard bracketed || !host.contains(UInt8(ascii: ":")) else { return nil }
        return (scheme, String(decoding: host, as: UTF8.self), port)
    }

    private static func isScheme<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        guard let first = bytes.first, isLetter(first) else { return false }
        return bytes.allSatisfy { byte in
            isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }
}
