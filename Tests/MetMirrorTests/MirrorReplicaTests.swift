import Errand
import Foundation
import MetMuseum
import TestSupport
import Testing

@testable import MetMirror

/// Mirrors of the replica's sample collection: what is stored, what is skipped, and offline search against the
/// online one.
@Suite("Mirror of the replica's sample collection", .enabled(if: TestServer.replica.isUsable))
struct MirrorReplicaTests {
    @Test("every served object is stored with its JSON as served; ghosts are skipped with the Met's reason")
    func sample() async throws {
        let store = try MirrorStore(directory: try MirrorFixture.folder())
        let summary = try await MirrorFixture.mirror(store, root: try MirrorFixture.sampleRoot()).run(MirrorOptions())
        #expect(summary.outcome == .completed(.full))
        let online = MetClient(baseURL: try MirrorFixture.sampleRoot())
        let listed = try await online.objectIDs().ids
        #expect(summary.counts.listed == listed.count)
        #expect(summary.counts.skipped == 4 && summary.counts.failed == 0 && summary.counts.pending == 0)
        #expect(try store.skipReason(id: 7410) == "Not a valid object")
        #expect(try store.skipReason(id: 7404) == "ObjectID not found")
        let served = try await APIClient(baseURL: try MirrorFixture.sampleRoot())
            .send(Request<Data>(segments: ["public", "collection", "v1", "objects", "7001"])).value
        #expect(try store.objectJSON(id: 7001) == served, "the bytes the Met sent, not a re-encoding")
        #expect(try store.integrityCheck() == ["ok"])
        let again = try await MirrorFixture.mirror(store, root: try MirrorFixture.sampleRoot()).run(MirrorOptions())
        #expect(again.outcome == .alreadyComplete && again.doneThisRun == 0)
    }

    @Test("offline search finds what the online search finds, filters included", arguments: MirrorReplicaTests.queries)
    func search(_ query: SearchQuery) async throws {
        let store = try await MirrorReplicaTests.sampleMirror()
        let online = MetClient(baseURL: try MirrorFixture.sampleRoot())
        let ghosts: Set = [7404, 7410, 7411, 7412]
        let expected = Set(try await online.search(query).ids).subtracting(ghosts)
        let offline = try await MetClient(mirror: store).search(query)
        #expect(Set(offline.ids) == expected, "\(query)")
        #expect(offline.total == offline.ids.count)
    }

    @Test("the SDK reads objects, departments and lists from the mirror")
    func sdkOffline() async throws {
        let store = try await MirrorReplicaTests.sampleMirror()
        let offline = MetClient(mirror: store)
        let online = MetClient(baseURL: try MirrorFixture.sampleRoot())
        #expect(try await offline.object(id: 7001) == online.object(id: 7001))
        #expect(try await offline.departments() == online.departments())
        let since = try #require(
            Calendar(identifier: .gregorian).date(from: DateComponents(timeZone: .gmt, year: 2024, month: 1, day: 1)))
        #expect(
            Set(try await offline.objectIDs(updatedSince: since).ids)
                == Set(try await online.objectIDs(updatedSince: since).ids))
        await #expect(throws: MetError.self) { try await offline.object(id: 7410) }
        do {
            _ = try await offline.object(id: 7410)
        } catch {
            guard case .notAvailable = error else { Issue.record("\(error)"); return }
        }
        let found = try await offline.searchObjects(SearchQuery("sunflowers"), limit: 5).result()
        #expect(found.objects.count == 5 && found.skipped.isEmpty)
    }

    /// The queries compared, one per filter the Met's search takes.
    static let queries: [SearchQuery] = [
        SearchQuery("sunflowers"), SearchQuery("cat"), SearchQuery("quilt"), SearchQuery("Maren Holt"),
        SearchQuery("sunflowers", hasImages: true), SearchQuery("sunflowers", isHighlight: true),
        SearchQuery("sunflowers", isOnView: true), SearchQuery("sunflowers", departmentID: 11),
        SearchQuery("cat", fields: .title), SearchQuery("cats", fields: .tags),
        SearchQuery("holt", fields: .artistOrCulture), SearchQuery("sunflowers", media: ["Oil", "Glass"]),
        SearchQuery("sunflowers", geoLocations: ["France"]), SearchQuery("cat", dateBegin: -700, dateEnd: -100),
        SearchQuery("zzzqqq"),
        // The documentation's offline examples: met search --mirror … "bronze mirror" --from -1000 --to 1500.
        SearchQuery("bronze mirror", dateBegin: -1000, dateEnd: 1500),
        SearchQuery("Van Gogh", fields: .artistOrCulture, dateBegin: 1880, dateEnd: 1890),
    ]

    /// One mirror of the sample collection, made once for the searches.
    static func sampleMirror() async throws -> MirrorStore {
        try await SampleMirror.shared.get()
    }
}

/// The sample mirror, made by the first test that needs it.
private actor SampleMirror {
    static let shared = SampleMirror()
    private var made: MirrorStore?

    func get() async throws -> MirrorStore {
        if let made { return made }
        let store = try MirrorStore(directory: try MirrorFixture.folder())
        _ = try await MirrorFixture.mirror(store, root: try MirrorFixture.sampleRoot()).run(MirrorOptions())
        made = store
        return store
    }
}
