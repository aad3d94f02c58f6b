import Foundation

/// A request whose successful response decodes to `Response`.
///
/// `Response` ties the request to what it returns, so call sites read `try await client.send(Paths.meal(id)).value`.
/// Use a `Decodable` type for JSON, `Data` for raw bytes, `String` for text, or `Void` to ignore the body.
///
/// ```swift
/// let search = Request<MealList>(path: "search.php", query: [QueryItem("s", "mac & cheese")])
/// ```
public struct Request<Response>: Sendable {
    /// The method; `GET` by default.
    public var method: HTTPMethod
    /// Where to send the request.
    public var target: Target
    /// Query items in the order they are sent.
    public var query: [QueryItem]
    /// Header fields; these replace the client's default headers of the same name.
    public var headers: HTTPHeaders
    /// The body, if any.
    public var body: RequestBody?
    /// The total time the request may take (connect, send, receive); `nil` uses the client's.
    public var timeout: Duration?
    /// Status codes that count as success; any other fails with ``ErrandError/unacceptableStatus(_:)``.
    public var acceptedStatusCodes: Set<Int>
    /// Options for middleware and transports (cache policy, retry override, …).
    public var options: RequestOptions

    /// Where a request goes.
    public typealias Target = RequestTarget

    /// The 2xx range: what counts as success by default.
    public static var successCodes: Set<Int> { successRange }

    /// Creates a request to a path relative to the client's base URL.
    public init(
        method: HTTPMethod = .get, path: String, query: [QueryItem] = [], headers: HTTPHeaders = [:],
        body: RequestBody? = nil, timeout: Duration? = nil
    ) {
        self.init(method: method, target: .path(path), query: query, headers: headers, body: body, timeout: timeout)
    }

    /// Creates a request to path segments relative to the client's base URL.
    public init(
        method: HTTPMethod = .get, segments: [String], query: [QueryItem] = [], headers: HTTPHeaders = [:],
        body: RequestBody? = nil, timeout: Duration? = nil
    ) {
        self.init(
            method: method, target: .segments(segments), query: query, headers: headers, body: body, timeout: timeout)
    }

    /// Creates a request to an absolute URL (an image link a response handed out, say).
    public init(
        method: HTTPMethod = .get, url: URL, query: [QueryItem] = [], headers: HTTPHeaders = [:],
        body: RequestBody? = nil, timeout: Duration? = nil
    ) {
        self.init(method: method, target: .url(url), query: query, headers: headers, body: body, timeout: timeout)
    }

    /// Creates a request to any target.
    public init(
        method: HTTPMethod, target: Target, query: [QueryItem], headers: HTTPHeaders, body: RequestBody?,
        timeout: Duration?
    ) {
        self.method = method
        self.target = target
        self.query = query
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.acceptedStatusCodes = Self.successCodes
        self.options = RequestOptions()
    }

    /// The same request decoding to another type.
    public func decoding<Other>(as type: Other.Type) -> Request<Other> {
        var other = Request<Other>(
            method: self.method, target: target, query: query, headers: headers, body: body, timeout: timeout)
        other.acceptedStatusCodes = acceptedStatusCodes
        other.options = options
        return other
    }

    /// A copy with one option set.
    public func with<Key: RequestOptionKey>(_ key: Key.Type, _ value: Key.Value) -> Request {
        var copy = self
        copy.options[key] = value
        return copy
    }
}

/// Built once: every request starts with it.
private let successRange = Set(200..<300)

/// Where a request goes: a path or segments relative to the client's base URL, or an absolute URL.
public enum RequestTarget: Sendable, Hashable {
    /// A path relative to the client's base URL; each `/`-separated segment is percent-encoded.
    case path(String)
    /// Path segments relative to the base URL, each encoded whole (a `/` inside one becomes `%2F`).
    case segments([String])
    /// An absolute URL, used as is (its own query is kept; ``Request/query`` is appended).
    case url(URL)
}
