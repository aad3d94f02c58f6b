import Foundation

/// The key a response is stored under: the normalized URL (primary key) and the values of the request headers the
/// response's `Vary` names (secondary key, RFC 9111 §4.1).
///
/// Keys are strings stored in SQLite columns; no file path is ever derived from a URL.
enum CacheKey {
    /// The URL normalized for caching: lower-case scheme and host, no default port, no fragment, `/` for an empty
    /// path. The path and query stay byte for byte as sent: the server may treat `%2F` and `/` differently.
    static func primary(_ url: URL) -> String {
        var text = url.absoluteString
        if let hash = text.firstIndex(of: "#") { text = String(text[..<hash]) }
        guard let schemeEnd = text.range(of: "://") else { return text }
        let scheme = text[..<schemeEnd.lowerBound].lowercased()
        let rest = text[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        var authority = rest[..<authorityEnd].lowercased()
        let defaultPort = scheme == "https" ? ":443" : scheme == "http" ? ":80" : nil
        if let defaultPort, authority.hasSuffix(defaultPort) { authority.removeLast(defaultPort.count) }
        var pathAndQuery = rest[authorityEnd...]
        if pathAndQuery.first != "/" { pathAndQuery = "/" + pathAndQuery }
        return scheme + "://" + authority + pathAndQuery
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
