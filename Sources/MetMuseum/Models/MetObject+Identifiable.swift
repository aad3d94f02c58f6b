import Foundation

extension MetObject {
    /// An object is identified by its ``objectID``.
    public typealias ID = Int

    /// The object's ID, kept so that `MetObject` stays `Identifiable` (SwiftUI's `ForEach`, `List`).
    ///
    /// Write ``objectID``: it is the Met's own name for the field.
    @available(*, deprecated, renamed: "objectID")
    public var id: Int {
        get { objectID }
        set { objectID = newValue }
    }

    /// Creates an object with an ID and whatever else is given.
    @available(
        *, deprecated, renamed: "init(objectID:title:artistDisplayName:isPublicDomain:primaryImage:primaryImageSmall:)"
    )
    public init(
        id: Int, title: String? = nil, artistDisplayName: String? = nil, isPublicDomain: Bool = false,
        primaryImage: URL? = nil, primaryImageSmall: URL? = nil
    ) {
        self.init(
            objectID: id, title: title, artistDisplayName: artistDisplayName, isPublicDomain: isPublicDomain,
            primaryImage: primaryImage, primaryImageSmall: primaryImageSmall)
    }
}
