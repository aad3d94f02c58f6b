import Foundation

/// A subject keyword of an object, with its Getty AAT and Wikidata entries (the Met's `tags`).
///
/// Encodes as `{"term","aatURL","wikidataURL"}`; decodes that shape and the Met's (`AAT_URL`, `Wikidata_URL`).
public struct ObjectTag: Codable, Sendable, Hashable {
    /// The keyword, as `Sunflowers`.
    public var term: String
    /// The Getty Art & Architecture Thesaurus entry.
    public var aatURL: URL?
    /// The Wikidata entry (missing from older records).
    public var wikidataURL: URL?

    /// Creates a tag.
    public init(term: String, aatURL: URL? = nil, wikidataURL: URL? = nil) {
        self.term = term
        self.aatURL = aatURL
        self.wikidataURL = wikidataURL
    }

    /// Decodes the Met's shape or the SDK's own.
    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: FieldKey.self)
        term = try fields.text("term") ?? ""
        aatURL = try fields.link("AAT_URL", "aatURL")
        wikidataURL = try fields.link("Wikidata_URL", "wikidataURL")
    }

    /// Encodes every key, `null` for missing links.
    public func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: FieldKey.self)
        try fields.put(term, "term")
        try fields.put(aatURL, "aatURL")
        try fields.put(wikidataURL, "wikidataURL")
    }
}
