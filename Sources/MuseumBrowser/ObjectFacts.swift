import Foundation
import MetMuseum
import TerminalUI

/// The fields of an object that `met show` prints, as label and value pairs, leaving out what the Met left empty.
enum ObjectFacts {
    static func facts(_ object: MetObject) -> [TextBody.Fact] {
        let artistYears = [object.artistBeginDate, object.artistEndDate].compactMap { $0 }
        let measured = object.measurements.map { element in
            let values = element.elementMeasurements.sorted { $0.key < $1.key }
                .map { "\($0.key) \($0.value.formatted(.number.grouping(.never)))" }.joined(separator: ", ")
            return [element.elementName, values].compactMap { $0 }.joined(separator: ": ")
        }
        let pairs: [(String, String?)] = [
            (
                "Artist",
                [object.artistPrefix, object.artistDisplayName, object.artistSuffix].compactMap { $0 }
                    .joined(separator: " ").nilIfEmpty
            ),
            ("Artist's bio", object.artistDisplayBio), ("Artist role", object.artistRole),
            ("Nationality", object.artistNationality),
            ("Artist's years", artistYears.isEmpty ? nil : artistYears.joined(separator: "–")),
            ("Date", object.objectDate), ("Object", object.objectName), ("Classification", object.classification),
            ("Medium", object.medium), ("Dimensions", object.dimensions),
            ("Measured", measured.isEmpty ? nil : measured.joined(separator: "; ")), ("Culture", object.culture),
            ("Period", object.period), ("Dynasty", object.dynasty), ("Reign", object.reign),
            ("Portfolio", object.portfolio), ("Department", object.department),
            ("Gallery", object.galleryNumber.map { "Gallery \($0)" }), ("Accession", object.accessionNumber),
            ("Acquired", object.accessionYear), ("Credit", object.creditLine),
            ("Rights", object.rightsAndReproduction), ("Repository", object.repository),
            ("Tags", object.tags.isEmpty ? nil : object.tags.map(\.term).joined(separator: ", ")),
            ("Highlight", object.isHighlight ? "yes" : nil), ("Public domain", object.isPublicDomain ? "yes" : "no"),
            (
                "Geography",
                [object.city, object.state, object.country, object.region].compactMap { $0 }
                    .joined(separator: ", ").nilIfEmpty
            ),
            ("Excavation", object.excavation),
        ]
        return pairs.compactMap { label, value in value.map { TextBody.Fact(label, $0) } }
    }

    static func links(_ object: MetObject) -> [TextBody.Fact] {
        var links: [(String, URL?)] = [("Page", object.objectURL), ("Image", object.primaryImage)]
        links += object.additionalImages.enumerated().map { ("Image \($0.offset + 2)", $0.element) }
        links += [("Object Wikidata", object.objectWikidataURL), ("Artist Wikidata", object.artistWikidataURL)]
        for maker in object.constituents {
            links.append(("\(maker.name ?? "maker") ULAN", maker.ulanURL))
        }
        return links.compactMap { label, url in url.map { TextBody.Fact(label, $0.absoluteString) } }
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
