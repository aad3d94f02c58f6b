import FeatureState
import MealDB
import Observation

/// Every ingredient TheMealDB knows.
@MainActor @Observable
public final class IngredientsModel: LoadingModel {
    /// Holds the state.
    public let loader: Loader<[Ingredient]>

    /// Loads from TheMealDB (or a client on a stub transport, for tests).
    public init(client: MealDBClient) {
        self.loader = Loader { try await client.ingredients() }
    }

    /// Fixed in a state, for previews: nothing is fetched.
    public init(state: LoadState<[Ingredient]>) {
        self.loader = Loader(state: state)
    }
}
