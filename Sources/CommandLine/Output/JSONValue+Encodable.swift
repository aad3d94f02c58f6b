import Foundation

extension JSONValue: Decodable {
    /// Encodes any `Encodable` value and reads it back as a document whose object keys are sorted, so that output
    /// built from library models has a stable key order (JSONEncoder itself keeps none).
    public init(encoding value: some Encodable) throws {
        let data = try JSONEncoder().encode(value)
        self = try JSONDecoder().decode(JSONValue.self, from: data)
    }

    /// Decodes any JSON document; object keys come out sorted.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let integer = try? container.decode(Int.self) {
            self = .integer(integer)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else {
            let object = try container.decode([String: JSONValue].self)
            self = .object(object.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) })
        }
    }
}
