import CommandLine
import Foundation
import MetMuseum
import MuseumFeature

/// The text `met show` prints for one object: every field the Met filled in, under a label, and nothing for the
/// fields it left empty.
struct ObjectSheet {
    let object: MetObject
    let style: Style
    let width: Int

    /// The sheet: heading, facts, place, makers, links, then the ID.
    func text() -> String {
        let sections = [heading(), columns(facts()), columns(place()), makers(), links()].compactMap { $0 }
        return (sections + [style.dim("object \(object.objectID)")]).joined(separator: "\n\n")
    }

    private var fields: ObjectFields { ObjectFields(object) }

    private func heading() -> String {
        var lines = [style.bold(object.title ?? ToolText.sentence("met.untitled"))]
        if let artist = fields.artist {
            lines.append(artist + (object.artistDisplayBio.map { style.dim(" (\($0))") } ?? ""))
        }
        return lines.joined(separator: "\n")
    }

    private func facts() -> [ObjectFields.Field] { fields.facts }

    private func place() -> [ObjectFields.Field] { fields.place }

    /// Everyone who took part, as `Artist  Maren Holt (Female)`.
    private func makers() -> String? {
        let rows = fields.makers.map { [$0.label, $0.value] }
        return rows.isEmpty ? nil : style.bold("Made by") + "\n" + TextLayout.columns(rows, width: width, indent: 2)
    }

    private func links() -> String? {
        let rows = fields.links.map { [$0.label, $0.value] }
        // Links are never wrapped, so that they stay clickable.
        return rows.isEmpty ? nil : TextLayout.columns(rows, width: 10_000)
    }

    private func columns(_ facts: [ObjectFields.Field]) -> String? {
        let rows = facts.map { [$0.label, $0.value] }
        return rows.isEmpty ? nil : TextLayout.columns(rows, width: width)
    }
}
