/// A JSON document with object keys in the order they were written, for machine output whose shape is part of
/// a contract: keys come out exactly as declared, and absent values are written as `null` rather than left out.
///
/// ```swift
/// let meal: JSONValue = ["id": "52771", "name": "Spicy Arrabiata Penne", "alternateName": nil, "tags": ["Pasta"]]
/// print(meal.rendered())
/// ```
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A whole number.
    case integer(Int)
    /// A number with a fraction (non-finite values are written as `null`).
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object whose keys keep their order.
    case object([(key: String, value: JSONValue)])

    /// A string, or `null` when absent.
    public init(_ string: String?) { self = string.map(JSONValue.string) ?? .null }

    /// A whole number, or `null` when absent.
    public init(_ integer: Int?) { self = integer.map(JSONValue.integer) ?? .null }

    /// A Boolean, or `null` when absent.
    public init(_ bool: Bool?) { self = bool.map(JSONValue.bool) ?? .null }

    /// A number, or `null` when absent.
    public init(_ number: Double?) { self = number.map(JSONValue.number) ?? .null }

    /// An array of representable values.
    public init(_ values: [some JSONRepresentable]) { self = .array(values.map(\.json)) }

    /// An array of strings.
    public init(_ strings: [String]) { self = .array(strings.map(JSONValue.string)) }

    /// An array of whole numbers.
    public init(_ integers: [Int]) { self = .array(integers.map(JSONValue.integer)) }

    /// Equal documents: same values, and object keys in the same order.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.integer(let a), .integer(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// Hashes the compact rendering, which is equal exactly when the documents are.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(rendered(pretty: false))
    }

    /// The value of a key of an object (the first, if repeated).
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }
}

/// A value with a JSON form for machine output.
public protocol JSONRepresentable {
    /// The value as JSON.
    var json: JSONValue { get }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// `null`.
    public init(nilLiteral: ()) { self = .null }
    /// A Boolean.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// A whole number.
    public init(integerLiteral value: Int) { self = .integer(value) }
    /// A number.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// A string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An object, keys in the order written.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(elements.map { (key: $0.0, value: $0.1) })
    }
}
