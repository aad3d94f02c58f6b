import Foundation

/// A keyed value of a query: each key is a name of its own, bracketed under the parent's.
struct QueryKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let name: String?
    let sink: QueryItemSink
    var codingPath: [any CodingKey]

    private func encoder(for key: Key) -> QueryValueEncoder {
        QueryValueEncoder(
            name: QueryValueEncoder.name(key.stringValue, under: name), sink: sink, codingPath: codingPath + [key])
    }

    mutating func encodeNil(forKey key: Key) throws {}

    mutating func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws {
        try encoder(for: key).encodeValue(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        encoder(for: key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        encoder(for: key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        QueryValueEncoder(name: QueryValueEncoder.name("super", under: name), sink: sink, codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder { encoder(for: key) }
}

/// An array of a query: every element named after the array, by the encoder's ``QueryEncoder/ArrayEncoding``.
struct QueryUnkeyedContainer: UnkeyedEncodingContainer {
    let name: String
    let sink: QueryItemSink
    var codingPath: [any CodingKey]
    private(set) var count = 0

    init(name: String, sink: QueryItemSink, codingPath: [any CodingKey]) {
        self.name = name
        self.sink = sink
        self.codingPath = codingPath
    }

    private mutating func nextEncoder() -> QueryValueEncoder {
        let element: String
        switch sink.arrayEncoding {
        case .brackets: element = name + "[]"
        case .repeated: element = name
        case .indexed: element = "\(name)[\(count)]"
        }
        count += 1
        return QueryValueEncoder(name: element, sink: sink, codingPath: codingPath)
    }

    mutating func encodeNil() throws { count += 1 }

    mutating func encode<Value: Encodable>(_ value: Value) throws {
        guard !name.isEmpty else {
            throw QueryEncodingError(description: "a query's top level must be keyed, not an array")
        }
        try nextEncoder().encodeValue(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        nextEncoder().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { nextEncoder().unkeyedContainer() }

    mutating func superEncoder() -> any Encoder { nextEncoder() }
}

/// A single value of a query: one item under the encoder's name.
struct QuerySingleValueContainer: SingleValueEncodingContainer {
    let encoder: QueryValueEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws {}

    mutating func encode<Value: Encodable>(_ value: Value) throws {
        try encoder.encodeValue(value)
    }
}
