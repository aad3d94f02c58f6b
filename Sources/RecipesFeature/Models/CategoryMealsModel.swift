import FeatureState
import MealDB
import Observation

/// The meals of one category, as summaries (id, name, picture).
@MainActor @Observable
public final class CategoryMealsModel: LoadingModel {
    /// The category, as `Seafood`.
    public let category: String
    /// Holds the state.
    public let loader: Loader<[MealSummary]>

    /// Loads from TheMealDB (or a client on a stub transport, for tests).
    public init(category: String, client: MealDBClient) {
        self.category = category
        self.loader = Loader { try await client.meals(inCategory: category) }
    }

    /// Fixed in a state, for previews: nothing is fetched.
    public init(category: String, state: LoadState<[MealSummary]>) {
        self.category = category
        self.loader = Loader(state: state)
    }
}
