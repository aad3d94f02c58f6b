import CommandLine
import Foundation
import MetMuseum

/// The text `met show` prints for one object: every field the Met filled in, under a label, and nothing for the
/// fields it left empty.
struct ObjectSheet {
    let object: MetObject
    let style: Style
    let width: Int

    /// The sheet: heading, facts, place, makers, links, then the ID.
    func text() -> String {
        let sections = [heading(), columns(facts()), columns(place()), makers(), links()].compactMap { $0 }
        return (sections + [style.dim("object \(object.id)")]).joined(separator: "\n\n")
    }

    private func heading() -> String {
        var lines = [style.bold(object.title ?? "Untitled")]
        let name = [object.artistPrefix, object.artistDisplayName, object.artistSuffix].compactMap { $0 }
        if !name.isEmpty {
            lines.append(name.joined(separator: " ") + (object.artistDisplayBio.map { style.dim(" (\($0))") } ?? ""))
        }
        return lines.joined(separator: "\n")
    }

    private func facts() -> [(String, String?)] {
        let artistYears = [object.artistBeginDate, object.artistEndDate].compactMap { $0 }
        let years = object.dateRange
        let hasYears = object.objectDate != nil || years != 0...0
        return [
            ("Artist role", object.artistRole), ("Sorted as", object.artistAlphaSort),
            ("Nationality", object.artistNationality),
            ("Artist's years", artistYears.isEmpty ? nil : artistYears.joined(separator: "–")),
            ("Artist's gender", object.artistGender),
            ("Date", object.objectDate),
            ("Years", hasYears ? "\(years.lowerBound)–\(years.upperBound)" : nil),
            ("Object", object.objectName), ("Classification", object.classification), ("Medium", object.medium),
            ("Dimensions", object.dimensions), ("Measured", measurements()), ("Culture", object.culture),
            ("Period", object.period), ("Dynasty", object.dynasty), ("Reign", object.reign),
            ("Portfolio", object.portfolio), ("Department", object.department),
            ("Gallery", object.galleryNumber.map { "Gallery \($0)" }), ("Accession", object.accessionNumber),
            ("Acquired", object.accessionYear), ("Credit", object.creditLine),
            ("Rights", object.rightsAndReproduction), ("Repository", object.repository),
            ("Tags", object.tags.isEmpty ? nil : object.tags.map(\.term).joined(separator: ", ")),
            ("Highlight", object.isHighlight ? "yes" : nil), ("Timeline work", object.isTimelineWork ? "yes" : nil),
            ("Public domain", object.isPublicDomain ? "yes" : "no"),
            ("Record updated", object.metadataDate.map { ISO8601DateFormatter().string(from: $0) }),
        ]
    }

    private func place() -> [(String, String?)] {
        [
            ("Geography", object.geographyType), ("City", object.city), ("State", object.state),
            ("County", object.county), ("Country", object.country), ("Region", object.region),
            ("Subregion", object.subregion), ("Locale", object.locale), ("Locus", object.locus),
            ("Excavation", object.excavation), ("River", object.river),
        ]
    }

    /// Each measured element on a line, as `Overall: Height 65.1, Width 54`.
    private func measurements() -> String? {
        let lines = object.measurements.map { element in
            let values = element.elementMeasurements.sorted { $0.key < $1.key }
                .map { "\($0.key) \($0.value.formatted(.number.grouping(.never)))" }.joined(separator: ", ")
            let name = [element.elementName, element.elementDescription].compactMap { $0 }.joined(separator: ", ")
            return name.isEmpty ? values : "\(name): \(values)"
        }
        return lines.isEmpty ? nil : lines.joined(separator: "; ")
    }

    /// Everyone who took part, as `Artist  Maren Holt (Female)`.
    private func makers() -> String? {
        let rows = object.constituents.map { maker in
            [maker.role ?? "", (maker.name ?? "unnamed") + (maker.gender.map { " (\($0))" } ?? "")]
        }
        return rows.isEmpty ? nil : style.bold("Made by") + "\n" + TextLayout.columns(rows, width: width, indent: 2)
    }

    private func links() -> String? {
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
        let rows = links.compactMap { label, url in url.map { [label, $0.absoluteString] } }
        // Links are never wrapped, so that they stay clickable.
        return rows.isEmpty ? nil : TextLayout.columns(rows, width: 10_000)
    }

    private func columns(_ facts: [(String, String?)]) -> String? {
        let rows = facts.compactMap { label, value in value.map { [label, $0] } }
        return rows.isEmpty ? nil : TextLayout.columns(rows, width: width)
    }
}
