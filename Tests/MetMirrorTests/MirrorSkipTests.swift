import Errand
import Foundation
import MetMuseum
import TestSupport
import Testing

@testable import MetMirror

/// Objects that fail on their own (over the body limit, undecodable, not served) are recorded as skipped with their
/// reason and the run goes on; an update tries them again.
@Suite("Mirror: objects that fail on their own", .enabled(if: TestServer.replica.isUsable))
struct MirrorSkipTests {
    @Test("an object over the body limit is skipped with the limit's sentence; the run completes; --update retries")
    func oversizedObject() async throws {
        let store = try MirrorStore(directory: try MirrorFixture.folder())
        let root = try MirrorFixture.sampleRoot()
        let options = MirrorOptions(scope: .search("__oversized__"))
        let summary = try await MirrorFixture.mirror(store, root: root).run(options)
        #expect(summary.outcome == .completed(.full))
        #expect(summary.counts.fetched == 2 && summary.counts.skipped == 1 && summary.counts.pending == 0)
        let reason = try #require(try store.skipReason(id: 9413))
        #expect(reason == ErrandError.bodyTooLarge(limit: MetClient.maxResponseBodySize).userMessage)
        #expect(summary.skips == [MirrorSkips(reason: reason, count: 1, firstID: 9413)])
        #expect(try store.objectJSON(id: 7002) != nil, "the object after the oversized one was stored")

        let again = try await MirrorFixture.mirror(store, root: root).run(options)
        #expect(again.outcome == .alreadyComplete && again.doneThisRun == 0)

        var update = options
        update.update = true
        let updated = try await MirrorFixture.mirror(store, root: root).run(update)
        #expect(updated.outcome == .completed(.update))
        #expect(updated.changes?.retried == 1)
        #expect(updated.doneThisRun >= 1 && updated.counts.skipped == 1)
    }

    @Test("an undecodable object is skipped with its reason and the run completes")
    func undecodableObject() async throws {
        let store = try MirrorStore(directory: try MirrorFixture.folder())
        let summary = try await MirrorFixture.mirror(store, root: try MirrorFixture.sampleRoot())
            .run(MirrorOptions(scope: .search("__malformed__")))
        #expect(summary.outcome == .completed(.full))
        #expect(summary.counts.fetched == 1 && summary.counts.skipped == 1 && summary.counts.failed == 0)
        #expect(try store.skipReason(id: 9422)?.isEmpty == false)
    }
}

/// The mirror's folder next to symbolic links and foreign files.
@Suite("Mirror: folders behind links, foreign files")
struct MirrorStoreFileTests {
    @Test("a mirror inside a symlinked folder is refused and leaves nothing behind the link")
    func linkedFolder() throws {
        let root = try MirrorFixture.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let target = root.appendingPathComponent("target")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        let link = root.appendingPathComponent("link")
        try SymbolicLinks.makeForeign(at: link, to: target)
        #expect(throws: MirrorStoreError.self) { _ = try MirrorStore(directory: link) }
        #expect(throws: MirrorStoreError.self) { _ = try MirrorStore(directory: link.appendingPathComponent("m")) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: target.path) == [])
    }

    @Test("a file that is not a mirror is refused and kept as it was")
    func foreignFile() throws {
        let folder = try MirrorFixture.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(MirrorStore.fileName)
        let bytes = Data((0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        try bytes.write(to: file)
        #expect {
            _ = try MirrorStore(directory: folder)
        } throws: { error in
            "\(error)".contains(file.path) && "\(error)".contains("left as it is")
        }
        #expect(try Data(contentsOf: file) == bytes)
    }
}
