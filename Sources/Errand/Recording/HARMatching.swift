import Foundation

/// Which parts of a request must equal a recorded one for ``HARReplayTransport`` to answer with it.
///
/// The method, the URL (scheme, host, port, path, and the query in its order) and the body always count; the
/// query names in ``ignoredQueryNames`` (a timestamp, a cache-buster) and the body, when ``comparesBodies`` is
/// false, do not; header fields count only when named in ``comparedHeaderNames``.
public struct HARMatching: Sendable, Hashable {
    /// Query parameters left out of the comparison (compared case-sensitively, as URLs are).
    public var ignoredQueryNames: Set<String>
    /// Header fields whose values must be equal too (compared case-insensitively by name).
    public var comparedHeaderNames: Set<String>
    /// Whether a body in memory must equal the recorded one, byte for byte.
    public var comparesBodies: Bool

    /// Creates matching rules: by default method, URL and body.
    public init(
        ignoredQueryNames: Set<String> = [], comparedHeaderNames: Set<String> = [], comparesBodies: Bool = true
    ) {
        self.ignoredQueryNames = ignoredQueryNames
        self.comparedHeaderNames = Set(comparedHeaderNames.map { $0.lowercased() })
        self.comparesBodies = comparesBodies
    }

    /// How a request differs from a recorded one, one phrase per difference; empty when it matches.
    ///
    /// The request is compared as a recording would show it, with `redaction`'s secrets and its own
    /// (``TransportRequest/secrets``) masked, since recordings hold masked URLs and headers.
    func differences(_ request: TransportRequest, _ entry: HAR.Request, redaction rules: Redaction) -> [String] {
        // The recording masked the request's own secrets (a key a middleware attached) too.
        let redaction = rules.covering(request)
        var found: [String] = []
        if entry.method.uppercased() != request.method.rawValue {
            found.append("the method: \(entry.method) was recorded, not \(request.method.rawValue)")
        }
        let sent = redaction.redact(request.url)
        if let recorded = URLComponents(string: entry.url), let asked = URLComponents(string: sent) {
            found += differences(asked, recorded)
        } else if sent != entry.url {
            found.append("the URL: \(entry.url) was recorded")
        }
        let recordedHeaders = HTTPHeaders(entry.headers.map { HTTPHeaders.Field(name: $0.name, value: $0.value) })
        let sentHeaders = redaction.redact(request.headers)
        for name in comparedHeaderNames.sorted() where recordedHeaders[name] != sentHeaders[name] {
            found.append("the header \(name): “\(recordedHeaders[name] ?? "none")” was recorded")
        }
        if comparesBodies, let body = bodyDifference(request.body.redacted(redaction), entry.postData) {
            found.append(body)
        }
        return found
    }

    private func differences(_ asked: URLComponents, _ recorded: URLComponents) -> [String] {
        var found: [String] = []
        let origin = { (url: URLComponents) in
            "\(url.scheme?.lowercased() ?? "")://\(url.host?.lowercased() ?? "")\(url.port.map { ":\($0)" } ?? "")"
        }
        if origin(asked) != origin(recorded) { found.append("the server: \(origin(recorded)) was recorded") }
        if asked.percentEncodedPath != recorded.percentEncodedPath {
            found.append("the path: \(recorded.percentEncodedPath) was recorded, not \(asked.percentEncodedPath)")
        }
        let askedQuery = query(asked)
        let recordedQuery = query(recorded)
        if askedQuery != recordedQuery {
            let show = { (pairs: [String]) in pairs.isEmpty ? "none" : pairs.joined(separator: "&") }
            found.append("the query: \(show(recordedQuery)) was recorded, not \(show(askedQuery))")
        }
        return found
    }

    /// The query's `name=value` pairs as percent-encoded, in order, without the ignored names.
    private func query(_ url: URLComponents) -> [String] {
        guard let query = url.percentEncodedQuery, !query.isEmpty else { return [] }
        return query.split(separator: "&").map(String.init).filter { pair in
            let name = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0]
            return !ignoredQueryNames.contains(PercentEncoding.decode(String(name)) ?? String(name))
        }
    }

    private func bodyDifference(_ body: TransportBody, _ recorded: HAR.PostData?) -> String? {
        let recordedBytes = recorded.flatMap(\.bytes) ?? Data()
        switch body {
        case .none:
            return recordedBytes.isEmpty ? nil : "the body: \(recordedBytes.count) bytes were recorded, none sent"
        case .data(let data):
            guard data != recordedBytes else { return nil }
            return "the body: \(recordedBytes.count) bytes were recorded, \(data.count) other bytes sent"
        case .file, .multipart, .stream:
            // A recording describes such bodies without their bytes: there is nothing to compare.
            return nil
        }
    }
}

extension HAR.PostData {
    /// The body's bytes, when the entry holds them (as text or base64).
    var bytes: Data? {
        guard let text else { return nil }
        return encoding == "base64" ? Data(base64Encoded: text) : Data(text.utf8)
    }
}

extension HAR.Content {
    /// The body's bytes, when the entry holds them (as text or base64); empty when it does not.
    var bytes: Data {
        guard let text else { return Data() }
        return encoding == "base64" ? Data(base64Encoded: text) ?? Data() : Data(text.utf8)
    }

    /// The body's bytes, failing with ``ErrandError/bodyTooLarge(limit:)`` past `limit` as a transport does: a body
    /// that cannot fit is refused by its text's length, before it is decoded.
    func bytes(upTo limit: Int) throws(ErrandError) -> Data {
        guard let text else { return Data() }
        let length = text.utf8.count
        // Base64 holds at least 3 bytes per 4 characters, less 2 for the padding.
        let fewestBytes = encoding == "base64" ? length / 4 * 3 - 2 : length
        guard fewestBytes <= limit else { throw .bodyTooLarge(limit: limit) }
        let body = bytes
        guard body.count <= limit else { throw .bodyTooLarge(limit: limit) }
        return body
    }
}
