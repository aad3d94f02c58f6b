/// An ingredient the service knows, as `list.php?i=list` gives it; see ``MealDBClient/ingredientImageURL(_:size:)``.
///
/// Encodes as `{"id","name","description","type"}`, absent values as `null`.
public struct Ingredient: Sendable, Hashable, Identifiable, Codable {
    /// The service's id.
    public var id: String
    /// The name, as `"Chicken"`; pass it to ``MealDBClient/meals(withIngredient:)``.
    public var name: String
    /// What it is, lines separated by `\n`; many ingredients have none.
    public var description: String?
    /// A kind, as `"Meat"`; many ingredients have none.
    public var type: String?

    /// Creates an ingredient.
    public init(id: String, name: String, description: String? = nil, type: String? = nil) {
        self.id = id
        self.name = name
        self.description = description
        self.type = type
    }

    private enum CodingKeys: String, CodingKey { case id, name, description, type }

    /// Encodes the clean shape, every key present.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(description, forKey: .description)
        try container.encode(type, forKey: .type)
    }
}

extension Ingredient: APIRepresentable {
    init(api record: APIRecord) throws {
        self.init(
            id: try record.required("idIngredient"), name: try record.required("strIngredient"),
            description: RawText.cleanLines(record.fields["strDescription"]), type: record.text("strType"))
    }
}
