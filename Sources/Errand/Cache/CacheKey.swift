import Foundation

/// The key a response is stored under: the normalized URL (primary key) and the values of the request headers the
/// response's `Vary` names (secondary key, RFC 9111 §4.1).
///
/// Keys are strings stored in SQLite columns; no file path is ever derived from a URL.
enum CacheKey {
    /// The URL normalized for caching: lower-case scheme and host, no default port, no fragment, `/` for an empty
    /// path. The path and query stay byte for byte as sent: the server may treat `%2F` and `/` differently.
    static func primary(_ url: URL) -> String {
        // Works on UTF-8 bytes: it runs for every request, memory hits included, and must stay cheap.
        let text = url.absoluteString
        var bytes = Array(text.utf8)
        if let hash = bytes.firstIndex(of: UInt8(ascii: "#")) { bytes.removeSubrange(hash...) }
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), bytes.count >= colon + 3,
            bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/")
        else { return String(decoding: bytes, as: UTF8.self) }
        let authorityStart = colon + 3
        let authorityEnd =
            bytes[authorityStart...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") }
            ?? bytes.endIndex
        for index in 0..<authorityEnd where (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(bytes[index]) {
            bytes[index] += 32
        }
        let scheme = bytes[..<colon]
        let defaultPort: [UInt8] =
            scheme.elementsEqual("https".utf8)
            ? Array(":443".utf8) : scheme.elementsEqual("http".utf8) ? Array(":80".utf8) : []
        var pathStart = authorityEnd
        if !defaultPort.isEmpty, authorityEnd - authorityStart > defaultPort.count,
            bytes[(authorityEnd - defaultPort.count)..<authorityEnd].elementsEqual(defaultPort)
        {
            bytes.removeSubrange((authorityEnd - defaultPort.count)..<authorityEnd)
            pathStart -= defaultPort.count
        }
        if pathStart == bytes.endIndex || bytes[pathStart] != UInt8(ascii: "/") {
            bytes.insert(UInt8(ascii: "/"), at: pathStart)
        }
        return String(decoding: bytes, as: UTF8.self)
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
