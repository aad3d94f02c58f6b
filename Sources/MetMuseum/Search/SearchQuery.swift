import Errand
import Foundation

/// A search of the collection: the text and every filter the Met's `search` endpoint takes.
///
/// ```swift
/// var query = SearchQuery("sunflowers")
/// query.hasImages = true
/// query.geoLocations = ["France", "Japan"]
/// let found = try await met.search(query)
/// ```
/// The text is always sent last (`…&q=sunflowers`): the Met returns wrong results when `q` comes before a filter.
/// ``dateBegin`` and ``dateEnd`` go together; setting one alone is an ``MetError/invalidQuery(_:)`` raised before
/// any request is made.
public struct SearchQuery: Sendable, Hashable {
    /// Which fields the text is matched against; empty means everywhere the Met looks.
    public struct Fields: OptionSet, Sendable, Hashable {
        /// The raw flags.
        public let rawValue: Int

        /// Creates fields from raw flags.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// Only titles (`title=true`).
        public static let title = Fields(rawValue: 1 << 0)
        /// Only subject keywords (`tags=true`).
        public static let tags = Fields(rawValue: 1 << 1)
        /// Only artist names and cultures (`artistOrCulture=true`).
        public static let artistOrCulture = Fields(rawValue: 1 << 2)
    }

    /// The text to search for (`q`). An empty text matches nothing.
    public var text: String
    /// Where the text is looked for.
    public var fields: Fields
    /// Only the museum's highlights (`isHighlight=true`).
    public var isHighlight: Bool
    /// Only objects on view in a gallery (`isOnView=true`).
    public var isOnView: Bool
    /// Only objects with images (`hasImages=true`).
    public var hasImages: Bool
    /// Only objects of this department (`departmentId`); see ``MetClient/departments()``.
    public var departmentID: Int?
    /// Only objects of any of these materials or object types (`medium`, `|`-joined), as `["Quilts", "Silk"]`.
    public var media: [String]
    /// Only objects from any of these places (`geoLocation`, `|`-joined), as `["France", "Paris"]`.
    public var geoLocations: [String]
    /// Only objects made in or after this year (`dateBegin`; negative for B.C.). Needs ``dateEnd``.
    public var dateBegin: Int?
    /// Only objects made in or before this year (`dateEnd`). Needs ``dateBegin``.
    public var dateEnd: Int?

    /// Creates a search for a text, with the given filters.
    public init(
        _ text: String, fields: Fields = [], isHighlight: Bool = false, isOnView: Bool = false, hasImages: Bool = false,
        departmentID: Int? = nil, media: [String] = [], geoLocations: [String] = [], dateBegin: Int? = nil,
        dateEnd: Int? = nil
    ) {
        self.text = text
        self.fields = fields
        self.isHighlight = isHighlight
        self.isOnView = isOnView
        self.hasImages = hasImages
        self.departmentID = departmentID
        self.media = media
        self.geoLocations = geoLocations
        self.dateBegin = dateBegin
        self.dateEnd = dateEnd
    }

    /// The query items in the order the Met needs: the filters, then `q` last.
    ///
    /// - Throws: ``MetError/invalidQuery(_:)`` when only one of the dates is set, the dates are reversed, or a medium
    ///   or place is empty or contains `|` (the separator).
    public func queryItems() throws(MetError) -> [QueryItem] {
        try validate()
        var items: [QueryItem] = []
        if isHighlight { items.append(QueryItem("isHighlight", "true")) }
        if fields.contains(.title) { items.append(QueryItem("title", "true")) }
        if fields.contains(.tags) { items.append(QueryItem("tags", "true")) }
        if isOnView { items.append(QueryItem("isOnView", "true")) }
        if fields.contains(.artistOrCulture) { items.append(QueryItem("artistOrCulture", "true")) }
        if hasImages { items.append(QueryItem("hasImages", "true")) }
        if let departmentID { items.append(QueryItem("departmentId", String(departmentID))) }
        if !media.isEmpty { items.append(QueryItem("medium", media.joined(separator: "|"))) }
        if !geoLocations.isEmpty { items.append(QueryItem("geoLocation", geoLocations.joined(separator: "|"))) }
        if let dateBegin, let dateEnd {
            items.append(QueryItem("dateBegin", String(dateBegin)))
            items.append(QueryItem("dateEnd", String(dateEnd)))
        }
        items.append(QueryItem("q", text))
        return items
    }

    private func validate() throws(MetError) {
        switch (dateBegin, dateEnd) {
        case (nil, nil):
            break
        case (_?, nil):
            throw .invalidQuery("dateBegin needs dateEnd as well; the Met filters dates only as a range.")
        case (nil, _?):
            throw .invalidQuery("dateEnd needs dateBegin as well; the Met filters dates only as a range.")
        case (let begin?, let end?):
            guard begin <= end else {
                throw .invalidQuery("dateBegin (\(begin)) is after dateEnd (\(end)).")
            }
        }
        for (name, values) in [("medium", media), ("geoLocation", geoLocations)] {
            if values.contains(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty }) {
                throw .invalidQuery("a \(name) value is empty.")
            }
            if let bad = values.first(where: { $0.contains("|") }) {
                throw .invalidQuery("the \(name) value \"\(bad)\" contains \"|\", which separates values.")
            }
        }
    }
}
