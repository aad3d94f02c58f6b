import Foundation

/// Which parts of a request are secret and must never be reported: header names, query names and path segments.
///
/// `Authorization`, `Proxy-Authorization`, `Cookie` and `Set-Cookie` are always secret.
public struct Redaction: Sendable, Hashable {
    /// What replaces a secret.
    public static let mask = "***"

    /// Header names whose values are hidden (compared case-insensitively).
    public var headerNames: Set<String>
    /// Query parameter names whose values are hidden (compared case-insensitively).
    public var queryNames: Set<String>
    /// Secret values hidden wherever they appear in a URL or a message (an API key in the path, say), whole segments
    /// and parts of segments alike.
    public var pathSegments: Set<String>

    /// Creates redaction rules; the always-secret headers are added to `headerNames`.
    public init(headerNames: Set<String> = [], queryNames: Set<String> = [], pathSegments: Set<String> = []) {
        self.headerNames = Set((headerNames.union(["Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie"])).map { $0.lowercased() })
        self.queryNames = Set(queryNames.map { $0.lowercased() })
        self.pathSegments = pathSegments
    }

    /// The URL as text, with its user and password removed and secrets masked by the same rule as
    /// ``redact(text:)``: a secret value is hidden wherever it occurs (a whole segment, part of one such as
    /// `KEY.json`, or inside a query value), and so is the value of every secret query name.
    public func redact(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return Self.mask }
        components.user = nil
        components.password = nil
        return redact(text: components.string ?? Self.mask)
    }

    /// The headers with secret values masked.
    public func redact(_ headers: HTTPHeaders) -> HTTPHeaders {
        HTTPHeaders(headers.fields.map { field in
            headerNames.contains(field.name.lowercased()) ? .init(name: field.name, value: Self.mask) : field
        })
    }

    /// Masks every secret in free text (an error message quoting a URL, say): each value of ``pathSegments``
    /// wherever it occurs, as typed or percent-encoded, and the value after `name=` for every secret query name.
    ///
    /// It is the one rule for URLs and text, so a message that quotes a URL reads the same as the URL itself. A secret
    /// is hidden as a substring, so it must not be a string that occurs by accident (a one-digit key, say); adjacent
    /// masks merge into one.
    public func redact(text: String) -> String {
        let spellings = Set(pathSegments.filter { !$0.isEmpty }.flatMap { [$0, PercentEncoding.encode($0)] })
        // Longest first, so a secret that contains another is masked whole.
        var masked = spellings.sorted { $0.count > $1.count }.reduce(text) { text, secret in
            text.replacingOccurrences(of: secret, with: Self.mask)
        }
        if !queryNames.isEmpty { masked = maskingQueryValues(in: masked) }
        let doubled = Self.mask + Self.mask
        while masked.contains(doubled) { masked = masked.replacingOccurrences(of: doubled, with: Self.mask) }
        return masked
    }

    /// Replaces the value of each `name=value` pair whose name is secret, up to the next `&`, `#`, space or quote.
    private func maskingQueryValues(in text: String) -> String {
        let ends: Set<Character> = ["&", "#", " ", "\"", "'", "\n", ")", ">"]
        var result = ""
        var rest = Substring(text)
        while let equals = rest.firstIndex(of: "=") {
            let before = rest[..<equals]
            let nameStart = before.lastIndex(where: { $0 == "?" || $0 == "&" || ends.contains($0) })
                .map { before.index(after: $0) } ?? before.startIndex
            let name = String(before[nameStart...])
            let valueStart = rest.index(after: equals)
            let valueEnd = rest[valueStart...].firstIndex(where: ends.contains) ?? rest.endIndex
            result += rest[...equals]
            let decoded = PercentEncoding.decode(name)?.lowercased() ?? name.lowercased()
            result += queryNames.contains(decoded) ? Self.mask : String(rest[valueStart..<valueEnd])
            rest = rest[valueEnd...]
        }
        return result + rest
    }
}
