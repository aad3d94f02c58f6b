import Errand
import ErrandTesting
import Foundation
import MealDB
import TestSupport
import Testing

@testable import RecipesFeature

@MainActor
@Suite("Recipe view models")
struct LoaderModelTests {
    @Test("category meals: idle → loading → loaded, with the category in the request")
    func loadsCategory() async {
        let stub = StubTransport()
        let gate = Gate()
        stub.register(
            path: "filter.php",
            reply: .dynamic { request in
                await gate.pass()
                return TransportResponse(status: 200, body: Data(summariesJSON.utf8), url: request.url)
            })
        let model = CategoryMealsModel(category: "Sea food", client: stubClient(stub))
        #expect(model.state == .idle)
        let loading = Task { await model.load() }
        await gate.waitForArrival()
        #expect(model.state == .loading)
        gate.open()
        await loading.value
        #expect(model.state.value?.map(\.name) == ["Teriyaki Chicken"])
        #expect(queryValue(stub.requests[0], "c") == "Sea food")
        #expect(stub.requests[0].url.absoluteString.contains("c=Sea%20food"))
    }

    @Test("loadIfIdle loads once; refresh keeps the value visible")
    func loadIfIdleAndRefresh() async {
        let stub = StubTransport()
        stub.respond(to: "filter.php", json: summariesJSON)
        let model = CategoryMealsModel(category: "Chicken", client: stubClient(stub))
        await model.loadIfIdle()
        await model.loadIfIdle()
        #expect(stub.requests.count == 1)

        let gate = Gate()
        stub.register(
            path: "filter.php",
            reply: .dynamic { request in
                await gate.pass()
                return TransportResponse(status: 500, body: Data("<html>oops</html>".utf8), url: request.url)
            })
        let refreshing = Task { await model.refresh() }
        await gate.waitForArrival()
        #expect(model.isRefreshing)
        #expect(model.state.value?.count == 1, "the loaded value stays on screen while refreshing")
        gate.open()
        await refreshing.value
        #expect(!model.isRefreshing)
        #expect(model.state.value?.count == 1, "a failed refresh keeps the value")
        #expect(
            model.loader.refreshFailureMessage
                == "The recipe service is having trouble right now. Please try again later.")
        #expect(model.lastFailure?.kind == .serverError)
    }

    @Test("a failure, then retry succeeds")
    func retryAfterFailure() async {
        let stub = StubTransport()
        stub.fail("categories.php", with: .transport(TransportFailure(kind: .cannotConnect, underlying: "refused")))
        let model = CategoriesModel(client: stubClient(stub))
        await model.load()
        #expect(model.state == .failed("You seem to be offline. Check your connection and try again."))
        #expect(model.lastFailure?.technicalDescription.contains("cannotConnect") == true)
        stub.respond(
            to: "categories.php",
            json:
                #"{"categories":[{"idCategory":"1","strCategory":"Beef","strCategoryThumb":"https://x/b.png","strCategoryDescription":"Beef."}]}"#
        )
        await model.retry()
        #expect(model.state.value?.map(\.name) == ["Beef"])
        #expect(model.lastFailure == nil)
    }

    @Test("an unknown meal id fails as not found")
    func detailNotFound() async {
        let stub = StubTransport()
        stub.respond(to: "lookup.php", json: #"{"meals":null}"#)
        let model = MealDetailModel(mealID: "1", client: stubClient(stub))
        await model.load()
        #expect(model.state == .failed("That recipe could not be found."))
        #expect(model.lastFailure?.kind == .notFound)
    }

    @Test("detail and random load full meals")
    func detailAndRandom() async {
        let stub = StubTransport()
        stub.respond(to: "lookup.php", json: mealsJSON([("52771", "Spicy Arrabiata Penne")]))
        stub.respond(to: "random.php", json: mealsJSON([("52772", "Teriyaki Chicken")]))
        let detail = MealDetailModel(mealID: "52771", client: stubClient(stub))
        await detail.load()
        #expect(detail.state.value?.name == "Spicy Arrabiata Penne")
        #expect(detail.state.value?.ingredients.first?.name == "Penne")
        let random = RandomMealModel(client: stubClient(stub))
        await random.load()
        #expect(random.state.value?.id == "52772")
    }

    @Test(
        "each failure class has its own sentence",
        arguments: [
            (ErrandError.transport(TransportFailure(kind: .timedOut, underlying: "")), FailureKind.timedOut),
            (.transport(TransportFailure(kind: .dnsFailure, underlying: "")), .unreachable),
            (.notCached(URL(string: "https://x/a")!), .notCached),
            (.unacceptableStatus(StatusFailure(status: 503, headers: [:], body: Data(), url: nil)), .serverError),
            (.unacceptableStatus(StatusFailure(status: 404, headers: [:], body: Data(), url: nil)), .notFound),
            (
                .decoding(
                    DecodingFailure(targetType: "Meal", codingPath: "", reason: "bad", body: Data(), contentType: nil)),
                .invalidResponse
            ),
        ])
    func messages(error: ErrandError, kind: FailureKind) async {
        let stub = StubTransport()
        stub.fail("random.php", with: error)
        let model = RandomMealModel(client: stubClient(stub))
        await model.load()
        #expect(model.lastFailure?.kind == kind)
        #expect(model.state == .failed(RecipeFailure(kind: kind, technicalDescription: "").message))
        #expect(model.lastFailure?.classified.reason == error.userMessage, "the error's own sentence is kept")
    }

    @Test("an HTML page instead of JSON is invalid data")
    func htmlIsInvalidData() async {
        let stub = StubTransport()
        stub.respond(
            to: "categories.php", headers: ["Content-Type": "text/html"], body: Data("<!doctype html><p>hi".utf8))
        let model = CategoriesModel(client: stubClient(stub))
        await model.load()
        #expect(model.lastFailure?.kind == .invalidResponse)
    }

    @Test("fixed-state initialisers never fetch")
    func fixedState() async {
        let model = CategoryMealsModel(category: "Beef", state: .loaded([MealSummary(id: "1", name: "Stew")]))
        await model.load()
        #expect(model.state.value?.first?.name == "Stew")
        let failed = CategoriesModel(state: .failed("x"))
        await failed.retry()
        #expect(failed.state == .failed("x"))
    }

    @Test("a cancelled load puts back the state it found")
    func cancelledLoad() async {
        let stub = StubTransport()
        let gate = Gate()
        stub.register(
            path: "random.php",
            reply: .dynamic { request in
                await gate.pass()
                try Task.checkCancellation()
                return TransportResponse(status: 200, body: Data(mealsJSON([("1", "A")]).utf8), url: request.url)
            })
        let model = RandomMealModel(client: stubClient(stub))
        let loading = Task { await model.load() }
        await gate.waitForArrival()
        loading.cancel()
        gate.open()
        await loading.value
        #expect(model.state == .idle)
        #expect(model.lastFailure == nil)
    }
}
