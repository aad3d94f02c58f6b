import FeatureState
import MetMuseum
import Observation

/// One object of the collection in full.
@MainActor @Observable
public final class ObjectDetailModel: LoadingModel {
    /// The object's ID.
    public let objectID: Int
    /// Holds the state.
    public let loader: Loader<MetObject>

    /// Loads from The Met (or a client on a stub transport, for tests).
    public init(objectID: Int, client: MetClient) {
        self.objectID = objectID
        self.loader = Loader { try await client.object(id: objectID) }
    }

    /// Fixed in a state, for previews: nothing is fetched.
    public init(objectID: Int, state: LoadState<MetObject>) {
        self.objectID = objectID
        self.loader = Loader(state: state)
    }
}
