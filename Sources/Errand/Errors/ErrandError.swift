import Foundation

/// Every failure Errand reports. Switch on the case to handle a kind of failure.
///
/// It describes itself by the rule of ``DescribedError``, as every failure of Errand's modules does:
/// ``userMessage``, `description` and `localizedDescription` are one sentence for the end user (so `"\(error)"` is
/// what to show), and ``debugDescription`` is everything a developer needs, for the log.
public enum ErrandError: Error, Sendable {
    /// The URL could not be built or is not usable (message says why).
    case invalidURL(String)
    /// The URL is plain `http` to a host that is not loopback, and the client does not allow insecure HTTP.
    case insecureURL(URL)
    /// The request is malformed: a header with CR or LF, a body that could not be encoded, a missing argument.
    case invalidRequest(String)
    /// The transfer failed on the wire: timed out, could not connect, DNS, TLS, connection lost, redirects.
    case transport(TransportFailure)
    /// The server answered with a status the request does not accept.
    case unacceptableStatus(StatusFailure)
    /// The server answered 403 with an HTML page: bot protection. Wait before trying again.
    case blocked(StatusFailure)
    /// The body could not be decoded into the expected type.
    case decoding(DecodingFailure)
    /// The response body exceeded the size limit.
    case bodyTooLarge(limit: Int)
    /// The request was asked to answer from the cache only, and nothing usable was cached.
    case notCached(URL)
    /// The task was cancelled.
    case cancelled
    /// Code of the app's own (a middleware, an observer, a response hook) threw an error that is not an
    /// ``ErrandError``; the original error is kept.
    case app(AppFailure)
}

/// What went wrong on the wire.
public struct TransportFailure: Sendable, CustomStringConvertible {
    /// The kinds of wire failure.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A timeout fired (connect, idle or total).
        case timedOut
        /// The connection was refused or could not be opened.
        case cannotConnect
        /// The host name could not be resolved.
        case dnsFailure
        /// TLS failed: handshake, untrusted certificate, pinning mismatch.
        case tls
        /// The connection closed or reset before the response was complete.
        case connectionLost
        /// More redirects than the policy allows, or a loop.
        case tooManyRedirects
        /// A redirect would downgrade https to http, or go to a scheme that is not allowed.
        case insecureRedirect
        /// The server's response could not be understood (bad framing, bad encoding).
        case badResponse
        /// Anything else.
        case other
        /// The proxy refused the request: it wants credentials, refused the ones given, or would not open a tunnel.
        case proxy
        /// A replay (``HARReplayTransport``) has no recorded answer for the request; ``TransportFailure/underlying``
        /// names the closest recorded exchange and how it differs.
        case notRecorded
    }

    /// The kind of failure.
    public var kind: Kind
    /// The URL of the request (secrets redacted when it comes from the client).
    public var url: URL?
    /// The underlying error's description, as the transport reported it.
    public var underlying: String

    /// Creates a failure.
    public init(kind: Kind, url: URL? = nil, underlying: String) {
        self.kind = kind
        self.url = url
        self.underlying = underlying
    }

    /// The kind and underlying error.
    public var description: String { "\(kind.rawValue): \(underlying)" }
}

/// An error thrown by the app's own code inside the client — a middleware, a hook, a decoder — kept as it was thrown.
public struct AppFailure: Sendable, CustomStringConvertible {
    /// The error as the app's code threw it.
    public var underlying: any Error

    /// Wraps an error of the app's.
    public init(_ underlying: any Error) {
        self.underlying = underlying
    }

    /// The original error, when it is an `E`.
    public func underlying<E: Error>(as type: E.Type = E.self) -> E? { underlying as? E }

    /// The original error's type and description.
    public var description: String { "\(type(of: underlying)): \(String(describing: underlying))" }
}

/// A response whose status was not accepted.
///
/// It keeps the response's body (up to ``ClientConfiguration/maxErrorBodySize``), so an API's error document can be
/// decoded with ``decodeBody(as:using:)``, and, when the client has an ``ClientConfiguration/errorResponse`` hook,
/// the app's own error made from it as ``appError``.
public struct StatusFailure: Sendable, CustomStringConvertible {
    /// The HTTP status code.
    public var status: Int
    /// The response headers.
    public var headers: HTTPHeaders
    /// The first 1 KB of the body as text (invalid UTF-8 replaced).
    public var bodyExcerpt: String
    /// The body as it came, at most ``ClientConfiguration/maxErrorBodySize`` bytes of it, with the secrets
    /// ``Redaction`` names masked when the body is text.
    public var body: Data
    /// The URL that answered (secrets redacted).
    public var url: URL?
    /// The app's own error for this response, made by the client's ``ClientConfiguration/errorResponse`` hook;
    /// `nil` without a hook or when the hook made none.
    public var appError: (any Error)?

    /// How much of a body an excerpt keeps, in bytes.
    static let excerptLimit = 1024

    /// Creates a status failure that keeps `body` whole and its first 1,024 bytes as the excerpt.
    public init(status: Int, headers: HTTPHeaders, body: Data, url: URL?) {
        self.status = status
        self.headers = headers
        self.bodyExcerpt = String(decoding: body.prefix(Self.excerptLimit), as: UTF8.self)
        self.body = body
        self.url = url
    }

    /// Decodes the kept body as JSON: an API's error document, for instance `{"error": {"code": …}}` with a 422.
    ///
    /// Throws ``ErrandError/decoding(_:)`` when the body is not a `T` (or was cut at
    /// ``ClientConfiguration/maxErrorBodySize``).
    public func decodeBody<T: Decodable>(
        as type: T.Type = T.self, using decoder: JSONDecoder = JSONDecoder()
    ) throws(ErrandError) -> T {
        do {
            return try decoder.decode(T.self, from: body)
        } catch {
            throw .decoding(
                DecodingFailure(decoding: T.self, error: error, body: body, contentType: headers["Content-Type"]))
        }
    }

    /// The app's error made by the ``ClientConfiguration/errorResponse`` hook, when it is an `E`.
    public func appError<E: Error>(as type: E.Type = E.self) -> E? { appError as? E }

    /// The status and body excerpt.
    public var description: String { "HTTP \(status): \(bodyExcerpt)" }
}

/// A body that did not decode into the expected type.
public struct DecodingFailure: Sendable, CustomStringConvertible {
    /// The type the body was decoded into.
    public var targetType: String
    /// Where in the document decoding failed, as `meals[0].idMeal`.
    public var codingPath: String
    /// What the decoder said.
    public var reason: String
    /// The first 1 KB of the body as text.
    public var bodyExcerpt: String
    /// The response's `Content-Type`, if any.
    public var contentType: String?

    /// Creates a decoding failure.
    public init(targetType: String, codingPath: String, reason: String, body: Data, contentType: String?) {
        self.targetType = targetType
        self.codingPath = codingPath
        self.reason = reason
        self.bodyExcerpt = String(decoding: body.prefix(1024), as: UTF8.self)
        self.contentType = contentType
    }

    /// Builds a failure from any error a decoder threw.
    public init(decoding type: Any.Type, error: any Error, body: Data, contentType: String?) {
        let (path, reason) = Self.describe(error)
        self.init(
            targetType: String(describing: type), codingPath: path, reason: reason, body: body,
            contentType: contentType)
    }

    /// Whether the body looks like an HTML page rather than data.
    public var isHTML: Bool { Self.looksLikeHTML(contentType: contentType, excerpt: bodyExcerpt) }

    /// The target type, path and reason.
    public var description: String { "\(targetType) at \(codingPath.isEmpty ? "<root>" : codingPath): \(reason)" }

    static func looksLikeHTML(contentType: String?, excerpt: String) -> Bool {
        if let contentType, contentType.lowercased().contains("text/html") { return true }
        let start = excerpt.drop { $0.isWhitespace }.prefix(15).lowercased()
        return start.hasPrefix("<!doctype html") || start.hasPrefix("<html")
    }

    private static func describe(_ error: any Error) -> (path: String, reason: String) {
        func render(_ path: [any CodingKey]) -> String {
            path.reduce(into: "") { result, key in
                if let index = key.intValue {
                    result += "[\(index)]"
                } else {
                    result += (result.isEmpty ? "" : ".") + key.stringValue
                }
            }
        }
        guard let error = error as? DecodingError else { return ("", String(describing: error)) }
        switch error {
        case .typeMismatch(let type, let context):
            return (render(context.codingPath), "expected \(type): \(context.debugDescription)")
        case .valueNotFound(let type, let context):
            return (render(context.codingPath), "missing value of type \(type): \(context.debugDescription)")
        case .keyNotFound(let key, let context):
            return (render(context.codingPath + [key]), "missing key \"\(key.stringValue)\"")
        case .dataCorrupted(let context):
            let underlying = (context.underlyingError).map { " (\($0.localizedDescription))" } ?? ""
            return (render(context.codingPath), context.debugDescription + underlying)
        @unknown default:
            return ("", String(describing: error))
        }
    }
}
