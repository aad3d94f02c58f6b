/// An HTTP request method.
///
/// The common methods are static members; any other token can be made with ``init(rawValue:)``.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The method's name as sent on the wire, for example `GET`.
    public let rawValue: String

    /// Creates a method from its wire name. Names are case-sensitive (RFC 9110 §9.1).
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `GET`: retrieve a representation.
    public static let get = HTTPMethod(rawValue: "GET")
    /// `POST`: submit data to be processed.
    public static let post = HTTPMethod(rawValue: "POST")
    /// `PUT`: replace a resource.
    public static let put = HTTPMethod(rawValue: "PUT")
    /// `PATCH`: modify part of a resource.
    public static let patch = HTTPMethod(rawValue: "PATCH")
    /// `DELETE`: remove a resource.
    public static let delete = HTTPMethod(rawValue: "DELETE")
    /// `HEAD`: like `GET`, without a response body.
    public static let head = HTTPMethod(rawValue: "HEAD")
    /// `OPTIONS`: ask which methods a resource supports.
    public static let options = HTTPMethod(rawValue: "OPTIONS")

    /// Whether repeating the request has the same effect as sending it once (RFC 9110 §9.2.2).
    ///
    /// Retry policies retry only idempotent methods unless told otherwise.
    public var isIdempotent: Bool {
        switch self {
        case .get, .head, .put, .delete, .options: return true
        default: return rawValue == "TRACE"
        }
    }

    /// The method's wire name.
    public var description: String { rawValue }
}
