import Errand
import ErrandTesting
import Foundation
import MetMirror
import MetMuseum
import Testing

@testable import MuseumFeature

/// The museum's view models over a mirror: filled once from a stub of the Met, then read with no server at all.
@MainActor
@Suite("Museum data source over a mirror")
struct MuseumDataSourceTests {
    /// A mirror of three objects and one the Met does not serve.
    static func mirror() async throws -> MirrorStore {
        let stub = StubTransport()
        stub.respond(to: "departments", json: #"{"departments":[{"departmentId":10,"displayName":"Egyptian Art"}]}"#)
        stub.respond(to: "objects", json: #"{"total":4,"objectIDs":[1,2,3,4]}"#)
        respondWithObject(stub, 1, title: "Seated Cat")
        respondWithObject(stub, 2, title: "Cat amulet")
        respondWithObject(stub, 3, title: "Bronze mirror")
        stub.respond(to: "objects/4", status: 404, json: #"{"message":"Not a valid object"}"#)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("museum-\(UUID().uuidString)")
        let store = try MirrorStore(directory: folder)
        let mirror = CollectionMirror(
            store: store,
            configuration: ClientConfiguration(baseURL: URL(string: "https://met.example")!, transport: stub),
            budget: MetClient.budget(rate: 10_000))
        _ = try await mirror.run(MirrorOptions())
        return store
    }

    @Test("the search store finds objects in the mirror, best match first")
    func search() async throws {
        let source = MuseumDataSource.mirror(try await Self.mirror())
        let store = MuseumSearchStore(source: source, limit: 10)
        await store.search(SearchQuery("cat"))
        #expect(store.state == .finished)
        #expect(Set(store.objects.map(\.objectID)) == [1, 2])
        #expect(store.matches == 2 && store.skipped.isEmpty)
        await store.search(SearchQuery("unicorn"))
        #expect(store.state == .finished && store.objects.isEmpty)
    }

    @Test("the object model loads from the mirror, and fails as online for what the Met did not serve")
    func detail() async throws {
        let source = MuseumDataSource.mirror(try await Self.mirror())
        let model = ObjectDetailModel(objectID: 3, source: source)
        await model.load()
        guard case .loaded(let object) = model.state else {
            Issue.record("\(model.state)")
            return
        }
        #expect(object.title == "Bronze mirror")
        let loan = ObjectDetailModel(objectID: 4, source: source)
        await loan.load()
        guard case .failed(let message) = loan.state else {
            Issue.record("\(loan.state)")
            return
        }
        #expect(message == "That object could not be found in the collection.", "the sentence online gives too")
    }
}
