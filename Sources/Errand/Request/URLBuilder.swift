import Foundation
import Synchronization

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
        try Base.make(baseURL).get().url(path: path, query: query)
    }

    /// Joins already-split path segments (each encoded as a whole, so a `/` inside a segment becomes `%2F`).
    public static func url(base baseURL: URL, segments: [String], query: [QueryItem] = []) throws(ErrandError) -> URL {
        try Base.make(baseURL).get().url(segments: segments, query: query)
    }

    /// A base URL checked and reduced to the text paths are appended to, once, for a client that builds many URLs
    /// from it: reading a `URL`'s parts and text costs more than the rest of building a request URL.
    struct Base: Sendable {
        /// The base URL as given.
        let url: URL
        /// Its text without query, fragment and trailing slashes.
        let prefix: String
        /// The URL built last, shared by copies of this base.
        private let recent = RecentURL()

        /// Checks that the base URL has a scheme and a host.
        static func make(_ baseURL: URL) -> Result<Base, ErrandError> {
            guard baseURL.scheme != nil, let host = baseURL.host, !host.isEmpty else {
                return .failure(.invalidURL("The base URL \(baseURL.absoluteString) needs a scheme and a host."))
            }
            var prefix = baseURL.absoluteString
            if let end = prefix.firstIndex(where: { $0 == "?" || $0 == "#" }) { prefix = String(prefix[..<end]) }
            while prefix.hasSuffix("/") { prefix.removeLast() }
            return .success(Base(url: baseURL, prefix: prefix))
        }

        /// The URL of a `/`-separated path relative to the base (empty segments dropped, each segment encoded).
        func url(path: String, query: [QueryItem]) throws(ErrandError) -> URL {
            let key = RecentURL.Key.path(path, query)
            if let known = recent.url(for: key) { return known }
            if path.utf8.contains(UInt8(ascii: ".")) {
                try URLBuilder.refuseDotSegments(path.split(separator: "/", omittingEmptySubsequences: true))
            }
            // Built as text: URLComponents costs several times more, and every part here is already encoded.
            var string: String
            if path.utf8.allSatisfy({ $0 < 0x80 }) {
                // ASCII, the usual case: one pass over the bytes, with the same result as splitting into segments
                // (in ASCII every `/` is a character of its own) and encoding each.
                var bytes: [UInt8] = []
                bytes.reserveCapacity(prefix.utf8.count + path.utf8.count + 8)
                bytes.append(contentsOf: prefix.utf8)
                var segmentCount = 0
                var startsSegment = true
                for byte in path.utf8 {
                    if byte == UInt8(ascii: "/") {
                        startsSegment = true
                        continue
                    }
                    if startsSegment {
                        bytes.append(UInt8(ascii: "/"))
                        segmentCount += 1
                        startsSegment = false
                    }
                    PercentEncoding.append(byte, to: &bytes)
                }
                if segmentCount == 0 { bytes.append(UInt8(ascii: "/")) }
                string = String(decoding: bytes, as: UTF8.self)
            } else {
                string = prefix
                var segmentCount = 0
                for segment in path.split(separator: "/", omittingEmptySubsequences: true) {
                    string += "/"
                    string += PercentEncoding.encode(segment)
                    segmentCount += 1
                }
                if segmentCount == 0 { string += "/" }
            }
            return try finish(string, query: query, key: key) {
                path.split(separator: "/", omittingEmptySubsequences: true).joined(separator: "/")
            }
        }

        /// The URL of already-split path segments relative to the base.
        func url(segments: [String], query: [QueryItem]) throws(ErrandError) -> URL {
            let key = RecentURL.Key.segments(segments, query)
            if let known = recent.url(for: key) { return known }
            try URLBuilder.refuseDotSegments(segments)
            var string = prefix
            for segment in segments {
                string += "/"
                string += PercentEncoding.encode(segment)
            }
            if segments.isEmpty { string += "/" }
            return try finish(string, query: query, key: key) { segments.joined(separator: "/") }
        }

        private func finish(
            _ text: String, query: [QueryItem], key: RecentURL.Key, path: () -> String
        ) throws(ErrandError) -> URL {
            var string = text
            if !query.isEmpty {
                string += "?"
                string += encodeQuery(query)
            }
            guard let result = URL(string: string) else {
                throw .invalidURL("Could not build a URL from \(url.absoluteString) and \(path()).")
            }
            recent.remember(result, for: key)
            return result
        }
    }

    /// The last URL a base built, with the path and query it was built from: a client often sends the same request
    /// again, and comparing the inputs (usually the very same strings) costs far less than encoding them and parsing
    /// the result into a `URL` once more. Only successes are kept, so a refused path is refused every time.
    final class RecentURL: Sendable {
        /// What a URL was built from.
        enum Key: Equatable, Sendable {
            case path(String, [QueryItem])
            case segments([String], [QueryItem])
        }

        private let last = Mutex<(key: Key, url: URL)?>(nil)

        func url(for key: Key) -> URL? {
            last.withLock { last in last.flatMap { $0.key == key ? $0.url : nil } }
        }

        func remember(_ url: URL, for key: Key) {
            last.withLock { $0 = (key, url) }
        }
    }

    /// Throws for a `.` or `..` segment, which would lead a request outside the base path.
    static func refuseDotSegments<Segment: StringProtocol>(_ segments: [Segment]) throws(ErrandError) {
        if segments.contains(where: { $0 == "." || $0 == ".." }) {
            throw .invalidURL("The path segments \".\" and \"..\" are not allowed: a path stays below the base URL.")
        }
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
