import Errand
import ErrandTesting
import Foundation
import MetMuseum
import TestSupport
import Testing

@testable import MuseumFeature

@MainActor
@Suite("Museum search store")
struct MuseumSearchStoreTests {
    @Test("objects appear as they arrive, in search order, with progress")
    func arrivalInSearchOrder() async {
        let stub = StubTransport()
        respondToSearch(stub, ids: [1, 2, 3])
        let first = Gate(), last = Gate()
        respondWithObject(stub, 1, title: "One", gate: first)
        respondWithObject(stub, 2, title: "Two", gate: first)
        respondWithObject(stub, 3, title: "Three", gate: last)
        let store = MuseumSearchStore(client: stubClient(stub), limit: 3, concurrency: 3)
        #expect(store.state == .idle)
        let search = Task { await store.search(SearchQuery("cats")) }
        await last.waitForArrival()
        last.open()
        await waitUntil { store.objects.count == 1 }
        #expect(store.objects.map(\.objectID) == [3])
        #expect(store.state == .fetching)
        #expect(store.progress.completed == 1 && store.progress.total == 3)
        #expect(store.matches == 103)
        first.open()
        await search.value
        #expect(store.objects.map(\.objectID) == [1, 2, 3], "search order, not arrival order")
        #expect(store.state == .finished)
        #expect(store.progress.completed == 3)
    }

    @Test("objects the Met does not serve are skipped and counted")
    func skipped() async {
        let stub = StubTransport()
        respondToSearch(stub, ids: [1, 404, 2, 405])
        respondWithObject(stub, 1, title: "One")
        respondWithObject(stub, 2, title: "Two")
        stub.respond(to: "objects/404", status: 404, json: #"{"message":"ObjectID not found"}"#)
        stub.respond(to: "objects/405", status: 404, json: #"{"message":"Not a valid object"}"#)
        let store = MuseumSearchStore(client: stubClient(stub), limit: 10)
        await store.search(SearchQuery("x"))
        #expect(store.objects.map(\.objectID) == [1, 2])
        #expect(store.skippedIDs == [404, 405])
        #expect(store.skippedCount == 2)
        #expect(store.skippedNotice == "2 objects could not be shown: the museum does not serve them.")
        #expect(store.progress.failed == 2)
        #expect(store.state == .finished)
        guard case .notFound = store.skipped.first?.reason, case .notAvailable = store.skipped.last?.reason else {
            Issue.record("each skipped object keeps why: \(store.skipped.map(\.reason))")
            return
        }
    }

    @Test("a new search cancels the previous one: a slow 'cat' never overwrites 'rhino'")
    func catThenRhino() async {
        let stub = StubTransport()
        let catGate = Gate()
        stub.register(
            path: "search",
            reply: .dynamic { request in
                let query = request.url.query ?? ""
                let ids = query.hasSuffix("q=cat") ? [11] : [22]
                return TransportResponse(
                    status: 200, body: Data(#"{"total":1,"objectIDs":\#(ids)}"#.utf8), url: request.url)
            })
        respondWithObject(stub, 11, title: "Cat", gate: catGate)
        respondWithObject(stub, 22, title: "Rhino")
        let store = MuseumSearchStore(client: stubClient(stub))
        let cat = Task { await store.search(SearchQuery("cat")) }
        await catGate.waitForArrival()
        await store.search(SearchQuery("rhino"))
        #expect(store.objects.map(\.title) == ["Rhino"])
        catGate.open()
        await cat.value
        #expect(store.objects.map(\.title) == ["Rhino"])
        #expect(store.query?.text == "rhino")
        #expect(store.state == .finished)
    }

    @Test("a failed search shows one sentence; retry runs it again")
    func failureAndRetry() async {
        let stub = StubTransport()
        stub.respond(to: "search", status: 503, json: #"{"message":"down"}"#)
        let store = MuseumSearchStore(client: stubClient(stub))
        await store.search(SearchQuery("cats"))
        #expect(store.state == .failed("The museum's service is having trouble right now. Please try again later."))
        #expect(store.lastFailure?.technicalDescription.contains("503") == true)
        respondToSearch(stub, ids: [])
        await store.retry()
        #expect(store.state == .finished)
        #expect(store.objects.isEmpty)
        #expect(store.lastFailure == nil)
    }

    @Test("cancel stops the search and goes back to idle")
    func cancel() async {
        let stub = StubTransport()
        respondToSearch(stub, ids: [1])
        let gate = Gate()
        respondWithObject(stub, 1, title: "One", gate: gate)
        let store = MuseumSearchStore(client: stubClient(stub))
        let search = Task { await store.search(SearchQuery("x")) }
        await gate.waitForArrival()
        store.cancel()
        gate.open()
        await search.value
        #expect(store.state == .idle)
    }

    @Test("the preview initialiser shows fixed objects")
    func preview() async throws {
        let object = try JSONDecoder().decode(MetObject.self, from: Data(objectJSON(7, title: "Seven").utf8))
        let store = MuseumSearchStore(objects: [object])
        await store.search(SearchQuery("other"))
        #expect(store.objects.map(\.objectID) == [7])
        #expect(store.state == .finished)
    }

    /// Yields to the main actor until the condition holds (the store applies events on the main actor).
    private func waitUntil(_ condition: @MainActor () -> Bool) async {
        for _ in 0..<10_000 where !condition() { await Task.yield() }
    }
}

@MainActor
@Suite("Museum detail and departments")
struct MuseumModelTests {
    @Test("detail: loading, loaded; a missing object is not found; retry")
    func detail() async {
        let stub = StubTransport()
        stub.respond(to: "objects/9", status: 404, json: #"{"message":"ObjectID not found"}"#)
        let model = ObjectDetailModel(objectID: 9, client: stubClient(stub))
        await model.load()
        #expect(model.state == .failed("That object could not be found in the collection."))
        #expect(model.lastFailure?.kind == .notFound)
        respondWithObject(stub, 9, title: "Nine")
        await model.retry()
        #expect(model.state.value?.title == "Nine")
    }

    @Test(
        "departments load; each failure class has its own sentence",
        arguments: [
            (ErrandError.transport(TransportFailure(kind: .cannotConnect, underlying: "")), FailureKind.unreachable),
            (.transport(TransportFailure(kind: .timedOut, underlying: "")), .timedOut),
            (.blocked(StatusFailure(status: 403, headers: [:], body: Data(), url: nil)), .blocked),
            (
                .decoding(DecodingFailure(targetType: "X", codingPath: "", reason: "", body: Data(), contentType: nil)),
                .invalidResponse
            ),
        ])
    func departments(error: ErrandError, kind: FailureKind) async {
        let stub = StubTransport()
        stub.fail("departments", with: error)
        let model = DepartmentsModel(client: stubClient(stub))
        await model.loadIfIdle()
        #expect(model.lastFailure?.kind == kind)
        #expect(model.state.errorMessage == MuseumFailure(kind: kind, technicalDescription: "").message)
        stub.respond(to: "departments", json: #"{"departments":[{"departmentId":1,"displayName":"American Wing"}]}"#)
        await model.retry()
        #expect(model.state.value?.map(\.displayName) == ["American Wing"])
    }
}
