import Foundation

/// Collects the items one encoding writes. Encoding runs on one task, start to end, so no lock is needed.
final class QueryItemSink {
    let arrayEncoding: QueryEncoder.ArrayEncoding
    var items: [QueryItem] = []

    init(arrayEncoding: QueryEncoder.ArrayEncoding) {
        self.arrayEncoding = arrayEncoding
    }
}

/// Why a value has no place in a query.
struct QueryEncodingError: Error, CustomStringConvertible {
    var description: String
}

/// The `Encoder` behind ``QueryEncoder``: `name` is the bracketed name of the value it encodes (`page[size]`),
/// `nil` at the top level, where only a keyed value fits.
struct QueryValueEncoder: Encoder {
    let name: String?
    let sink: QueryItemSink
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(QueryKeyedContainer<Key>(name: name, sink: sink, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        QueryUnkeyedContainer(name: name ?? "", sink: sink, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        QuerySingleValueContainer(encoder: self)
    }

    /// Writes a value under ``name``: the types with a text form of their own as one item, anything else through
    /// its `encode(to:)`.
    func encodeValue<Value: Encodable>(_ value: Value) throws {
        if let text = Self.text(of: value) {
            try write(text)
        } else {
            try value.encode(to: self)
        }
    }

    /// Writes one item named ``name``.
    func write(_ text: String) throws {
        guard let name else {
            throw QueryEncodingError(description: "a query's top level must be keyed, not a single value")
        }
        sink.items.append(QueryItem(name, text))
    }

    /// The text of the values a query writes as one item rather than by their `Codable` shape.
    static func text(of value: Any) -> String? {
        switch value {
        case let value as String: return value
        case let value as Bool: return value ? "true" : "false"
        case let value as Date: return value.formatted(.iso8601)
        case let value as URL: return value.absoluteString
        case let value as Data: return value.base64EncodedString()
        case let value as Decimal: return value.description
        case let value as any BinaryInteger: return String(describing: value)
        case let value as any BinaryFloatingPoint: return String(describing: value)
        default: return nil
        }
    }

    /// The name of a nested key under `parent`.
    static func name(_ key: String, under parent: String?) -> String {
        parent.map { "\($0)[\(key)]" } ?? key
    }
}
