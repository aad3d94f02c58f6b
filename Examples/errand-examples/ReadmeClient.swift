import Errand
import Foundation

/// README, "The first request": `APIClient(baseURL:)` is a client of the replica's copy of TheMealDB here, and `log` the
/// standard error.
@Sendable func readmeClient(replica: URL) async throws {
    func APIClient(baseURL: URL) -> Errand.APIClient {
        Errand.APIClient(baseURL: replica.appendingPathComponent(baseURL.path))
    }
    func log(_ text: String) { FileHandle.standardError.write(Data((text + "\n").utf8)) }

    struct MealList: Decodable, Sendable {
        struct Meal: Decodable, Sendable { var idMeal: String; var strMeal: String }
        var meals: [Meal]?   // TheMealDB says {"meals": null} when nothing matches
    }

    let client = APIClient(baseURL: URL(string: "https://www.themealdb.com/api/json/v1/1")!)

    do {
        let search = Request<MealList>(path: "search.php", query: [QueryItem("s", "mac & cheese")])
        let meals = try await client.send(search).value.meals ?? []
        for meal in meals { print(meal.idMeal, meal.strMeal) }
    } catch {
        print(error.userMessage)          // "Could not connect to the server."
        log(error.debugDescription)       // kind, URL, status, headers, body excerpt, underlying error
    }
}
