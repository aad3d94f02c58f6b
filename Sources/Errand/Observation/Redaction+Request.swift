import Foundation

/// The secrets a request carries, kept with its options so that every copy of it (a retry, a redirect hop, a
/// revalidation) carries them too.
enum RequestSecretsKey: RequestOptionKey {
    static let defaultValue = Redaction.nothing
}

extension TransportRequest {
    /// The secrets this request carries besides its client's ``ClientConfiguration/redaction``: the header and query
    /// names a middleware put a credential in, and any secret values.
    ///
    /// Every report of the request and of what it led to (observer events, so logs and recordings; errors; curl
    /// commands; a replay's comparison with a recording) masks them as if the client's rules listed them, and a
    /// redirect to another server drops the secret header fields. A middleware that attaches a credential marks it
    /// here, most simply with ``setSecretHeader(_:to:)`` or ``appendSecretQueryItem(_:value:)``; the library's own
    /// (``APIKey``, ``BearerToken``, ``TokenRefreshMiddleware``) do.
    public var secrets: Redaction {
        get { options[RequestSecretsKey.self] }
        set { options[RequestSecretsKey.self] = newValue }
    }

    /// Sets the header field `name` to a credential and marks the field secret for this request.
    ///
    /// ```swift
    /// let signing = RequestAdapter { request in request.setSecretHeader("X-Signature", to: sign(request)) }
    /// ```
    public mutating func setSecretHeader(_ name: String, to value: String) {
        headers[name] = value
        secrets.headerNames.insert(name)
    }

    /// Appends `name=value` (percent-encoded) to the URL's query and marks the parameter secret for this request.
    ///
    /// - Throws: ``ErrandError/invalidURL(_:)`` when the URL cannot take a query.
    public mutating func appendSecretQueryItem(_ name: String, value: String) throws(ErrandError) {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw .invalidURL("\(url.absoluteString) is not a valid URL.")
        }
        let pair = URLBuilder.encodeQuery([QueryItem(name, value)])
        components.percentEncodedQuery = [components.percentEncodedQuery, pair].compactMap { $0 }.joined(separator: "&")
        guard let appended = components.url else { throw .invalidURL("\(url.absoluteString) is not a valid URL.") }
        url = appended
        secrets.queryNames.insert(name)
    }
}

extension Request {
    /// The secrets this request carries besides its client's ``ClientConfiguration/redaction``, masked in every
    /// report of it: see ``TransportRequest/secrets``.
    ///
    /// ```swift
    /// var upload = Request<Data>(method: .post, path: "upload", body: .data(bytes))
    /// upload.headers["X-Upload-Token"] = token
    /// upload.secrets.headerNames.insert("X-Upload-Token")
    /// ```
    public var secrets: Redaction {
        get { options[RequestSecretsKey.self] }
        set { options[RequestSecretsKey.self] = newValue }
    }
}

extension Redaction {
    /// These rules with the secrets `request` carries (``TransportRequest/secrets``): the rules every report of the
    /// request is masked by. A middleware that reports a request itself should mask it with
    /// `context.redaction.covering(request)`.
    public func covering(_ request: TransportRequest) -> Redaction {
        merging(request.secrets)
    }
}

extension TransportResponse {
    /// The rules an error built from this response is masked by: `rules`, with the secrets and secret values of the
    /// request that led to it.
    func redaction(_ rules: Redaction) -> Redaction {
        guard let request else { return rules }
        return rules.covering(request).including(secretsOf: request)
    }
}
