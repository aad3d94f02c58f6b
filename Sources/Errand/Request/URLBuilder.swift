import Foundation

/// Builds request URLs from a base URL, a relative path and ordered query items.
///
/// - The base URL's path and the request path join with exactly one `/`, whether or not the base ends with a slash
///   or the path starts with one: a path is always relative to the base, never to the host root.
/// - Each path segment and each query name and value is percent-encoded per RFC 3986 (see `PercentEncoding`).
/// - Query items keep the caller's order (The Met's `q` must come last).
/// - A segment that is `.` or `..` is refused: servers and libcurl resolve those, which would lead the request
///   outside the base path.
public enum URLBuilder {
    /// Joins `path` (split on `/`, each segment encoded) and `query` onto `baseURL`.
    ///
    /// - Throws: ``ErrandError/invalidURL(_:)`` when the base URL has no scheme or host, a segment is `.` or `..`, or the
    ///   result is not a URL.
    public static func url(base baseURL: URL, path: String, query: [QueryItem] = []) throws(ErrandError) -> URL {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        return try url(base: baseURL, segments: segments, query: query)
    }

    /// Joins already-split path segments (each encoded as a whole, so a `/` inside a segment becomes `%2F`).
    public static func url(base baseURL: URL, segments: [String], query: [QueryItem] = []) throws(ErrandError) -> URL {
        guard baseURL.scheme != nil, let host = baseURL.host, !host.isEmpty else {
            throw .invalidURL("The base URL \(baseURL.absoluteString) needs a scheme and a host.")
        }
        if segments.contains(where: { $0 == "." || $0 == ".." }) {
            throw .invalidURL("The path segments \".\" and \"..\" are not allowed: a path stays below the base URL.")
        }
        // Built as text: URLComponents costs several times more, and every part here is already encoded.
        var string = baseURL.absoluteString
        if let end = string.firstIndex(where: { $0 == "?" || $0 == "#" }) { string = String(string[..<end]) }
        while string.hasSuffix("/") { string.removeLast() }
        for segment in segments {
            string += "/"
            string += PercentEncoding.encode(segment)
        }
        if segments.isEmpty { string += "/" }
        if !query.isEmpty {
            string += "?"
            string += encodeQuery(query)
        }
        guard let url = URL(string: string) else {
            throw .invalidURL("Could not build a URL from \(baseURL.absoluteString) and \(segments.joined(separator: "/")).")
        }
        return url
    }

    /// Encodes query items as `name=value&…`, in order, every name and value percent-encoded.
    public static func encodeQuery(_ items: [QueryItem]) -> String {
        items.map { item in
            let name = PercentEncoding.encode(item.name)
            guard let value = item.value else { return name }
            return name + "=" + PercentEncoding.encode(value)
        }.joined(separator: "&")
    }

    /// Encodes fields as `application/x-www-form-urlencoded` with RFC 3986 escaping (space as `%20`, `+` as `%2B`).
    public static func encodeForm(_ fields: [QueryItem]) -> String { encodeQuery(fields) }
}
