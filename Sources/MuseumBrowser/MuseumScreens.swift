import Errand
import Foundation
import MetMuseum
import MuseumFeature
import TerminalUI

/// The pages of `met browse` as pure functions of the museum app's states.
public enum MuseumScreens {
    /// A picture lookup: where the picture of a URL stands.
    public typealias Pictures = (URL?) -> PictureSlot

    /// The departments to filter by, "All departments" first, the chosen one marked.
    public static func departments(state: LoadState<[Department]>, chosen: Int?, selection: Int) -> Frame.Body {
        switch state {
        case .idle, .loading: return .status(.loading("Loading the departments…"))
        case .failed(let message): return .status(.failed(message))
        case .loaded(let departments):
            let all = ListBody.Row(title: (chosen == nil ? "✓ " : "  ") + "All departments", subtitle: "no filter")
            let rows = departments.map { department in
                ListBody.Row(
                    title: (chosen == department.id ? "✓ " : "  ") + department.displayName,
                    subtitle: "department \(department.id)")
            }
            return .list(ListBody(rows: [all] + rows, selection: selection, showsPictures: false))
        }
    }

    /// The search store's state: the objects that arrived, in search order, with a status while it fetches.
    public static func results(
        phase: MuseumSearchStore.State, objects: [MetObject], query: String, selection: Int, showsPictures: Bool,
        pictures: Pictures
    ) -> Frame.Body {
        let rows = objects.map { object in
            ListBody.Row(
                title: object.displayTitle, subtitle: object.summaryLine,
                picture: showsPictures ? (object.thumbnail == nil ? .unavailable : pictures(object.thumbnail)) : nil)
        }
        let status: Frame.Status? =
            switch MuseumSearchStore.status(of: phase, objectCount: objects.count, query: query) {
            // The terminal's own invitation names its keys.
            case .hint?: .hint("Press / and type what to look for, then Enter.")
            case let status?: Frame.Status(status)
            case nil: nil
            }
        if rows.isEmpty, let status { return .status(status) }
        return .list(ListBody(rows: rows, selection: selection, showsPictures: showsPictures, status: status))
    }

    /// One object: its picture (the small primary image) or, when it has none, its page's address; then the fields.
    public static func object(_ object: MetObject, scroll: Int, pictures: Pictures) -> Frame.Body {
        let picture = object.detailPicture
        var sections: [TextBody.Section] = []
        if !object.constituents.isEmpty {
            sections.append(
                .init("Made by", .table(object.constituents.map { [$0.role ?? "", $0.name ?? "unnamed"] })))
        }
        let links = ObjectFacts.links(object)
        if !links.isEmpty { sections.append(.init("Links", .links(links))) }
        return .text(
            TextBody(
                title: object.displayTitle, subtitle: "object \(object.objectID)",
                picture: picture.map { pictures($0) }, pictureNote: object.pageNote, facts: ObjectFacts.facts(object),
                sections: sections, scroll: scroll))
    }
}
