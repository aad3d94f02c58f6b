import Foundation

/// Which parts of a request are secret and must never be reported: header names, query names and secret values.
///
/// `Authorization`, `Proxy-Authorization`, `Cookie` and `Set-Cookie` are always secret, and so is every credential
/// the library attaches (``APIKey``, ``BearerToken``, ``TokenRefreshMiddleware``, a middleware's
/// ``TransportRequest/setSecretHeader(_:to:)``): a request carries the names of its own secrets in
/// ``TransportRequest/secrets``, and every report of it (observers, errors, recordings, curl commands) masks them as
/// if they were listed here. Names compare case-insensitively however they are added (``CaseInsensitiveNames``).
public struct Redaction: Sendable, Hashable {
    /// What replaces a secret.
    public static let mask = "***"

    /// The header fields that are secret whatever the rules say.
    static let alwaysSecretHeaders: CaseInsensitiveNames = [
        "Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie",
    ]

    /// Header names whose values are hidden, compared case-insensitively.
    public var headerNames: CaseInsensitiveNames
    /// Query parameter names whose values are hidden, compared case-insensitively.
    public var queryNames: CaseInsensitiveNames
    /// Secret values hidden wherever they appear in a URL or a message (an API key in the path, say), whole segments
    /// and parts of segments alike.
    public var pathSegments: Set<String>
    /// Whether these rules mask nothing at all, the always-secret headers included: only for the event of an
    /// observer that asked for secrets by name (``HARRecorder``).
    private(set) var revealsSecrets = false

    /// Creates redaction rules; the always-secret headers are added to `headerNames`. Names may be given in any
    /// case and as any sequence of strings (a literal, a `Set<String>`, ``CaseInsensitiveNames``).
    public init(
        headerNames: some Sequence<String> = [String](), queryNames: some Sequence<String> = [String](),
        pathSegments: Set<String> = []
    ) {
        self.headerNames = Self.alwaysSecretHeaders.union(headerNames)
        self.queryNames = CaseInsensitiveNames(queryNames)
        self.pathSegments = pathSegments
    }

    /// Rules that name no secret of their own, for a request that carries none (the always-secret headers stay
    /// secret: ``isSecret(header:)`` does not depend on ``headerNames`` for them).
    static let nothing = Redaction(names: [], queryNames: [], pathSegments: [])

    /// Rules that mask nothing: how the event for an observer that receives secrets is built, by the same code as
    /// the masked one.
    static let revealing: Redaction = {
        var rules = Redaction.nothing
        rules.revealsSecrets = true
        return rules
    }()

    private init(names: CaseInsensitiveNames, queryNames: CaseInsensitiveNames, pathSegments: Set<String>) {
        self.headerNames = names
        self.queryNames = queryNames
        self.pathSegments = pathSegments
    }

    /// Whether the value of the header field `name` (in any case) is hidden: an always-secret field or one of
    /// ``headerNames``.
    public func isSecret(header name: String) -> Bool {
        guard !revealsSecrets else { return false }
        let folded = CaseInsensitiveNames.fold(name)
        return Self.alwaysSecretHeaders.contains(folded: folded) || headerNames.contains(folded: folded)
    }

    /// Whether the value of the query parameter `name` (in any case, after percent-decoding) is hidden.
    public func isSecret(queryName name: String) -> Bool {
        !revealsSecrets && queryNames.contains(name)
    }

    /// These rules and `other`'s together: every name and value either hides. Rules that reveal secrets stay so.
    public func merging(_ other: Redaction) -> Redaction {
        guard !revealsSecrets, other != .nothing else { return self }
        var merged = self
        merged.headerNames.formUnion(other.headerNames)
        merged.queryNames.formUnion(other.queryNames)
        merged.pathSegments.formUnion(other.pathSegments)
        return merged
    }

    /// The URL as text, with its user and password removed and secrets masked by the rule of ``redact(text:)``,
    /// applied to the URL's parts so that the result is still a URL: a secret is hidden wherever it occurs in the path
    /// (a whole segment, or part of one such as `KEY.json`), the query (a name or a value) or the fragment, and so is
    /// the value of every secret query name. Scheme, host and port are kept.
    public func redact(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return Self.mask }
        components.user = nil
        components.password = nil
        components.percentEncodedPath = components.percentEncodedPath
            .split(separator: "/", omittingEmptySubsequences: false).map(masking(encoded:)).joined(separator: "/")
        if let query = components.percentEncodedQuery {
            components.percentEncodedQuery = query.split(separator: "&", omittingEmptySubsequences: false)
                .map(maskingQueryPair).joined(separator: "&")
        }
        if let fragment = components.percentEncodedFragment {
            components.percentEncodedFragment = masking(encoded: Substring(fragment))
        }
        return Self.mergingMasks(components.string ?? Self.mask)
    }

    /// A `name=value` pair of a percent-encoded query: the value masked whole when the name is secret, else each
    /// part with its secrets masked.
    private func maskingQueryPair(_ pair: Substring) -> String {
        let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let name = PercentEncoding.decode(String(parts[0])) ?? ""
        guard parts.count == 2 else { return masking(encoded: parts[0]) }
        if isSecret(queryName: name) { return "\(parts[0])=\(Self.mask)" }
        return masking(encoded: parts[0]) + "=" + masking(encoded: parts[1])
    }

    /// One percent-encoded piece of a URL (a segment, a query name or value) with every secret in its decoded text
    /// masked; the rest is encoded again around the masks, so the piece stays valid percent-encoding. A piece without
    /// a secret is returned as it was.
    private func masking(encoded piece: Substring) -> String {
        let secrets = self.secrets
        guard !secrets.isEmpty, let decoded = PercentEncoding.decode(String(piece)),
            secrets.contains(where: { decoded.contains($0) })
        else { return String(piece) }
        var rest = Substring(decoded)
        var result = ""
        while let found = Self.firstOccurrence(of: secrets, in: rest) {
            result += PercentEncoding.encode(rest[..<found.lowerBound]) + Self.mask
            rest = rest[found.upperBound...]
        }
        return result + PercentEncoding.encode(rest)
    }

    /// The earliest occurrence of any of `secrets` (longest first) in `text`; at one place, the longest secret's.
    private static func firstOccurrence(of secrets: [String], in text: Substring) -> Range<Substring.Index>? {
        var first: Range<Substring.Index>?
        for secret in secrets {
            guard let range = text.range(of: secret) else { continue }
            if let current = first, current.lowerBound <= range.lowerBound { continue }
            first = range
        }
        return first
    }

    /// The secret values, longest first, so that a secret that contains another is masked whole.
    private var secrets: [String] {
        pathSegments.filter { !$0.isEmpty }.sorted { $0.count > $1.count }
    }

    /// The text with runs of adjacent masks read as one.
    private static func mergingMasks(_ text: String) -> String {
        var text = text
        let doubled = mask + mask
        while text.contains(doubled) { text = text.replacingOccurrences(of: doubled, with: mask) }
        return text
    }

    /// The headers with secret values masked.
    public func redact(_ headers: HTTPHeaders) -> HTTPHeaders {
        HTTPHeaders(
            headers.fields.map { field in
                isSecret(header: field.name) ? .init(name: field.name, value: Self.mask) : field
            })
    }

    /// Masks every secret in free text (an error message quoting a URL, say): each value of ``pathSegments``
    /// wherever it occurs, as typed or percent-encoded, the value after `name=` for every secret query name, and the
    /// user and password of every `scheme://user:password@host` URL.
    ///
    /// It is the rule ``redact(_:)-(URL)`` applies to a URL's parts, so a message that quotes a URL reads as the URL
    /// does (here the host is masked too when it holds a secret). A secret is hidden as a substring, so it must not be
    /// a string that occurs by accident (a one-digit key, say); adjacent masks merge into one.
    public func redact(text: String) -> String {
        let spellings = Set(secrets.flatMap { [$0, PercentEncoding.encode($0)] })
        // Longest first, so a secret that contains another is masked whole.
        var masked = spellings.sorted { $0.count > $1.count }.reduce(text) { text, secret in
            text.replacingOccurrences(of: secret, with: Self.mask)
        }
        if !queryNames.isEmpty { masked = maskingQueryValues(in: masked) }
        if !revealsSecrets { masked = Self.maskingURLCredentials(inText: masked) }
        return Self.mergingMasks(masked)
    }

    /// A body with ``redact(text:)`` applied when it is UTF-8 text (an error page that echoes the request's key, say);
    /// other bytes, and every body when there are no secret values or query names, come back as they are.
    public func redact(body: Data) -> Data {
        guard !pathSegments.isEmpty || !queryNames.isEmpty, !body.isEmpty,
            let text = String(data: body, encoding: .utf8)
        else { return body }
        let masked = redact(text: text)
        return masked == text ? body : Data(masked.utf8)
    }

    /// Replaces the value of each `name=value` pair whose name is secret, up to the next `&`, `#`, space or quote.
    private func maskingQueryValues(in text: String) -> String {
        let ends: Set<Character> = ["&", "#", " ", "\"", "'", "\n", ")", ">"]
        var result = ""
        var rest = Substring(text)
        while let equals = rest.firstIndex(of: "=") {
            let before = rest[..<equals]
            let nameStart =
                before.lastIndex(where: { $0 == "?" || $0 == "&" || ends.contains($0) })
                .map { before.index(after: $0) } ?? before.startIndex
            let name = String(before[nameStart...])
            let valueStart = rest.index(after: equals)
            let valueEnd = rest[valueStart...].firstIndex(where: ends.contains) ?? rest.endIndex
            result += rest[...equals]
            let decoded = PercentEncoding.decode(name) ?? name
            result += isSecret(queryName: decoded) ? Self.mask : String(rest[valueStart..<valueEnd])
            rest = rest[valueEnd...]
        }
        return result + rest
    }
}
