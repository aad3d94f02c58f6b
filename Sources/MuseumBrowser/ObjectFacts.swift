import Foundation
import MetMuseum
import MuseumFeature
import TerminalUI

/// The fields of an object that `met show` prints (``ObjectFields``), as the object screen's label and value pairs.
enum ObjectFacts {
    static func facts(_ object: MetObject) -> [TextBody.Fact] {
        let fields = ObjectFields(object)
        let artist = fields.artist.map { [ObjectFields.Field(label: "Artist", value: $0)] } ?? []
        let bio = object.artistDisplayBio.map { [ObjectFields.Field(label: "Artist's bio", value: $0)] } ?? []
        return (artist + bio + fields.facts + fields.place + fields.makers.map(\.asMaker)).map {
            TextBody.Fact($0.label, $0.value)
        }
    }

    static func links(_ object: MetObject) -> [TextBody.Fact] {
        ObjectFields(object).links.map { TextBody.Fact($0.label, $0.value) }
    }
}

extension ObjectFields.Field {
    /// A maker as one fact: `Made by (Artist)` → `Maren Holt (Female)`.
    fileprivate var asMaker: ObjectFields.Field {
        ObjectFields.Field(label: label.isEmpty ? "Made by" : "Made by (\(label))", value: value)
    }
}
