import Foundation

/// A recipe with all its details, cleaned of the service's quirks.
///
/// Text is trimmed and `nil` when the service sent nothing (`""`, `" "` or `null`); instructions use `\n` line
/// breaks; URLs are `nil` when empty or not an absolute http(s) address. `Codable` in the clean shape
/// (`{"id","name","alternateName","category","area","instructions","thumbnail","tags","youtube","source","ingredients"}`,
/// absent values as `null`), not in the service's raw shape: the client decodes that itself.
public struct Meal: Sendable, Hashable, Identifiable, Codable {
    /// The service's id, as `"52771"`.
    public var id: String
    /// The recipe's name.
    public var name: String
    /// Another name for the dish (`strMealAlternate`, or `strDrinkAlternate` in older bodies).
    public var alternateName: String?
    /// The category, as `"Vegetarian"`.
    public var category: String?
    /// The cuisine the recipe comes from, as `"Italian"`.
    public var area: String?
    /// The method, lines separated by `\n`.
    public var instructions: String?
    /// The picture; see ``thumbnail(size:)`` for smaller versions.
    public var thumbnail: URL?
    /// Tags, trimmed, without empty entries.
    public var tags: [String]
    /// A video of the recipe.
    public var youtube: URL?
    /// Where the recipe was published.
    public var source: URL?
    /// What goes in, in the service's order; slots without an ingredient name are left out.
    public var ingredients: [MealIngredient]

    /// Creates a meal.
    public init(
        id: String, name: String, alternateName: String? = nil, category: String? = nil, area: String? = nil,
        instructions: String? = nil, thumbnail: URL? = nil, tags: [String] = [], youtube: URL? = nil,
        source: URL? = nil, ingredients: [MealIngredient] = []
    ) {
        self.id = id
        self.name = name
        self.alternateName = alternateName
        self.category = category
        self.area = area
        self.instructions = instructions
        self.thumbnail = thumbnail
        self.tags = tags
        self.youtube = youtube
        self.source = source
        self.ingredients = ingredients
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, alternateName, category, area, instructions, thumbnail, tags, youtube, source, ingredients
    }

    /// Decodes the clean shape; missing optional keys read as `nil` or empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id),
            name: try container.decode(String.self, forKey: .name),
            alternateName: try container.decodeIfPresent(String.self, forKey: .alternateName),
            category: try container.decodeIfPresent(String.self, forKey: .category),
            area: try container.decodeIfPresent(String.self, forKey: .area),
            instructions: try container.decodeIfPresent(String.self, forKey: .instructions),
            thumbnail: try container.decodeIfPresent(String.self, forKey: .thumbnail).flatMap(RawText.webURL),
            tags: try container.decodeIfPresent([String].self, forKey: .tags) ?? [],
            youtube: try container.decodeIfPresent(String.self, forKey: .youtube).flatMap(RawText.webURL),
            source: try container.decodeIfPresent(String.self, forKey: .source).flatMap(RawText.webURL),
            ingredients: try container.decodeIfPresent([MealIngredient].self, forKey: .ingredients) ?? [])
    }

    /// Encodes the clean shape, every key present (`null` when absent), URLs as strings.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(alternateName, forKey: .alternateName)
        try container.encode(category, forKey: .category)
        try container.encode(area, forKey: .area)
        try container.encode(instructions, forKey: .instructions)
        try container.encode(thumbnail?.absoluteString, forKey: .thumbnail)
        try container.encode(tags, forKey: .tags)
        try container.encode(youtube?.absoluteString, forKey: .youtube)
        try container.encode(source?.absoluteString, forKey: .source)
        try container.encode(ingredients, forKey: .ingredients)
    }
}

extension Meal: APIRepresentable {
    /// The service numbers ingredient and measure fields 1 to 20.
    static let ingredientSlots = 1...20

    init(api record: APIRecord) throws {
        self.init(
            id: try record.required("idMeal"),
            name: try record.required("strMeal"),
            alternateName: record.text("strMealAlternate") ?? record.text("strDrinkAlternate"),
            category: record.text("strCategory"),
            area: record.text("strArea"),
            instructions: RawText.cleanLines(record.fields["strInstructions"]),
            thumbnail: RawText.webURL(record.fields["strMealThumb"]),
            tags: RawText.list(record.fields["strTags"]),
            youtube: RawText.webURL(record.fields["strYoutube"]),
            source: RawText.webURL(record.fields["strSource"]),
            ingredients: Self.ingredientSlots.compactMap { slot in
                record.text("strIngredient\(slot)").map {
                    MealIngredient(name: $0, measure: record.text("strMeasure\(slot)"))
                }
            })
    }
}
