import Foundation
import MealDB
import MetMuseum

/// README, "The SDKs", TheMealDB's block: `MealDBClient()` is the replica's client here.
@Sendable func readmeMealDB(replica: URL) async throws {
    func MealDBClient() -> MealDB.MealDBClient { MealDB.MealDBClient(baseURL: replica) }

    let mealDB = MealDBClient()
    for meal in try await mealDB.search(name: "pasta") { print(meal.name) }
    if let meal = try await mealDB.meal(id: "52771") {
        for item in meal.ingredients { print(item.measure ?? "", item.name) }    // slots 1–20, cleaned, in order
    }
    print("Today:", try await mealDB.randomMeal().name)
    print(try await mealDB.categories().map(\.name))
}

/// README, "The SDKs", The Met's block: `MetClient()` is the replica's client here.
@Sendable func readmeMet(replica: URL) async throws {
    func MetClient() -> MetMuseum.MetClient { MetMuseum.MetClient(baseURL: replica) }

    let met = MetClient()     // at most 80 requests per second, 8 in flight, retries on 503
    let found = try await met.searchObjects(SearchQuery("sunflowers"), limit: 10).result()
    for object in found.objects {
        print(object.title ?? "Untitled", "—", object.artistDisplayName ?? "unknown", object.thumbnail?.absoluteString ?? "")
    }
}
