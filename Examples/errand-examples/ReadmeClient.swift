import Errand
import Foundation

/// README, "The client": `APIClient(baseURL:)` is a client of the replica's copy of TheMealDB here, and `log` the
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

/// README, "Resilience": the middleware chain in one expression, on the replica, with one request through it.
@Sendable func readmeResilience(replica: URL) async throws {
    let base = replica

    let configuration = ClientConfiguration(
        baseURL: base,
        middleware: [HTTPCache.standard(named: "myapp")] + Resilience.middleware(
            retry: .default,                                // 3 attempts, full-jitter backoff 0.5 s … 10 s, 60 s deadline
            rateLimiter: RateLimiter(rate: 80, burst: 10),  // token bucket, FIFO-fair, slows down after a 429
            maxConcurrent: 8,                               // at most 8 in flight, FIFO
            coalesces: true))                               // identical GETs in flight share one transfer

    let departments = try await Errand.APIClient(configuration: configuration)
        .send(Request<Data>(path: "public/collection/v1/departments"))
    print("departments: \(departments.value.count) bytes, cache \(departments.cacheStatus)")
}
