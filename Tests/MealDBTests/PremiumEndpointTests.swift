import Errand
import Foundation
import MealDB
import TestSupport
import Testing

/// The premium endpoints against the replica: with a supporter's key they are sent under v2 and decoded; with the
/// test key they are refused before anything is sent.
@Suite("MealDB premium endpoints on the replica", .enabled(if: TestServer.replica.isUsable))
struct PremiumEndpointTests {
    let replica: URL
    let key = "premium-\(UInt32.random(in: 0...UInt32.max))"
    let supporter: MealDBClient

    init() throws {
        replica = try TestServer.replica.url()
        supporter = MealDBClient(apiKey: key, baseURL: replica)
    }

    @Test func latestMealsAreTheNewestInFullNewestFirst() async throws {
        #expect(supporter.hasPremiumKey)
        let meals = try await supporter.latestMeals()
        #expect(meals.map(\.id) == (90013...90022).reversed().map(String.init))
        #expect(meals.allSatisfy { !$0.ingredients.isEmpty && $0.instructions != nil })
        #expect(try await requests().map(\.path) == ["/api/json/v2/\(key)/latest.php"])
    }

    @Test func aRandomSelectionIsTenDifferentMealsInFull() async throws {
        let meals = try await supporter.randomSelection()
        #expect(meals.count == 10)
        #expect(Set(meals.map(\.id)).count == 10)
        #expect(meals.allSatisfy { !$0.ingredients.isEmpty })
        #expect(try await requests().map(\.path) == ["/api/json/v2/\(key)/randomselection.php"])
    }

    @Test func severalIngredientsFindTheMealsWithEveryOne() async throws {
        let meals = try await supporter.meals(withIngredients: ["Garlic", " olive oil ", "lemon"])
        #expect(!meals.isEmpty)
        for summary in meals {
            let meal = try #require(try await supporter.meal(id: summary.id))
            let names = Set(meal.ingredients.map { $0.name.lowercased() })
            #expect(names.isSuperset(of: ["garlic", "olive oil", "lemon"]), "\(meal.name) lacks one: \(names)")
        }
        let sent = try await requests().filter { $0.path.hasSuffix("/filter.php") }
        #expect(sent.map(\.path) == ["/api/json/v2/\(key)/filter.php"])
        // In the caller's order, spaces as `_`, commas between (percent-encoded, as every reserved character is).
        #expect(sent.first?.query == "i=Garlic%2Colive_oil%2Clemon")
        // Each ingredient alone finds more meals than all three together.
        let garlic = try await supporter.meals(withIngredient: "garlic")
        #expect(garlic.count > meals.count)
        #expect(try await supporter.meals(withIngredients: ["garlic", "unobtainium"]).isEmpty)
    }

    @Test("the help's example, chicken breast with garlic, finds a meal")
    func theHelpsIngredientExample() async throws {
        // mealdb filter --ingredient chicken_breast --ingredient garlic --api-key KEY
        let meals = try await supporter.meals(withIngredients: ["chicken_breast", "garlic"])
        #expect(meals.map(\.name) == ["Coconut Chicken Curry"])
    }

    @Test("with the test key, each premium call is refused before a request", arguments: PremiumCall.allCases)
    func theTestKeyIsRefused(call: PremiumCall) async throws {
        let recorder = ExchangeRecorder()
        let marker = "marker\(UInt32.random(in: 0...UInt32.max))"
        let free = MealDBClient(
            baseURL: replica, configuration: ClientConfiguration(baseURL: replica, observers: [recorder]))
        #expect(!free.hasPremiumKey)
        let error = try await #require(throws: ErrandError.self) { try await call.send(through: free, marker: marker) }
        guard case .invalidRequest(let reason) = error else {
            Issue.record("expected .invalidRequest, got \(error)")
            return
        }
        #expect(reason.contains("supporter's API key") && reason.contains("test key"))
        #expect(recorder.events.isEmpty, "a request was sent")
        let log = try await allRequests().filter { $0.path.hasPrefix("/api/json/v1/") }
        #expect(!log.contains { $0.path.hasSuffix("/latest.php") || $0.path.hasSuffix("/randomselection.php") })
        #expect(!log.contains { $0.query.contains(marker) })
    }

    /// A premium call, for tests that run each of them.
    enum PremiumCall: String, CaseIterable, Sendable {
        case latest, randomSelection, ingredients

        func send(through client: MealDBClient, marker: String) async throws(ErrandError) {
            switch self {
            case .latest: _ = try await client.latestMeals()
            case .randomSelection: _ = try await client.randomSelection()
            case .ingredients: _ = try await client.meals(withIngredients: ["garlic", marker])
            }
        }
    }

    // MARK: The replica's request log

    struct LoggedRequest: Decodable, Sendable {
        let path: String
        let query: String
    }

    private func allRequests() async throws -> [LoggedRequest] {
        try await APIClient(baseURL: replica).send(Request<[LoggedRequest]>(path: "__requests")).value
    }

    /// The requests carrying this test's key.
    private func requests() async throws -> [LoggedRequest] {
        try await allRequests().filter { $0.path.contains("/\(key)/") }
    }
}

/// How the multi-ingredient filter writes its list, and what it refuses, without a wire.
@Suite("MealDB ingredient lists")
struct IngredientListTests {
    @Test func namesAreTrimmedSpacesBecomeUnderscoresAndCommasJoin() async throws {
        let mealDB = StubbedMealDB(apiKey: "k3y")
        mealDB.respond(to: "filter.php", json: #"{"meals":null}"#)
        #expect(try await mealDB.client.meals(withIngredients: ["  chicken  breast ", "Garlic", "sea salt"]).isEmpty)
        #expect(mealDB.stub.requests.map(\.url.query) == ["i=chicken_breast%2CGarlic%2Csea_salt"])
    }

    @Test(
        "no ingredients, an empty name or a comma inside a name are refused before a request",
        arguments: [[], [""], ["garlic", "  "], ["salt, pepper"]])
    func badListsAreRefused(ingredients: [String]) async throws {
        let mealDB = StubbedMealDB(apiKey: "k3y")
        let error = try await #require(throws: ErrandError.self) {
            try await mealDB.client.meals(withIngredients: ingredients)
        }
        guard case .invalidRequest = error else {
            Issue.record("expected .invalidRequest, got \(error)")
            return
        }
        #expect(mealDB.stub.requests.isEmpty)
    }
}
