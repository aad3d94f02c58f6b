import Errand
import Foundation

/// The sizes TheMealDB serves a meal's picture in, added to the picture's URL as a last path segment.
public enum MealImageSize: String, Sendable, Hashable, CaseIterable {
    /// About 250 pixels wide.
    case small
    /// About 350 pixels wide.
    case medium
    /// About 700 pixels wide.
    case large
    /// The small size under the name older documentation uses.
    case preview
}

/// The sizes TheMealDB serves an ingredient's picture in.
public enum IngredientImageSize: String, Sendable, Hashable, CaseIterable {
    /// The picture as uploaded (`Name.png`).
    case original
    /// `Name-small.png`.
    case small
    /// `Name-medium.png`.
    case medium
    /// `Name-large.png`.
    case large

    /// What the size adds to the file name.
    var suffix: String { self == .original ? "" : "-" + rawValue }
}

extension Meal {
    /// The picture in a given size, or `nil` when the meal has no picture.
    public func thumbnail(size: MealImageSize) -> URL? {
        thumbnail?.appendingPathComponent(size.rawValue)
    }
}

extension MealSummary {
    /// The picture in a given size, or `nil` when the meal has no picture.
    public func thumbnail(size: MealImageSize) -> URL? {
        thumbnail?.appendingPathComponent(size.rawValue)
    }
}

extension MealDBClient {
    /// The picture of an ingredient by name (`/images/ingredients/{name}.png` on this client's server), or `nil`
    /// for an empty name.
    ///
    /// The name is used as given, as `"Chicken Breast"`; it is percent-encoded in the URL.
    public func ingredientImageURL(_ name: String, size: IngredientImageSize = .original) -> URL? {
        Self.ingredientImageURL(name, size: size, baseURL: baseURL)
    }

    /// The picture of an ingredient on a given server root, or `nil` for an empty name.
    public static func ingredientImageURL(
        _ name: String, size: IngredientImageSize = .original, baseURL: URL = MealDBClient.defaultBaseURL
    ) -> URL? {
        guard let name = RawText.clean(name) else { return nil }
        return try? URLBuilder.url(base: baseURL, segments: ["images", "ingredients", name + size.suffix + ".png"])
    }

    /// Downloads a picture (a thumbnail, an ingredient's image) through this client, its middleware included.
    public func imageData(at url: URL) async throws(ErrandError) -> Data {
        try await apiClient.send(Request<Data>(url: url, headers: ["Accept": "image/*"])).value
    }

    /// Downloads a meal's picture in a size, or the picture as uploaded when the server has no such size.
    ///
    /// `thumbnail` is the meal's ``Meal/thumbnail`` (or ``MealSummary/thumbnail``); the size variant is asked for
    /// first, and any answer that says it is not there (a 4xx: ``/Errand/DataPipeline/fallsBack(after:)``) moves on to
    /// the original. The original's failure, or any other failure of the variant, is thrown.
    public func thumbnailData(_ thumbnail: URL, size: MealImageSize) async throws(ErrandError) -> Data {
        do {
            return try await imageData(at: thumbnail.appendingPathComponent(size.rawValue))
        } catch {
            guard DataPipeline.fallsBack(after: error) else { throw error }
            return try await imageData(at: thumbnail)
        }
    }
}
