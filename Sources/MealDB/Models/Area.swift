/// A cuisine recipes come from, as `"Italian"`; pass it to ``MealDBClient/meals(inArea:)``.
///
/// Encodes as its name alone (`"Italian"`), so a list of areas is a JSON array of strings.
public struct Area: Sendable, Hashable, Identifiable, Codable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The name.
    public var name: String

    /// The name, which identifies the area.
    public var id: String { name }

    /// The name.
    public var description: String { name }

    /// Creates an area.
    public init(name: String) { self.name = name }

    /// Creates an area from a literal, as `"Italian"`.
    public init(stringLiteral name: String) { self.name = name }

    /// Decodes a plain string.
    public init(from decoder: any Decoder) throws {
        name = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes the name as a plain string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}

extension Area: APIRepresentable {
    init(api record: APIRecord) throws { name = try record.required("strArea") }
}
