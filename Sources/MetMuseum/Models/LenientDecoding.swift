import Foundation

/// A coding key made from any string, so one decoder can accept the Met's raw field names and the SDK's own.
struct FieldKey: CodingKey, Hashable {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// The Met's conventions, decoded once: `""` and `null` mean "no value", a `null` array means an empty one.
///
/// Each accessor takes the names a field may have (the service's first, then the SDK's encoded name) and uses the
/// first that is present.
extension KeyedDecodingContainer where Key == FieldKey {
    func text(_ names: String...) throws -> String? {
        guard let key = presentKey(names), try !decodeNil(forKey: key) else { return nil }
        let value = try decode(String.self, forKey: key)
        return value.isEmpty ? nil : value
    }

    /// A URL field; an empty or unparsable string is no URL (the Met leaves links empty for many objects).
    func link(_ names: String...) throws -> URL? {
        guard let key = presentKey(names), try !decodeNil(forKey: key) else { return nil }
        let value = try decode(String.self, forKey: key)
        return value.isEmpty ? nil : URL(string: value)
    }

    func number(_ names: String...) throws -> Int? {
        guard let key = presentKey(names), try !decodeNil(forKey: key) else { return nil }
        return try decode(Int.self, forKey: key)
    }

    func flag(_ names: String...) throws -> Bool {
        guard let key = presentKey(names), try !decodeNil(forKey: key) else { return false }
        return try decode(Bool.self, forKey: key)
    }

    func list<Element: Decodable>(_ type: Element.Type, _ names: String...) throws -> [Element] {
        guard let key = presentKey(names), try !decodeNil(forKey: key) else { return [] }
        return try decode([Element].self, forKey: key)
    }

    private func presentKey(_ names: [String]) -> FieldKey? {
        names.lazy.map(FieldKey.init).first { contains($0) }
    }
}

extension KeyedEncodingContainer where Key == FieldKey {
    /// Encodes a value under a name, writing `null` for `nil` (the SDK's JSON always has every key).
    mutating func put<Value: Encodable>(_ value: Value, _ name: String) throws {
        try encode(value, forKey: FieldKey(name))
    }
}
