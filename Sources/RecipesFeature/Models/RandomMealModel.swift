import FeatureState
import MealDB
import Observation

/// A meal picked at random; ``/FeatureState/LoadingModel/load()`` (or ``/FeatureState/LoadingModel/refresh()``)
/// picks another.
@MainActor @Observable
public final class RandomMealModel: LoadingModel {
    /// Holds the state.
    public let loader: Loader<Meal>

    /// Loads from TheMealDB (or a client on a stub transport, for tests).
    public init(client: MealDBClient) {
        self.loader = Loader { try await client.randomMeal() }
    }

    /// Fixed in a state, for previews: nothing is fetched.
    public init(state: LoadState<Meal>) {
        self.loader = Loader(state: state)
    }
}
