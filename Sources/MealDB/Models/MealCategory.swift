import Foundation

/// A category of recipes with its picture and description, as `categories.php` lists them.
///
/// Named `MealCategory` rather than `Category`, which Objective-C's runtime already declares on Apple platforms.
/// Encodes as `{"id","name","thumbnail","description"}`.
public struct MealCategory: Sendable, Hashable, Identifiable, Codable {
    /// The service's id, as `"1"`.
    public var id: String
    /// The name, as `"Beef"`; pass it to ``MealDBClient/meals(inCategory:)``.
    public var name: String
    /// The category's picture.
    public var thumbnail: URL?
    /// A paragraph or two about the category, lines separated by `\n`.
    public var description: String?

    /// Creates a category.
    public init(id: String, name: String, thumbnail: URL? = nil, description: String? = nil) {
        self.id = id
        self.name = name
        self.thumbnail = thumbnail
        self.description = description
    }

    private enum CodingKeys: String, CodingKey { case id, name, thumbnail, description }

    /// Decodes the clean shape.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id), name: try container.decode(String.self, forKey: .name),
            thumbnail: try container.decodeIfPresent(String.self, forKey: .thumbnail).flatMap(RawText.webURL),
            description: try container.decodeIfPresent(String.self, forKey: .description))
    }

    /// Encodes the clean shape, every key present.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(thumbnail?.absoluteString, forKey: .thumbnail)
        try container.encode(description, forKey: .description)
    }
}

extension MealCategory: APIRepresentable {
    init(api record: APIRecord) throws {
        self.init(
            id: try record.required("idCategory"), name: try record.required("strCategory"),
            thumbnail: RawText.webURL(record.fields["strCategoryThumb"]),
            description: RawText.cleanLines(record.fields["strCategoryDescription"]))
    }
}

/// A category name as `list.php?c=list` gives it.
struct CategoryName: APIRepresentable {
    let name: String

    init(api record: APIRecord) throws { name = try record.required("strCategory") }
}
