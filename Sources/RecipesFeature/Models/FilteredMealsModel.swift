import FeatureState
import MealDB
import Observation

/// The meals of a category, of an area, or with ingredients, as summaries (id, name, picture).
@MainActor @Observable
public final class FilteredMealsModel: LoadingModel {
    /// What the meals have in common.
    public enum Filter: Sendable, Hashable {
        /// Meals of this category, as `Seafood`.
        case category(String)
        /// Meals of this area, as `Italian`.
        case area(String)
        /// Meals with this ingredient, as `chicken_breast`.
        case ingredient(String)
        /// Meals with every one of these ingredients (premium).
        case ingredients([String])
    }

    /// The filter shown.
    public let filter: Filter
    /// Holds the state.
    public let loader: Loader<[MealSummary]>

    /// Loads from TheMealDB (or a client on a stub transport, for tests).
    public init(_ filter: Filter, client: MealDBClient) {
        self.filter = filter
        self.loader = Loader {
            switch filter {
            case .category(let category): return try await client.meals(inCategory: category)
            case .area(let area): return try await client.meals(inArea: area)
            case .ingredient(let ingredient): return try await client.meals(withIngredient: ingredient)
            case .ingredients(let ingredients): return try await client.meals(withIngredients: ingredients)
            }
        }
    }

    /// Fixed in a state, for previews: nothing is fetched.
    public init(_ filter: Filter, state: LoadState<[MealSummary]>) {
        self.filter = filter
        self.loader = Loader(state: state)
    }
}
