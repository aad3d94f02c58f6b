import Foundation
@testable import Errand

/// The URL builder's promises, checked on arbitrary base URLs, paths and query items.
///
/// Input fields: base URL, path, then query names and values in turn.
enum URLChecks {
    static func check(_ input: FuzzInput) -> Violations {
        let fields = input.fields
        var violations = fields.flatMap(percentEncodingViolations)
        guard let base = fields.first, let baseURL = URL(string: base) else { return violations }
        let path = fields.count > 1 ? fields[1] : ""
        let query = queryItems(Array(fields.dropFirst(2)))

        if let url = try? URLBuilder.url(base: baseURL, path: path, query: query) {
            let segments = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
            violations += builtURLViolations(url, base: baseURL, segments: segments, query: query)
        }
        // The path field as a single segment: a `/` inside it must not start a new one.
        let segments = [path] + query.prefix(2).map(\.name)
        if let url = try? URLBuilder.url(base: baseURL, segments: segments, query: query) {
            violations += builtURLViolations(url, base: baseURL, segments: segments, query: query)
            violations += redactionViolations(url, secretNames: Set(query.map(\.name)), secretSegment: path)
        }
        return violations
    }

    private static func queryItems(_ fields: [String]) -> [QueryItem] {
        stride(from: 0, to: fields.count, by: 2).map { index in
            QueryItem(fields[index], index + 1 < fields.count ? fields[index + 1] : nil)
        }
    }

    /// Encoding leaves only unreserved bytes and `%XX`, and decoding gives the text back.
    private static func percentEncodingViolations(_ text: String) -> Violations {
        let encoded = PercentEncoding.encode(text)
        var violations: Violations = []
        if !encoded.utf8.allSatisfy({ PercentEncoding.isUnreserved($0) || $0 == UInt8(ascii: "%") }) {
            violations.append("encoding \(text.debugDescription) left a reserved byte: \(encoded)")
        }
        if PercentEncoding.decode(encoded) != text {
            violations.append("encoding \(text.debugDescription) does not decode back")
        }
        _ = PercentEncoding.decode(text)
        return violations
    }

    /// The built URL keeps the base's scheme and host, stays below the base path, and carries exactly the segments
    /// and query items given, in order.
    private static func builtURLViolations(_ url: URL, base: URL, segments: [String], query: [QueryItem]) -> Violations
    {
        var violations: Violations = []
        if url.scheme?.lowercased() != base.scheme?.lowercased() || url.host != base.host {
            violations.append("\(url.absoluteString) left the base's scheme or host (\(base.absoluteString))")
        }
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return violations + ["\(url.absoluteString) cannot be taken apart again"]
        }
        let path = components.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: false)
            .map { PercentEncoding.decode(String($0)) }
        if Array(path.suffix(segments.count)) != segments.map(Optional.some) {
            violations.append("\(url.absoluteString) does not end in the segments \(segments)")
        }
        let standardized = url.standardized.path
        let basePath = base.standardized.path
        // Compared as bytes, segment by segment: `String.hasPrefix` compares characters, and a character such as
        // U+06DD (a prepended concatenation mark) joins the `/` after it into one, so a path below the base would not
        // "start with" it. And `/v1` must not count as the start of `/v10`.
        let prefix = basePath.hasSuffix("/") ? String(basePath.dropLast()) : basePath
        if standardized != prefix, !standardized.utf8.starts(with: (prefix + "/").utf8) {
            violations.append("\(url.absoluteString) escapes the base path \(basePath)")
        }
        let sent = (components.percentEncodedQuery ?? "").split(separator: "&", omittingEmptySubsequences: false)
            .map { pair -> QueryItem in
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                return QueryItem(
                    PercentEncoding.decode(String(parts[0])) ?? "\u{FFFD}",
                    parts.count == 2 ? PercentEncoding.decode(String(parts[1])) ?? "\u{FFFD}" : nil)
            }
        if !query.isEmpty && sent != query {
            violations.append("\(url.absoluteString) does not carry the query items \(query) in order")
        }
        return violations
    }

    /// Redacting the URL masks the value of every secret query name and the secret segment.
    private static func redactionViolations(_ url: URL, secretNames: Set<String>, secretSegment: String) -> Violations {
        let redaction = Redaction(queryNames: secretNames, pathSegments: secretSegment.isEmpty ? [] : [secretSegment])
        let redacted = redaction.redact(url)
        guard redacted != Redaction.mask else { return [] }
        guard let components = URLComponents(string: redacted) else {
            return ["the redacted URL \(redacted) is not a URL"]
        }
        var violations: Violations = []
        for pair in (components.percentEncodedQuery ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = PercentEncoding.decode(String(parts[0]))?.lowercased() ?? ""
            if parts.count == 2, redaction.queryNames.contains(name), parts[1] != Redaction.mask {
                violations.append("redacting \(url.absoluteString) kept the value of \(name)")
            }
        }
        if !secretSegment.isEmpty,
            components.percentEncodedPath.split(separator: "/").contains(
                Substring(PercentEncoding.encode(secretSegment)))
        {
            violations.append("redacting \(url.absoluteString) kept the secret segment")
        }
        return violations
    }
}
