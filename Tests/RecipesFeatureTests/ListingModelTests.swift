import Errand
import ErrandTesting
import Foundation
import MealDB
import TestSupport
import Testing

@testable import RecipesFeature

@MainActor
@Suite("Recipe listings: letters, the newest, a selection, filters, areas, ingredients")
struct ListingModelTests {
    @Test("a first letter: idle → loading → loaded, the letter in the request")
    func firstLetter() async {
        let stub = StubTransport()
        let gate = Gate()
        stub.register(
            path: "search.php",
            reply: .dynamic { request in
                await gate.pass()
                return TransportResponse(
                    status: 200, body: Data(mealsJSON([("1", "Bread")]).utf8), url: request.url)
            })
        let model = MealListModel(.firstLetter("b"), client: stubClient(stub))
        #expect(model.state == .idle)
        let loading = Task { await model.load() }
        await gate.waitForArrival()
        #expect(model.state.isLoading)
        gate.open()
        await loading.value
        #expect(model.state.value?.map(\.name) == ["Bread"])
        #expect(queryValue(stub.requests[0], "f") == "b")
    }

    @Test("nothing found is an empty list, not a failure")
    func empty() async {
        let stub = StubTransport()
        stub.respond(to: "search.php", json: #"{"meals":null}"#)
        let model = MealListModel(.firstLetter("q"), client: stubClient(stub))
        await model.load()
        #expect(model.state == .loaded([]))
        #expect(model.lastFailure == nil)
    }

    @Test(
        "the premium listings with a supporter's key ask for their endpoints",
        arguments: [
            (MealListModel.Listing.latest, "latest.php"), (.randomSelection, "randomselection.php"),
        ])
    func premium(listing: MealListModel.Listing, endpoint: String) async {
        let stub = StubTransport()
        stub.respond(to: endpoint, json: mealsJSON([("9", "New")]))
        let model = MealListModel(listing, client: stubClient(stub, apiKey: "supporter"))
        await model.load()
        #expect(model.state.value?.map(\.id) == ["9"])
        #expect(stub.requests.first?.url.path.hasSuffix("/v2/supporter/\(endpoint)") == true)
    }

    @Test("a premium listing with the test key fails before any request, as an invalid request")
    func premiumWithTestKey() async {
        let stub = StubTransport()
        let model = MealListModel(.latest, client: stubClient(stub))
        await model.load()
        #expect(model.lastFailure?.kind == .invalidRequest)
        #expect(model.state == .failed(RecipeWording.sentence(for: .invalidRequest)))
        #expect(stub.requests.isEmpty)
    }

    @Test(
        "each filter asks for its query",
        arguments: [
            (FilteredMealsModel.Filter.category("Sea food"), "c", "Sea food"), (.area("Italian"), "a", "Italian"),
            (.ingredient("garlic"), "i", "garlic"),
            (.ingredients(["chicken breast", "garlic"]), "i", "chicken_breast,garlic"),
        ])
    func filters(filter: FilteredMealsModel.Filter, name: String, value: String) async {
        let stub = StubTransport()
        stub.respond(to: "filter.php", json: summariesJSON)
        let model = FilteredMealsModel(filter, client: stubClient(stub, apiKey: "supporter"))
        await model.load()
        #expect(model.state.value?.map(\.name) == ["Teriyaki Chicken"])
        #expect(queryValue(stub.requests[0], name) == value)
    }

    @Test("a filter that fails: failed with the sentence, then loaded on retry")
    func filterRetry() async {
        let stub = StubTransport()
        stub.fail("filter.php", with: .transport(TransportFailure(kind: .timedOut, underlying: "")))
        let model = FilteredMealsModel(.area("Italian"), client: stubClient(stub))
        await model.load()
        #expect(model.state == .failed(RecipeWording.sentence(for: .timedOut)))
        stub.respond(to: "filter.php", json: summariesJSON)
        await model.retry()
        #expect(model.state.value?.count == 1)
        #expect(model.lastFailure == nil)
    }

    @Test("areas and ingredients load")
    func areasAndIngredients() async {
        let stub = StubTransport()
        stub.respond(to: "list.php", json: #"{"meals":[{"strArea":"Italian"}]}"#)
        let areas = AreasModel(client: stubClient(stub))
        await areas.load()
        #expect(areas.state.value?.map(\.name) == ["Italian"])
        #expect(queryValue(stub.requests[0], "a") == "list")

        let other = StubTransport()
        other.respond(
            to: "list.php",
            json: #"{"meals":[{"idIngredient":"1","strIngredient":"Chicken","strDescription":null,"strType":null}]}"#)
        let ingredients = IngredientsModel(client: stubClient(other))
        await ingredients.load()
        #expect(ingredients.state.value?.map(\.name) == ["Chicken"])
        #expect(queryValue(other.requests[0], "i") == "list")
    }

    @Test("an unreadable answer fails as invalid data", arguments: ["areas", "ingredients"])
    func invalid(model name: String) async {
        let stub = StubTransport()
        stub.respond(to: "list.php", headers: ["Content-Type": "text/html"], body: Data("<!doctype html>".utf8))
        let client = stubClient(stub)
        let failure: RecipeFailure?
        if name == "areas" {
            let model = AreasModel(client: client)
            await model.load()
            failure = model.lastFailure
        } else {
            let model = IngredientsModel(client: client)
            await model.load()
            failure = model.lastFailure
        }
        #expect(failure?.kind == .invalidResponse)
    }

    @Test("fixed states never fetch")
    func fixed() async {
        let list = MealListModel(.latest, state: .loaded([]))
        await list.load()
        #expect(list.state == .loaded([]))
        let filtered = FilteredMealsModel(.area("x"), state: .failed("no"))
        await filtered.load()
        #expect(filtered.state == .failed("no"))
        #expect(AreasModel(state: .idle).state == .idle)
        #expect(IngredientsModel(state: .loading).state.isLoading)
    }

    @Test("an unknown meal id: failed as not found, with the id in the tool's sentence")
    func unknownMeal() async {
        let stub = StubTransport()
        stub.respond(to: "lookup.php", json: #"{"meals":null}"#)
        let model = MealDetailModel(mealID: "123", client: stubClient(stub))
        await model.load()
        #expect(model.state == .failed(RecipeWording.sentence(for: .notFound)))
        #expect(model.lastFailure?.classified.reason == "TheMealDB has no meal with id 123.")
    }
}
