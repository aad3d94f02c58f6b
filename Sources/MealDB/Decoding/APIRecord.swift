/// One JSON object of TheMealDB's API as raw text fields, before any cleaning.
///
/// Strings are kept as sent; numbers become their text (an id sent as `52771` reads as `"52771"`); `null`,
/// booleans, arrays and objects are treated as absent, so a field of an unexpected type never fails a whole list.
struct APIRecord: Decodable, Sendable {
    /// The fields by their API name (`strMeal`, `strIngredient3`, …).
    let fields: [String: String]
    /// Where the object sits in the document, for error messages.
    let codingPath: [any CodingKey]

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: FieldKey.self)
        var fields: [String: String] = [:]
        for key in container.allKeys {
            do {
                fields[key.stringValue] = try container.decode(String.self, forKey: key)
                continue
            } catch DecodingError.typeMismatch, DecodingError.valueNotFound {
                // Another type: a number is read below; null, booleans, arrays and objects count as absent.
            } catch {
                // Broken bytes, such as invalid UTF-8 inside the string (the parser's own error, not a DecodingError):
                // the answer cannot be read, which is not the same as a field that is absent.
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: container.codingPath + [key],
                        debugDescription: "\(key.stringValue) is not readable text",
                        underlyingError: error))
            }
            if let number = try? container.decode(Int.self, forKey: key) {
                fields[key.stringValue] = String(number)
            } else if let number = try? container.decode(Double.self, forKey: key) {
                fields[key.stringValue] = String(number)
            }
        }
        self.fields = fields
        self.codingPath = decoder.codingPath
    }

    /// A field trimmed; `nil` when absent, `null`, empty or whitespace only.
    func text(_ name: String) -> String? { RawText.clean(fields[name]) }

    /// A field that must be there with some text: ids and names.
    func required(_ name: String) throws -> String {
        guard let value = text(name) else {
            throw DecodingError.keyNotFound(
                FieldKey(name),
                DecodingError.Context(
                    codingPath: codingPath, debugDescription: "\(name) is missing, null or empty."))
        }
        return value
    }
}

/// A JSON key known only at run time (the API's numbered fields).
struct FieldKey: CodingKey, Sendable {
    let stringValue: String
    let intValue: Int?

    init(_ name: String) {
        self.stringValue = name
        self.intValue = nil
    }

    init?(stringValue: String) { self.init(stringValue) }

    init?(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }
}
