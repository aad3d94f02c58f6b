/// A key for a per-request option that middleware reads (a cache policy, a retry override, …).
///
/// Declare an enum conforming to this protocol and an extension property on ``RequestOptions``:
/// ```swift
/// enum TraceIDKey: RequestOptionKey { static let defaultValue: String? = nil }
/// extension RequestOptions { var traceID: String? { get { self[TraceIDKey.self] } set { self[TraceIDKey.self] = newValue } } }
/// ```
public protocol RequestOptionKey {
    /// The option's type.
    associatedtype Value: Sendable
    /// The value when the request does not set one.
    static var defaultValue: Value { get }
}

/// Typed per-request options, carried from a ``Request`` through the middleware chain to the transport.
public struct RequestOptions: Sendable {
    private var values: [ObjectIdentifier: any Sendable] = [:]

    /// No options set.
    public init() {}

    /// The option's value, or its key's default.
    public subscript<Key: RequestOptionKey>(key: Key.Type) -> Key.Value {
        get {
            // Most requests set no option: skip hashing and the dynamic cast.
            if values.isEmpty { return Key.defaultValue }
            return values[ObjectIdentifier(key)] as? Key.Value ?? Key.defaultValue
        }
        set { values[ObjectIdentifier(key)] = newValue }
    }
}

/// The attempt number of a transfer (1 for the first), set by retrying middleware and reported to observers.
public enum AttemptKey: RequestOptionKey {
    /// The first attempt.
    public static let defaultValue = 1
}

extension RequestOptions {
    /// Which attempt this transfer is (1 for the first).
    public var attempt: Int {
        get { self[AttemptKey.self] }
        set { self[AttemptKey.self] = newValue }
    }
}
