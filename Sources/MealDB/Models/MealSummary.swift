import Foundation

/// A recipe as filter results list it: id, name and picture. Look it up with ``MealDBClient/meal(id:)`` for details.
///
/// Encodes as `{"id","name","thumbnail"}`.
public struct MealSummary: Sendable, Hashable, Identifiable, Codable {
    /// The service's id.
    public var id: String
    /// The recipe's name.
    public var name: String
    /// The picture; see ``thumbnail(size:)`` for smaller versions.
    public var thumbnail: URL?

    /// Creates a summary.
    public init(id: String, name: String, thumbnail: URL? = nil) {
        self.id = id
        self.name = name
        self.thumbnail = thumbnail
    }

    private enum CodingKeys: String, CodingKey { case id, name, thumbnail }

    /// Decodes the clean shape.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id), name: try container.decode(String.self, forKey: .name),
            thumbnail: try container.decodeIfPresent(String.self, forKey: .thumbnail).flatMap(RawText.webURL))
    }

    /// Encodes the clean shape, `thumbnail` as a string or `null`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(thumbnail?.absoluteString, forKey: .thumbnail)
    }
}

extension MealSummary: APIRepresentable {
    init(api record: APIRecord) throws {
        self.init(
            id: try record.required("idMeal"), name: try record.required("strMeal"),
            thumbnail: RawText.webURL(record.fields["strMealThumb"]))
    }
}

extension MealSummary {
    /// The summary of a full meal.
    public init(_ meal: Meal) {
        self.init(id: meal.id, name: meal.name, thumbnail: meal.thumbnail)
    }
}
