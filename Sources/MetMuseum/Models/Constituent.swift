import Foundation

/// A person or organisation who made or took part in making an object (the Met's `constituents`).
///
/// Encodes as `{"id","role","name","gender","ulanURL","wikidataURL"}`; decodes that shape and the Met's own
/// (`constituentID`, `constituentULAN_URL`, `constituentWikidata_URL`). Empty strings become `nil`.
public struct Constituent: Codable, Sendable, Hashable {
    /// The Met's constituent ID; absent in some older records.
    public var id: Int?
    /// The part they played, as `Artist`, `Maker`, `Designer`.
    public var role: String?
    /// The name as the Met displays it.
    public var name: String?
    /// Gender as recorded (often absent).
    public var gender: String?
    /// The Getty Union List of Artist Names entry.
    public var ulanURL: URL?
    /// The Wikidata entry.
    public var wikidataURL: URL?

    /// Creates a constituent.
    public init(
        id: Int? = nil, role: String? = nil, name: String? = nil, gender: String? = nil, ulanURL: URL? = nil,
        wikidataURL: URL? = nil
    ) {
        self.id = id
        self.role = role
        self.name = name
        self.gender = gender
        self.ulanURL = ulanURL
        self.wikidataURL = wikidataURL
    }

    /// Decodes the Met's shape or the SDK's own.
    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: FieldKey.self)
        id = try fields.number("constituentID", "id")
        role = try fields.text("role")
        name = try fields.text("name")
        gender = try fields.text("gender")
        ulanURL = try fields.link("constituentULAN_URL", "ulanURL")
        wikidataURL = try fields.link("constituentWikidata_URL", "wikidataURL")
    }

    /// Encodes every key, `null` for missing values.
    public func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: FieldKey.self)
        try fields.put(id, "id")
        try fields.put(role, "role")
        try fields.put(name, "name")
        try fields.put(gender, "gender")
        try fields.put(ulanURL, "ulanURL")
        try fields.put(wikidataURL, "wikidataURL")
    }
}
