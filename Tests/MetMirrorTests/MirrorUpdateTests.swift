import Errand
import Foundation
import Synchronization
import MetMuseum
import TestSupport
import Testing

@testable import MetMirror

/// `--update` against a synthetic collection one epoch older than the replica serves.
@Suite("Mirror updates", .enabled(if: TestServer.replica.isUsable))
struct MirrorUpdateTests {
    @Test("an update fetches only what changed, adds the new, removes what is gone, and matches a fresh mirror")
    func update() async throws {
        let size = 1_000, seed = 31
        let folder = try MirrorFixture.folder()
        let store = try MirrorStore(directory: folder)
        _ = try await MirrorFixture.mirror(store, root: try MirrorFixture.synthetic(size: size, seed: seed, epoch: 0))
            .run(MirrorOptions())
        let before = Set(try store.objectIDs())
        let skippedBefore = Set(
            try MirrorFixture.queue(store).filter { $0.hasSuffix(" skipped") }.compactMap {
                Int($0.split(separator: " ")[0])
            })

        let next = try MirrorFixture.synthetic(size: size, seed: seed, epoch: 1)
        let online = MetClient(baseURL: next)
        let listed = Set(try await online.objectIDs().ids)
        // The mirror asks from the day of its newest record, that whole day included: the objects of that day
        // come again, so that a change made later on the same day is not missed.
        let newest = try #require(try store.updateDay())
        let parts = newest.split(separator: "-").compactMap { Int($0) }
        let changedOnline = Set(try await online.objectIDs(updatedSince: Self.day(parts[0], parts[1], parts[2])).ids)
        let log = RequestLog()
        let updating = CollectionMirror(
            store: store,
            configuration: ClientConfiguration(baseURL: next, middleware: [log]), budget: MetClient.budget(rate: 5_000))
        let summary = try await updating.run(MirrorOptions(update: true))
        #expect(summary.outcome == .completed(.update))
        let changes = try #require(summary.changes)
        let queueBefore = before.union(
            Set(try MirrorFixture.queue(store).compactMap { Int($0.split(separator: " ")[0]) }))
        #expect(changes.removed > 0 && changes.added > 0 && changes.changed > 0, "\(changes)")
        #expect(changes.added == size / 100)
        // Objects skipped before and still listed are tried again: the Met may serve them now.
        let retried = skippedBefore.intersection(listed)
        #expect(changes.retried == retried.count)
        #expect(changes.added + changes.changed + changes.retried == changedOnline.union(retried).count)
        let fetched = log.objectRequests()
        #expect(fetched == changedOnline.union(retried), "only the changed, new and skipped objects are fetched")
        #expect(Set(try store.objectIDs()).isSubset(of: listed))
        #expect(!queueBefore.isEmpty)
        #expect(try store.integrityCheck() == ["ok"])

        let fresh = try MirrorStore(directory: try MirrorFixture.folder())
        _ = try await MirrorFixture.mirror(fresh, root: next).run(MirrorOptions())
        #expect(try Self.records(store) == Self.records(fresh))
        #expect(try MirrorFixture.queue(store) == MirrorFixture.queue(fresh))
        let revised = try await MetClient(mirror: store).search(SearchQuery("revised", fields: .title))
        #expect(revised.total > 0 && revised.total <= changes.changed)
    }

    /// What two mirrors of one collection made at different epochs agree on (image URLs name the epoch).
    static func records(_ store: MirrorStore) throws -> [String] {
        try store.access { sqlite in
            var rows: [String] = []
            try sqlite.query("SELECT id, title, metadata_date, medium, artist FROM objects ORDER BY id") { row in
                rows.append((0..<5).map { row.text(Int32($0)) ?? "-" }.joined(separator: "|"))
            }
            return rows
        }
    }

    static func day(_ year: Int, _ month: Int, _ day: Int) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        return calendar.date(from: DateComponents(year: year, month: month, day: day)) ?? Date()
    }
}

/// Records the object IDs a client asked for.
final class RequestLog: Middleware {
    private let ids = Mutex<[Int]>([])

    func intercept(_ request: TransportRequest, context: MiddlewareContext, next: @escaping Next) async throws
        -> TransportResponse
    {
        if let id = ServedBodies.objectID(in: request.url) { ids.withLock { $0.append(id) } }
        return try await next(request)
    }

    func objectRequests() -> Set<Int> { Set(ids.withLock { $0 }) }
}
