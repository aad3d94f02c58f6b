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
    /// Literal path segment values that are hidden wherever they appear (an API key in the path, say).
    public var pathSegments: Set<String>

    /// Creates redaction rules; the always-secret headers are added to `headerNames`.
    public init(headerNames: Set<String> = [], queryNames: Set<String> = [], pathSegments: Set<String> = []) {
        self.headerNames = Set((headerNames.union(["Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie"])).map { $0.lowercased() })
        self.queryNames = Set(queryNames.map { $0.lowercased() })
        self.pathSegments = pathSegments
    }

    /// The URL as text with secret path segments and query values masked.
    public func redact(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return Self.mask }
        if !pathSegments.isEmpty {
            let encodedSecrets = Set(pathSegments.map(PercentEncoding.encode))
            components.percentEncodedPath = components.percentEncodedPath
                .split(separator: "/", omittingEmptySubsequences: false)
                .map { encodedSecrets.contains(String($0)) || pathSegments.contains(String($0)) ? Self.mask : String($0) }
                .joined(separator: "/")
        }
        if let query = components.percentEncodedQuery, !queryNames.isEmpty {
            components.percentEncodedQuery = query.split(separator: "&", omittingEmptySubsequences: false).map { pair in
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = PercentEncoding.decode(String(parts[0]))?.lowercased() ?? ""
                return queryNames.contains(name) && parts.count == 2 ? "\(parts[0])=\(Self.mask)" : String(pair)
            }.joined(separator: "&")
        }
        components.user = nil
        components.password = nil
        return components.string ?? Self.mask
    }

    /// The headers with secret values masked.
    public func redact(_ headers: HTTPHeaders) -> HTTPHeaders {
        HTTPHeaders(headers.fields.map { field in
            headerNames.contains(field.name.lowercased()) ? .init(name: field.name, value: Self.mask) : field
        })
    }

    /// Masks every secret value that occurs in free text (an error message quoting a URL, say): secret path segments
    /// wherever they appear, and the value after `name=` for every secret query name.
    public func redact(text: String) -> String {
        let masked = pathSegments.filter { !$0.isEmpty }.reduce(text) { text, secret in
            text.replacingOccurrences(of: secret, with: Self.mask)
                .replacingOccurrences(of: PercentEncoding.encode(secret), with: Self.mask)
        }
        return queryNames.isEmpty ? masked : maskingQueryValues(in: masked)
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
            result += queryNames.contains(decoded) && valueStart < valueEnd ? Self.mask : String(rest[valueStart..<valueEnd])
            rest = rest[valueEnd...]
        }
        return result + rest
    }
}
