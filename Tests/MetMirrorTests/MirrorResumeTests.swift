import Errand
import Foundation
import MetMuseum
import TestSupport
import Testing

@testable import MetMirror

/// Runs of a synthetic collection that stop — the Met's block, a full disk — and the runs that continue them.
@Suite("Mirror runs that stop and resume", .enabled(if: TestServer.replica.isUsable))
struct MirrorResumeTests {
    static let size = 400

    /// An uninterrupted mirror of a synthetic collection.
    func reference(seed: Int) async throws -> MirrorStore {
        let store = try MirrorStore(directory: try MirrorFixture.folder())
        let root = try MirrorFixture.synthetic(size: Self.size, seed: seed, epoch: 0)
        _ = try await MirrorFixture.mirror(store, root: root).run(MirrorOptions(batchSize: 50))
        return store
    }

    @Test("a 403 block stops the run with the Met's sentence; the next run continues and ends identical")
    func blocked() async throws {
        let root = try MirrorFixture.synthetic(size: Self.size, seed: 21, epoch: 0)
        let store = try MirrorStore(directory: try MirrorFixture.folder())
        // More than 60 requests in a second with this header get the bot-protection page, as on the real service.
        let limited = MirrorFixture.mirror(store, root: root, headers: ["X-Replica-Rate-Limit": "60"])
        do {
            _ = try await limited.run(MirrorOptions(batchSize: 20))
            Issue.record("the block did not stop the run")
        } catch {
            guard case .met(.blocked) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(error.description.contains("blocked"))
        }
        #expect(try store.integrityCheck() == ["ok"])
        let stopped = try store.counts()
        #expect(stopped.fetched > 0 && stopped.pending > 0, "\(stopped)")
        #expect(try store.phase() == .fetching(.full))
        let resumed = try await MirrorFixture.mirror(store, root: root).run(MirrorOptions(batchSize: 50))
        #expect(resumed.outcome == .completed(.full))
        #expect(resumed.doneThisRun <= stopped.pending + 20, "stored objects are not fetched again")
        let reference = try await reference(seed: 21)
        #expect(try MirrorFixture.digest(store) == MirrorFixture.digest(reference))
        #expect(try MirrorFixture.queue(store) == MirrorFixture.queue(reference))
    }

    @Test("a full disk stops the run without damage; with room again the next run completes it")
    func diskFull() async throws {
        let root = try MirrorFixture.synthetic(size: Self.size, seed: 22, epoch: 0)
        let folder = try MirrorFixture.folder()
        do {
            // 160 pages of 4 KiB: the schema and the listing fit, about half of the objects do not.
            let small = try MirrorStore(directory: folder, maxPageCount: 160)
            _ = try await MirrorFixture.mirror(small, root: root).run(MirrorOptions(batchSize: 25))
            Issue.record("the full disk did not stop the run")
        } catch let error as MirrorError {
            guard case .store(let problem) = error, problem.meansDiskFull else {
                Issue.record("\(error)")
                return
            }
        }
        let store = try MirrorStore(directory: folder)
        #expect(try store.integrityCheck() == ["ok"])
        let stopped = try store.counts()
        #expect(stopped.pending > 0 && stopped.fetched > 0, "\(stopped)")
        _ = try await MirrorFixture.mirror(store, root: root).run(MirrorOptions(batchSize: 25))
        let reference = try await reference(seed: 22)
        #expect(try MirrorFixture.digest(store) == MirrorFixture.digest(reference))
    }

    @Test("a folder keeps its scope")
    func scope() async throws {
        let root = try MirrorFixture.sampleRoot()
        let store = try MirrorStore(directory: try MirrorFixture.folder())
        _ = try await MirrorFixture.mirror(store, root: root).run(MirrorOptions(scope: .department(10)))
        let department = try await MetClient(baseURL: root).objectIDs(departmentIDs: [10]).ids
        #expect(try store.counts().fetched == department.count)
        await #expect(throws: MirrorError.self) {
            try await MirrorFixture.mirror(store, root: root).run(MirrorOptions(scope: .all))
        }
    }
}

/// Pictures within a budget.
@Suite("Mirror pictures", .enabled(if: TestServer.replica.isUsable))
struct MirrorImageTests {
    @Test("small pictures are kept for public-domain objects until the budget is spent")
    func budget() async throws {
        let root = try MirrorFixture.synthetic(size: 120, seed: 23, epoch: 0)
        let store = try MirrorStore(directory: try MirrorFixture.folder())
        let mirror = MirrorFixture.mirror(store, root: root)
        _ = try await mirror.run(MirrorOptions(batchSize: 10, images: .small(budget: 4_000)))
        let totals = try store.imageTotals()
        #expect(totals.count > 0 && totals.count < 80, "\(totals)")
        let pictures = try store.objectIDs().compactMap { try store.image(id: $0) }
        #expect(pictures.count == totals.count)
        let picture = try #require(pictures.first)
        #expect(picture.starts(with: [0xFF, 0xD8, 0xFF]), "a JPEG, as the Met serves")
        #expect(totals.bytes < 4_000 + 10 * picture.count, "at most one batch of pictures beyond the budget")
        let more = try await mirror.run(MirrorOptions(images: .small(budget: 1_000_000)))
        #expect(more.outcome == .alreadyComplete)
        let all = try store.imageTotals()
        #expect(all.count > totals.count, "a later run with room fetches the rest")
        #expect(try store.imagesWanted(limit: 1000, budget: 1_000_000).isEmpty)
    }
}
