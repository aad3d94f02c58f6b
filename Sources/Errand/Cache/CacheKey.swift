import Foundation

/// The key a response is stored under: the normalized URL (primary key) and the values of the request headers the
/// response's `Vary` names (secondary key, RFC 9111 §4.1).
///
/// Keys are strings stored in SQLite columns; no file path is ever derived from a URL.
enum CacheKey {
    /// The URL normalized for caching: its server's origin (``ServerIdentity/origin``: lower-case scheme and host,
    /// IDNA-encoded, no default port, no user name or password), then the path (`/` for an empty one) and query byte
    /// for byte as sent (the server may treat `%2F` and `/` differently), without the fragment.
    static func primary(_ url: URL) -> String {
        // Works on UTF-8 bytes: it runs for every request, memory hits included, and must stay cheap.
        var text = url.absoluteString
        let fast = text.withUTF8 { bytes -> String? in
            guard let originEnd = ServerIdentity.canonicalOriginEnd(inURLText: bytes) else { return nil }
            let end = bytes[originEnd...].firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex
            guard originEnd == end || bytes[originEnd] != UInt8(ascii: "/") else {
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[..<end]), as: UTF8.self)
            }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[..<originEnd]), as: UTF8.self) + "/"
                + String(decoding: UnsafeBufferPointer(rebasing: bytes[originEnd..<end]), as: UTF8.self)
        }
        return fast ?? primaryTheLongWay(text)
    }

    /// ``primary(_:)`` for any URL text, through a ``ServerIdentity``: what the shortcut must agree with.
    static func primaryTheLongWay(_ text: String) -> String {
        guard let server = ServerIdentity(urlText: text) else { return text }
        var bytes = Substring(text).utf8
        if let hash = bytes.firstIndex(of: UInt8(ascii: "#")) { bytes = bytes[..<hash] }
        // The authority ends at the first `/`, `?` after `scheme://`.
        var rest = bytes.drop { $0 != UInt8(ascii: ":") }.dropFirst(3)
        rest = rest.drop { $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") }
        let path = String(Substring(rest))
        return server.origin + (path.hasPrefix("/") ? path : "/" + path)
    }

    /// The field names a `Vary` header lists, lower-cased; `["*"]` when it contains `*`.
    static func varyNames(_ headers: HTTPHeaders) -> [String] {
        let names = headers.values(for: "Vary")
            .flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty }
        if names.contains("*") { return ["*"] }
        return Array(Set(names)).sorted()
    }

    /// The secondary key: each named request header with its values combined and whitespace-trimmed, so requests
    /// that differ only in spacing share a variant. Empty when the response names no `Vary` fields.
    static func variant(names: [String], requestHeaders: HTTPHeaders) -> String {
        guard !names.isEmpty else { return "" }
        var parts: [String] = []
        parts.reserveCapacity(names.count)
        for name in names {
            let values = requestHeaders.values(for: name).map { $0.trimmingCharacters(in: .whitespaces) }
            parts.append(name + ":" + values.joined(separator: ","))
        }
        return parts.joined(separator: "\n")
    }
}
