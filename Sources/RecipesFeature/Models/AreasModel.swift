import FeatureState
import MealDB
import Observation

/// Every area (cuisine) TheMealDB knows.
@MainActor @Observable
public final class AreasModel: LoadingModel {
    /// Holds the state.
    public let loader: Loader<[Area]>

    /// Loads from TheMealDB (or a client on a stub transport, for tests).
    public init(client: MealDBClient) {
        self.loader = Loader { try await client.areas() }
    }

    /// Fixed in a state, for previews: nothing is fetched.
    public init(state: LoadState<[Area]>) {
        self.loader = Loader(state: state)
    }
}
