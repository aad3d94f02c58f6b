import FeatureState
import MealDB
import Observation

/// One meal in full: ingredients, instructions, links. An id the service does not know fails as not found.
@MainActor @Observable
public final class MealDetailModel: LoadingModel {
    /// The meal's id.
    public let mealID: String
    /// Holds the state.
    public let loader: Loader<Meal>

    /// Loads from TheMealDB (or a client on a stub transport, for tests).
    public init(mealID: String, client: MealDBClient) {
        self.mealID = mealID
        self.loader = Loader {
            guard let meal = try await client.meal(id: mealID) else { throw RecipeFailure.mealNotFound(id: mealID) }
            return meal
        }
    }

    /// Fixed in a state, for previews: nothing is fetched.
    public init(mealID: String, state: LoadState<Meal>) {
        self.mealID = mealID
        self.loader = Loader(state: state)
    }
}
