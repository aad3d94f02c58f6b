import FeatureState
import MealDB
import Observation

/// Full meals of one listing: the meals of a first letter, the newest meals, a random selection.
@MainActor @Observable
public final class MealListModel: LoadingModel {
    /// Which meals a ``MealListModel`` lists.
    public enum Listing: Sendable, Hashable {
        /// Meals whose name starts with one letter.
        case firstLetter(String)
        /// The meals added most recently, newest first (premium).
        case latest
        /// Ten meals picked at random (premium).
        case randomSelection
    }

    /// The listing shown.
    public let listing: Listing
    /// Holds the state.
    public let loader: Loader<[Meal]>

    /// Loads from TheMealDB (or a client on a stub transport, for tests).
    public init(_ listing: Listing, client: MealDBClient) {
        self.listing = listing
        self.loader = Loader {
            switch listing {
            case .firstLetter(let letter): return try await client.meals(startingWith: letter)
            case .latest: return try await client.latestMeals()
            case .randomSelection: return try await client.randomSelection()
            }
        }
    }

    /// Fixed in a state, for previews: nothing is fetched.
    public init(_ listing: Listing, state: LoadState<[Meal]>) {
        self.listing = listing
        self.loader = Loader(state: state)
    }
}
