/// One line of a recipe's ingredient list: what, and how much.
///
/// Encodes as `{"name","measure"}`, `measure` `null` when the service gave none.
public struct MealIngredient: Sendable, Hashable, Codable {
    /// The ingredient, as `"Olive Oil"`.
    public var name: String
    /// How much, as `"1 tin"`; `nil` when the recipe does not say.
    public var measure: String?

    /// Creates an ingredient line.
    public init(name: String, measure: String? = nil) {
        self.name = name
        self.measure = measure
    }

    private enum CodingKeys: String, CodingKey { case name, measure }

    /// Encodes both keys, `measure` as `null` when absent.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(measure, forKey: .measure)
    }
}
