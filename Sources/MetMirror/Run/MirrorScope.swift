import MetMuseum

/// Which objects a mirror holds: the whole collection, one department, or the matches of a search.
///
/// A mirror keeps the scope it was made with; ``CollectionMirror/run(_:progress:)`` refuses another one for the same
/// folder (``MirrorError/scopeMismatch(stored:requested:)``) rather than mixing two collections.
public enum MirrorScope: Sendable, Hashable, CustomStringConvertible {
    /// Every object the Met lists.
    case all
    /// The objects of one department (see ``/MetMuseum/MetClient/departments()``).
    case department(Int)
    /// The objects a search of the Met finds (its plain text search, every field).
    case search(String)

    /// How the scope reads in the database and in messages.
    public var description: String {
        switch self {
        case .all: return "all"
        case .department(let id): return "department:\(id)"
        case .search(let text): return "search:\(text)"
        }
    }

    var stored: String { description }

    init?(stored: String) {
        if stored == "all" {
            self = .all
        } else if stored.hasPrefix("department:"), let id = Int(stored.dropFirst("department:".count)) {
            self = .department(id)
        } else if stored.hasPrefix("search:") {
            self = .search(String(stored.dropFirst("search:".count)))
        } else {
            return nil
        }
    }
}
