import MetMuseum

/// A page of `met browse`.
public enum MuseumPage: Hashable, Sendable {
    /// The departments, to filter the search by.
    case departments
    /// The objects of the search.
    case results
    /// One object.
    case object(MetObject)
}
