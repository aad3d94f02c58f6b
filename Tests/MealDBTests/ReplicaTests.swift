import Errand
import Foundation
import MealDB
import TestSupport
import Testing

/// The SDK against the project's replica of TheMealDB, over real HTTP, for every endpoint.
@Suite("MealDB against the replica", .enabled(if: TestServer.replica.isUsable))
struct ReplicaTests {
    let mealDB: MealDBClient
    let replica: URL

    init() throws {
        replica = try TestServer.replica.url()
        mealDB = MealDBClient(baseURL: replica)
    }

    @Test func searchByName() async throws {
        let meals = try await mealDB.search(name: "pasta")
        #expect(meals.count >= 2)
        #expect(meals.allSatisfy { $0.name.localizedCaseInsensitiveContains("pasta") })
        let meal = try #require(meals.first)
        #expect(!meal.ingredients.isEmpty && meal.instructions?.contains("\r") == false)
        #expect(meal.thumbnail?.host == replica.host)
    }

    @Test(
        "search terms arrive percent-encoded and match",
        arguments: [
            ("mac & cheese", "mac%20%26%20cheese", "Mac & Cheese Bake"),
            ("salt + pepper", "salt%20%2B%20pepper", "Salt + Pepper Squid"),
            ("Crème Brûlée", "Cr%C3%A8me%20Br%C3%BBl%C3%A9e", "Crème Brûlée Tart"),
        ])
    func searchTermsWithReservedAndNonASCIICharacters(term: String, sent: String, found: String) async throws {
        let meals = try await mealDB.search(name: term)
        #expect(meals.map(\.name) == [found])
        let received = try await receivedQueries(path: "/api/json/v1/1/search.php")
        #expect(received.contains("s=\(sent)"))
    }

    @Test("the ids and searches the documentation and the tools' help use are on the replica")
    func documentationSamples() async throws {
        let penne = try #require(try await mealDB.meal(id: "52771"))
        #expect(penne.name == "Spicy Arrabiata Penne" && penne.ingredients.count == 7)
        #expect(try await mealDB.meal(id: "52772")?.name == "Teriyaki Chicken Casserole")
        for term in ["pasta", "chicken curry", "mac & cheese", "cake"] {
            #expect(try await !mealDB.search(name: term).isEmpty, "mealdb search \(term)")
        }
        #expect(try await !mealDB.meals(startingWith: "b").isEmpty)
        #expect(try await !mealDB.meals(inCategory: "Seafood").isEmpty)
        #expect(try await mealDB.meals(inArea: "Italian").contains { $0.id == "52771" })
    }

    @Test func searchWithoutMatchIsEmpty() async throws {
        #expect(try await mealDB.search(name: "no such dish anywhere").isEmpty)
    }

    @Test func searchByFirstLetter() async throws {
        let meals = try await mealDB.meals(startingWith: "p")
        #expect(!meals.isEmpty)
        #expect(meals.allSatisfy { $0.name.lowercased().hasPrefix("p") })
        #expect(try await mealDB.meals(startingWith: "z").isEmpty)
    }

    @Test func lookupWithTheReplicasQuirks() async throws {
        let meal = try #require(try await mealDB.meal(id: "90012"))
        #expect(meal.name == "Tandoori Cauliflower")
        #expect(meal.tags == ["Vegetarian", "Roast"])
        #expect(meal.source == nil && meal.youtube == nil)
        #expect(
            meal.ingredients.map(\.name) == [
                "Cauliflower", "Greek Yogurt", "Garam Masala", "Turmeric", "Chilli Powder", "Lemon", "Salt",
            ])
        #expect(meal.ingredients.last?.measure == nil)

        let stew = try #require(try await mealDB.meal(id: "90009"))
        #expect(stew.alternateName == "Katsu Kare")
        let tacos = try #require(try await mealDB.meal(id: "90011"))
        #expect(tacos.alternateName == "Agua Fresca")
        let shakshuka = try #require(try await mealDB.meal(id: "90007"))
        #expect(shakshuka.tags == ["Breakfast", "Brunch"])
        #expect(shakshuka.ingredients.first { $0.name == "Chopped Tomatoes" }?.measure == "2 tins")
    }

    @Test func unknownIdIsNil() async throws {
        #expect(try await mealDB.meal(id: "1") == nil)
        #expect(try await mealDB.meal(id: "not-a-number") == nil)
    }

    @Test func randomIsOneMeal() async throws {
        let meal = try await mealDB.randomMeal()
        #expect(meal.id.hasPrefix("900"))
        #expect(!meal.ingredients.isEmpty)
    }

    @Test func categoriesWithDescriptions() async throws {
        let categories = try await mealDB.categories()
        #expect(categories.count >= 10)
        let beef = try #require(categories.first { $0.name == "Beef" })
        #expect(beef.description?.contains("\r") == false)
        #expect(beef.thumbnail?.host == replica.host)
        #expect(try await mealDB.categoryNames() == categories.map(\.name))
    }

    @Test func areasAndIngredients() async throws {
        let areas = try await mealDB.areas()
        #expect(areas.contains("Italian") && areas.contains("Japanese"))
        let ingredients = try await mealDB.ingredients()
        #expect(ingredients.count > 50)
        #expect(ingredients.contains { $0.name == "Garlic" && $0.type == "Vegetable" && $0.description != nil })
        #expect(ingredients.allSatisfy { $0.type != "" && $0.description != "" })
    }

    @Test func filters() async throws {
        let seafood = try await mealDB.meals(inCategory: "Seafood")
        #expect(Set(seafood.map(\.name)) == ["Salt + Pepper Squid", "Fish Pie"])
        #expect(seafood.allSatisfy { $0.thumbnail != nil })
        let japanese = try await mealDB.meals(inArea: "Japanese")
        #expect(Set(japanese.map(\.id)) == ["90009", "90019", "52772"])
        let withChicken = try await mealDB.meals(withIngredient: "chicken_breast")
        #expect(withChicken.map(\.name) == ["Chicken Katsu Curry", "Coconut Chicken Curry"])
        #expect(try await mealDB.meals(inCategory: "Goat").isEmpty)
        #expect(try await mealDB.meals(inArea: "Atlantis").isEmpty)
        #expect(try await mealDB.meals(withIngredient: "unobtainium").isEmpty)
    }

    @Test func aSupportersKeyUsesVersionTwoAndStaysOutOfReports() async throws {
        let recorder = ExchangeRecorder()
        let key = "replica-key-\(UInt32.random(in: 0...UInt32.max))"
        let supporter = MealDBClient(
            apiKey: key, baseURL: replica, configuration: ClientConfiguration(baseURL: replica, observers: [recorder]))
        #expect(try await supporter.meal(id: "90001")?.name == "Lemon Garlic Pasta")
        let log = try await requestLog()
        #expect(log.contains { $0.path == "/api/json/v2/\(key)/lookup.php" })
        #expect(recorder.events.map(\.url) == ["\(replica.absoluteString)/api/json/v2/***/lookup.php?i=90001"])
    }

    @Test func anHTMLPageIsAnInvalidResponse() async throws {
        let error = try await #require(throws: ErrandError.self) { try await mealDB.search(name: "__html__") }
        guard case .decoding(let failure) = error else { Issue.record("expected .decoding, got \(error)"); return }
        #expect(failure.isHTML)
        #expect(error.userMessage == "The server sent a web page instead of the expected data.")
    }

    @Test("bodies that are not JSON are invalid responses", arguments: ["__text__", "__truncated__"])
    func nonJSONIsAnInvalidResponse(trigger: String) async throws {
        let error = try await #require(throws: ErrandError.self) { try await mealDB.meals(inCategory: trigger) }
        guard case .decoding(let failure) = error else { Issue.record("expected .decoding, got \(error)"); return }
        #expect(!failure.isHTML)
    }

    @Test func aServerErrorIsTheStatusError() async throws {
        let error = try await #require(throws: ErrandError.self) { try await mealDB.meal(id: "__500__") }
        guard case .unacceptableStatus(let failure) = error else {
            Issue.record("expected .unacceptableStatus, got \(error)")
            return
        }
        #expect(failure.status == 500)
        #expect(failure.bodyExcerpt.contains("Internal Server Error"))
    }

    @Test("the 503 trigger answers Service Unavailable with Retry-After")
    func unavailableSaysWhenToRetry() async throws {
        // A client without retries, whatever the SDK's defaults: the one answer is the replica's.
        let client = APIClient(baseURL: replica)
        let search = Request<Data>(path: "api/json/v1/1/search.php", query: [QueryItem("s", "__503__")])
        let error = try await #require(throws: ErrandError.self) { try await client.send(search) }
        guard case .unacceptableStatus(let failure) = error else {
            Issue.record("expected .unacceptableStatus, got \(error)")
            return
        }
        #expect(failure.status == 503 && failure.headers["Retry-After"] == "1")
    }

    @Test func imagesAreRealPNGsInEverySize() async throws {
        let meal = try #require(try await mealDB.meal(id: "90001"))
        let pngSignature = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var sizes: [Int] = []
        for url in [meal.thumbnail] + MealImageSize.allCases.map(meal.thumbnail(size:)) {
            let data = try await mealDB.imageData(at: try #require(url))
            #expect(data.prefix(8) == pngSignature)
            sizes.append(data.count)
        }
        #expect(Set(sizes).count > 1)
        for size in IngredientImageSize.allCases {
            let url = try #require(mealDB.ingredientImageURL("Self-raising Flour", size: size))
            #expect(try await mealDB.imageData(at: url).prefix(8) == pngSignature)
        }
        let missing = try #require(mealDB.ingredientImageURL("Unobtainium"))
        let error = try await #require(throws: ErrandError.self) { try await mealDB.imageData(at: missing) }
        #expect(error.status == 404)
    }

    // MARK: The replica's request log

    struct LoggedRequest: Decodable, Sendable {
        let path: String
        let query: String
    }

    private func requestLog() async throws -> [LoggedRequest] {
        try await APIClient(baseURL: replica).send(Request<[LoggedRequest]>(path: "__requests")).value
    }

    /// The raw, still-encoded query strings the replica received on a path.
    private func receivedQueries(path: String) async throws -> [String] {
        try await requestLog().filter { $0.path == path }.map(\.query)
    }
}
