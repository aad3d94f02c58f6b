import Errand
import ErrandTesting
import Foundation
import MealDB
import TestSupport
import Testing

@testable import RecipesFeature

@MainActor
@Suite("Meal search")
struct MealSearchModelTests {
    @Test("a newer search wins: the stale result never reaches the state")
    func latestWins() async {
        let stub = StubTransport()
        let slow = Gate()
        stub.register(
            path: "search.php",
            reply: .dynamic { request in
                let text = queryValue(request, "s") ?? ""
                if text == "cat" { await slow.pass() }
                let json = text == "cat" ? mealsJSON([("1", "Cat cake")]) : mealsJSON([("2", "Rhino stew")])
                return TransportResponse(status: 200, body: Data(json.utf8), url: request.url)
            })
        let model = MealSearchModel(client: stubClient(stub), debounce: nil)
        let first = Task { await model.search("cat") }
        await slow.waitForArrival()
        #expect(model.state == .loading)
        await model.search("rhino")
        #expect(model.state.value?.map(\.name) == ["Rhino stew"])
        slow.open()
        await first.value
        #expect(model.state.value?.map(\.name) == ["Rhino stew"], "the stale 'cat' result must not overwrite 'rhino'")
        #expect(model.searchedText == "rhino")
    }

    @Test("typing is debounced: only the last query is sent")
    func debounce() async {
        let stub = StubTransport()
        stub.respond(to: "search.php", json: mealsJSON([("3", "Pasta")]))
        let clock = ManualClock()
        let model = MealSearchModel(client: stubClient(stub, clock: clock), debounce: .milliseconds(200))
        for text in ["p", "pa", "pas", "past", "pasta"] { model.query = text }
        // The debounce runs on the client's clock, moved on only once the search waits on it.
        await clock.sleepers(1)
        #expect(stub.requests.isEmpty)
        clock.advance(by: .milliseconds(200))
        await model.settle()
        #expect(stub.requests.count == 1)
        #expect(stub.requests.first.flatMap { queryValue($0, "s") } == "pasta")
        #expect(model.state.value?.map(\.name) == ["Pasta"])
    }

    @Test("no matches is an empty list; an empty query is idle")
    func emptyResults() async {
        let stub = StubTransport()
        stub.respond(to: "search.php", json: #"{"meals":null}"#)
        let model = MealSearchModel(client: stubClient(stub), debounce: nil)
        await model.search("xyz")
        #expect(model.state == .loaded([]))
        await model.search("   ")
        #expect(model.state == .idle)
        #expect(stub.requests.count == 1)
    }

    @Test("failure, then retry of the same query")
    func retry() async {
        let stub = StubTransport()
        stub.fail("search.php", with: .transport(TransportFailure(kind: .timedOut, underlying: "")))
        let model = MealSearchModel(client: stubClient(stub), debounce: nil)
        model.query = "pasta"
        await model.settle()
        #expect(model.state == .failed("The recipe service took too long to answer. Please try again."))
        stub.respond(to: "search.php", json: mealsJSON([("3", "Pasta")]))
        await model.retry()
        #expect(model.state.value?.count == 1)
    }

    @Test("the fixed-state initialiser never fetches")
    func fixed() async {
        let model = MealSearchModel(query: "pasta", state: .loaded([]))
        await model.search("other")
        #expect(model.state == .loaded([]))
        #expect(model.query == "pasta")
    }
}
