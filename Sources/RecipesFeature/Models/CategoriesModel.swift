import FeatureState
import MealDB
import Observation

/// Every meal category, with picture and description.
@MainActor @Observable
public final class CategoriesModel: LoadingModel {
    /// Holds the state.
    public let loader: Loader<[MealCategory]>

    /// Loads from TheMealDB (or a client on a stub transport, for tests).
    public init(client: MealDBClient) {
        self.loader = Loader { try await client.categories() }
    }

    /// Fixed in a state, for previews: nothing is fetched.
    public init(state: LoadState<[MealCategory]>) {
        self.loader = Loader(state: state)
    }
}
