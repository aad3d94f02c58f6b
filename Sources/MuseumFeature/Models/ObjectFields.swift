import Foundation
import MetMuseum

/// What an object's screen shows, as labelled values: the facts, where it comes from, who made it, and its links —
/// every field the Met filled in, and nothing for the ones it left empty.
///
/// One table for every screen of an object, so that `met show`, `met browse` and an app's detail view show the same
/// fields under the same labels.
public struct ObjectFields: Sendable {
    /// One labelled value.
    public struct Field: Sendable, Hashable {
        /// The label, as `Medium`.
        public let label: String
        /// The value, as `Oil on canvas`.
        public let value: String

        /// Creates a field.
        public init(label: String, value: String) {
            self.label = label
            self.value = value
        }
    }

    /// The object the fields describe.
    public let object: MetObject

    /// The fields of `object`.
    public init(_ object: MetObject) {
        self.object = object
    }

    /// The artist's name with its prefix and suffix, when the Met names one.
    public var artist: String? {
        let name = [object.artistPrefix, object.artistDisplayName, object.artistSuffix].compactMap { $0 }
        return name.isEmpty ? nil : name.joined(separator: " ")
    }

    /// What the object is: artist, dates, medium, department, rights and the rest.
    public var facts: [Field] {
        let artistYears = [object.artistBeginDate, object.artistEndDate].compactMap { $0 }
        let years = object.dateRange
        let hasYears = object.objectDate != nil || years != 0...0
        return Self.filled([
            ("Artist role", object.artistRole), ("Sorted as", object.artistAlphaSort),
            ("Nationality", object.artistNationality),
            ("Artist's years", artistYears.isEmpty ? nil : artistYears.joined(separator: "–")),
            ("Artist's gender", object.artistGender),
            ("Date", object.objectDate),
            ("Years", hasYears ? "\(years.lowerBound)–\(years.upperBound)" : nil),
            ("Object", object.objectName), ("Classification", object.classification), ("Medium", object.medium),
            ("Dimensions", object.dimensions), ("Measured", measurements), ("Culture", object.culture),
            ("Period", object.period), ("Dynasty", object.dynasty), ("Reign", object.reign),
            ("Portfolio", object.portfolio), ("Department", object.department),
            ("Gallery", object.galleryNumber.map { "Gallery \($0)" }), ("Accession", object.accessionNumber),
            ("Acquired", object.accessionYear), ("Credit", object.creditLine),
            ("Rights", object.rightsAndReproduction), ("Repository", object.repository),
            ("Tags", object.tags.isEmpty ? nil : object.tags.map(\.term).joined(separator: ", ")),
            ("Highlight", object.isHighlight ? "yes" : nil), ("Timeline work", object.isTimelineWork ? "yes" : nil),
            ("Public domain", object.isPublicDomain ? "yes" : "no"),
            ("Record updated", object.metadataDate.map { ISO8601DateFormatter().string(from: $0) }),
        ])
    }

    /// Where the object comes from: geography, excavation, river.
    public var place: [Field] {
        Self.filled([
            ("Geography", object.geographyType), ("City", object.city), ("State", object.state),
            ("County", object.county), ("Country", object.country), ("Region", object.region),
            ("Subregion", object.subregion), ("Locale", object.locale), ("Locus", object.locus),
            ("Excavation", object.excavation), ("River", object.river),
        ])
    }

    /// Everyone who took part, their role as the label: `Artist` → `Maren Holt (Female)`.
    public var makers: [Field] {
        object.constituents.map { maker in
            Field(label: maker.role ?? "", value: (maker.name ?? "unnamed") + (maker.gender.map { " (\($0))" } ?? ""))
        }
    }

    /// The object's pictures, pages and authority records, as addresses.
    public var links: [Field] {
        var links: [(String, URL?)] = [("Image", object.primaryImage), ("Small image", object.primaryImageSmall)]
        links += object.additionalImages.enumerated().map { ("Image \($0.offset + 2)", $0.element) }
        links += [
            ("Page", object.objectURL), ("Resource", object.linkResource.flatMap(URL.init(string:))),
            ("Object Wikidata", object.objectWikidataURL), ("Artist Wikidata", object.artistWikidataURL),
            ("Artist ULAN", object.artistULANURL),
        ]
        for maker in object.constituents {
            let name = maker.name ?? "maker"
            links += [("\(name) ULAN", maker.ulanURL), ("\(name) Wikidata", maker.wikidataURL)]
        }
        return Self.filled(links.map { ($0.0, $0.1?.absoluteString) })
    }

    /// Each measured element, as `Overall: Height 65.1, Width 54`, joined by `; `.
    private var measurements: String? {
        let lines = object.measurements.map { element in
            let values = element.elementMeasurements.sorted { $0.key < $1.key }
                .map { "\($0.key) \($0.value.formatted(.number.grouping(.never)))" }.joined(separator: ", ")
            let name = [element.elementName, element.elementDescription].compactMap { $0 }.joined(separator: ", ")
            return name.isEmpty ? values : "\(name): \(values)"
        }
        return lines.isEmpty ? nil : lines.joined(separator: "; ")
    }

    private static func filled(_ pairs: [(String, String?)]) -> [Field] {
        pairs.compactMap { label, value in value.map { Field(label: label, value: $0) } }
    }
}
