import FeatureState
import Foundation
import MetMuseum
import Observation

/// The IDs of objects: those matching a search, or every object (updated since a day, of some departments).
@MainActor @Observable
public final class ObjectIDsModel: LoadingModel {
    /// Which IDs an ``ObjectIDsModel`` lists.
    public enum Listing: Sendable, Hashable {
        /// The objects matching a search, in the search's order.
        case search(SearchQuery)
        /// Every object, or those whose record changed since a day (UTC) or held by some departments.
        case objects(updatedSince: Date?, departmentIDs: [Int])
    }

    /// The listing shown.
    public let listing: Listing
    /// Holds the state.
    public let loader: Loader<ObjectIDList>

    /// Loads from The Met (or a client on a stub transport, for tests).
    public init(_ listing: Listing, client: MetClient) {
        self.listing = listing
        self.loader = Loader {
            switch listing {
            case .search(let query): return try await client.search(query)
            case .objects(let since, let departments):
                return try await client.objectIDs(updatedSince: since, departmentIDs: departments)
            }
        }
    }

    /// Fixed in a state, for previews: nothing is fetched.
    public init(_ listing: Listing, state: LoadState<ObjectIDList>) {
        self.listing = listing
        self.loader = Loader(state: state)
    }
}
