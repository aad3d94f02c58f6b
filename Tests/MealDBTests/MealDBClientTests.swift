import Errand
import ErrandTesting
import Foundation
import MealDB
import Testing

/// What the client sends: API paths per key, query parameters, validation, redaction, image URLs.
@Suite("MealDB client")
struct MealDBClientTests {
    @Test func theTestKeyUsesVersionOne() async throws {
        let mealDB = StubbedMealDB()
        mealDB.respond(to: "search.php", json: #"{"meals":null}"#)
        _ = try await mealDB.client.search(name: "pasta")
        #expect(
            mealDB.stub.requests.map(\.url.absoluteString)
                == ["https://www.themealdb.com/api/json/v1/1/search.php?s=pasta"])
        #expect(mealDB.recorder.events.first?.url == "https://www.themealdb.com/api/json/v1/1/search.php?s=pasta")
    }

    @Test func anotherKeyUsesVersionTwoAndIsRedacted() async throws {
        let mealDB = StubbedMealDB(apiKey: "s3cr3tK3y")
        mealDB.stub.respond(
            to: "random.php", status: 500, headers: ["Content-Type": "text/plain"], body: Data("down".utf8))
        let error = try await #require(throws: ErrandError.self) { try await mealDB.client.randomMeal() }
        #expect(mealDB.stub.requests.map(\.url.path) == ["/api/json/v2/s3cr3tK3y/random.php"])
        let reported = try #require(mealDB.recorder.events.first?.url)
        #expect(reported == "https://www.themealdb.com/api/json/v2/***/random.php")
        #expect(error.status == 500)
        #expect(String(reflecting: error).contains("/api/json/v2/***/random.php"))
        #expect(!String(reflecting: error).contains("s3cr3tK3y"))
    }

    @Test(
        "a first letter must be exactly one letter, checked before any request", arguments: ["", "ab", "1", "-", " "])
    func invalidFirstLetter(letter: String) async throws {
        let mealDB = StubbedMealDB()
        let error = try await #require(throws: ErrandError.self) { try await mealDB.client.meals(startingWith: letter) }
        guard case .invalidRequest = error else { Issue.record("expected .invalidRequest, got \(error)"); return }
        #expect(mealDB.stub.requests.isEmpty)
    }

    @Test func anEmptyKeyIsRefusedBeforeAnyRequest() async throws {
        let mealDB = StubbedMealDB(apiKey: " ")
        await #expect(throws: ErrandError.self) { try await mealDB.client.categories() }
        #expect(mealDB.stub.requests.isEmpty)
    }

    @Test func endpointsAndQueries() async throws {
        let mealDB = StubbedMealDB()
        for endpoint in ["search.php", "lookup.php", "filter.php", "list.php"] {
            mealDB.respond(to: endpoint, json: #"{"meals":null}"#)
        }
        mealDB.respond(to: "categories.php", json: #"{"categories":[]}"#)
        let client = mealDB.client
        _ = try await client.search(name: "mac & cheese")
        _ = try await client.meals(startingWith: "é")
        _ = try await client.meal(id: "52771")
        _ = try await client.categories()
        _ = try await client.categoryNames()
        _ = try await client.meals(inCategory: "Seafood")
        _ = try await client.meals(inArea: "Canadian")
        _ = try await client.meals(withIngredient: "chicken_breast")
        #expect(
            mealDB.stub.requests.map { "\($0.url.lastPathComponent)?\($0.url.query ?? "")" } == [
                "search.php?s=mac%20%26%20cheese", "search.php?f=%C3%A9", "lookup.php?i=52771", "categories.php?",
                "list.php?c=list", "filter.php?c=Seafood", "filter.php?a=Canadian", "filter.php?i=chicken_breast",
            ])
    }

    @Test func serverStatusIsTheClientsStatusError() async throws {
        let mealDB = StubbedMealDB()
        mealDB.stub.respond(
            to: "lookup.php", status: 503, headers: ["Content-Type": "text/html"], body: Data("<html></html>".utf8))
        let error = try await #require(throws: ErrandError.self) { try await mealDB.client.meal(id: "1") }
        #expect(error.status == 503)
    }

    @Test func imageURLs() throws {
        let meal = Meal(
            id: "1", name: "Pie", thumbnail: URL(string: "https://www.themealdb.com/images/media/meals/abc.jpg"))
        #expect(
            MealImageSize.allCases.map { meal.thumbnail(size: $0)?.absoluteString } == [
                "https://www.themealdb.com/images/media/meals/abc.jpg/small",
                "https://www.themealdb.com/images/media/meals/abc.jpg/medium",
                "https://www.themealdb.com/images/media/meals/abc.jpg/large",
                "https://www.themealdb.com/images/media/meals/abc.jpg/preview",
            ])
        #expect(MealSummary(meal).thumbnail(size: .small) == meal.thumbnail(size: .small))
        #expect(Meal(id: "2", name: "No picture").thumbnail(size: .large) == nil)

        #expect(
            IngredientImageSize.allCases.map {
                MealDBClient.ingredientImageURL("Chicken Breast", size: $0)?.absoluteString
            } == [
                "https://www.themealdb.com/images/ingredients/Chicken%20Breast.png",
                "https://www.themealdb.com/images/ingredients/Chicken%20Breast-small.png",
                "https://www.themealdb.com/images/ingredients/Chicken%20Breast-medium.png",
                "https://www.themealdb.com/images/ingredients/Chicken%20Breast-large.png",
            ])
        #expect(MealDBClient.ingredientImageURL("  ") == nil)
        let local = MealDBClient(baseURL: URL(string: "http://127.0.0.1:8080/")!)
        #expect(
            local.ingredientImageURL("Lime", size: .small)?.absoluteString
                == "http://127.0.0.1:8080/images/ingredients/Lime-small.png")
    }
}

@Suite("MealDB: one APIClient, the key checked once")
struct MealDBClientSetupTests {
    let root = URL(string: "https://www.themealdb.com")!

    @Test("a client given an APIClient keeps it as it is")
    func keepsTheClient() {
        let given = APIClient(configuration: ClientConfiguration(baseURL: root, transport: StubTransport()))
        let mealDB = MealDBClient(apiKey: "supporter", client: given)
        #expect(mealDB.apiClient.configuration.maxResponseBodySize == ClientConfiguration.defaultMaxResponseBodySize)
        #expect(mealDB.apiClient.configuration.redaction.pathSegments.isEmpty)
    }

    @Test("a configuration is prepared once: the key redacted, the body limit fitted, the base URL kept")
    func preparesTheConfiguration() {
        let replica = URL(string: "http://127.0.0.1:8080")!
        let mealDB = MealDBClient(
            apiKey: "supporter", configuration: ClientConfiguration(baseURL: replica, transport: StubTransport()))
        #expect(mealDB.baseURL == replica)
        #expect(mealDB.apiClient.configuration.redaction.pathSegments == ["supporter"])
        #expect(mealDB.apiClient.configuration.maxResponseBodySize == MealDBClient.maxResponseBodySize)
        #expect(
            MealDBClient(apiKey: "1", configuration: ClientConfiguration(baseURL: root))
                .apiClient.configuration.redaction.pathSegments.isEmpty, "the public test key is not a secret")
    }

    @Test("a blank key fails every request before it is sent")
    func blankKey() async {
        let stub = StubTransport()
        let mealDB = MealDBClient(apiKey: "  ", configuration: ClientConfiguration(baseURL: root, transport: stub))
        for _ in 0..<2 {
            let error = await #expect(throws: ErrandError.self) { _ = try await mealDB.categories() }
            guard case .invalidRequest? = error else {
                Issue.record("expected an invalid request, got \(String(describing: error))")
                return
            }
        }
        #expect(stub.requests.isEmpty)
    }
}
