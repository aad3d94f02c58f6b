import Foundation
import MealDB
import MetMuseum
import MuseumFeature
import RecipesFeature

/// RecipesFeature's article "Building an app on the feature modules", the view model's block: `MealDBClient()` is
/// the replica's client here.
@MainActor func articleMealSearch(replica: URL) async throws {
    func MealDBClient() -> MealDB.MealDBClient { MealDB.MealDBClient(baseURL: replica) }

    let search = MealSearchModel(client: MealDBClient())
    search.query = "mac & cheese"      // debounced; a newer query cancels the one in flight, whose answer never lands
    await search.settle()              // in tests and tools: wait for the search to finish
    switch search.state {
    case .idle, .loading: break
    case .loaded(let meals): print(meals.map(\.name))
    case .failed(let message): print(message)   // "You seem to be offline. Check your connection and try again."
    }
}

/// MuseumFeature's landing page: `MetClient()` is the replica's client here.
@MainActor func articleMuseumSearch(replica: URL) async throws {
    func MetClient() -> MetMuseum.MetClient { MetMuseum.MetClient(baseURL: replica) }

    let store = MuseumSearchStore(client: MetClient(), limit: 20)
    await store.search(SearchQuery("sunflowers"))
    print("\(store.objects.count) of \(store.matches), \(store.skippedCount) skipped")
}
