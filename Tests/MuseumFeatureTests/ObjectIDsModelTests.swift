import Errand
import ErrandTesting
import Foundation
import MetMuseum
import TestSupport
import Testing

@testable import MuseumFeature

@MainActor
@Suite("Object ID lists: a search's IDs, and every object's")
struct ObjectIDsModelTests {
    @Test("a search's IDs: idle → loading → loaded")
    func search() async {
        let stub = StubTransport()
        let gate = Gate()
        stub.register(
            path: "search",
            reply: .dynamic { request in
                await gate.pass()
                return TransportResponse(
                    status: 200, headers: ["Content-Type": "application/json"],
                    body: Data(#"{"total":2,"objectIDs":[5,6]}"#.utf8), url: request.url)
            })
        let model = ObjectIDsModel(.search(SearchQuery("sunflowers")), client: stubClient(stub))
        #expect(model.state.isIdle)
        let loading = Task { await model.load() }
        await gate.waitForArrival()
        #expect(model.state.isLoading)
        gate.open()
        await loading.value
        #expect(model.state.value == ObjectIDList(total: 2, ids: [5, 6]))
        #expect(stub.requests[0].url.query?.hasSuffix("q=sunflowers") == true)
    }

    @Test("no match is an empty list")
    func empty() async {
        let stub = StubTransport()
        stub.respond(to: "search", json: #"{"total":0,"objectIDs":null}"#)
        let model = ObjectIDsModel(.search(SearchQuery("zzz")), client: stubClient(stub))
        await model.load()
        #expect(model.state.value == ObjectIDList(total: 0, ids: []))
    }

    @Test("every object updated since a day in some departments, then a failure kept apart from the value")
    func objects() async {
        let stub = StubTransport()
        stub.respond(to: "objects", json: #"{"total":1,"objectIDs":[9]}"#)
        let day = Date(timeIntervalSince1970: 1_704_067_200)  // 2024-01-01
        let model = ObjectIDsModel(.objects(updatedSince: day, departmentIDs: [1, 3]), client: stubClient(stub))
        await model.load()
        #expect(model.state.value?.ids == [9])
        #expect(stub.requests[0].url.query == "metadataDate=2024-01-01&departmentIds=1%7C3")

        stub.respond(to: "objects", status: 400, json: "{}")
        let failing = ObjectIDsModel(.objects(updatedSince: nil, departmentIDs: []), client: stubClient(stub))
        await failing.load()
        #expect(failing.lastFailure?.kind == .serverError)
        #expect(failing.state == .failed(MuseumWording.sentence(for: .serverError)))
    }

    @Test("a fixed state never fetches")
    func fixed() async {
        let model = ObjectIDsModel(.search(SearchQuery("x")), state: .loaded(ObjectIDList(total: 1, ids: [1])))
        await model.load()
        #expect(model.state.value?.ids == [1])
    }
}
