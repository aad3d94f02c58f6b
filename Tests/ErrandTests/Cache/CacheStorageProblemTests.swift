@testable import Errand
import Foundation
import Testing

/// A cache file that cannot be used says why, and nothing the cache does reaches past its own file.
@Suite("Cache: a file that cannot be used says why")
struct CacheStorageProblemTests {
    @Test("a symbolic link in the file's place is refused, and its target keeps its mode and its bytes")
    func symbolicLinkIsNotFollowed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let target = folder.file("precious.txt")
        try Data("keep me".utf8).write(to: target)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: target.path)
        let link = folder.file("cache.sqlite")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)

        let error = #expect(throws: CacheStorageError.self) { try HTTPCache(fileURL: link) }
        #expect(error?.kind == .symbolicLink)
        #expect(error?.description == "The cache at \(link.path) is a symbolic link, which is not followed.")
        let mode = try FileManager.default.attributesOfItem(atPath: target.path)[.posixPermissions] as? Int
        #expect(mode == 0o644)
        #expect(try Data(contentsOf: target) == Data("keep me".utf8))
    }

    @Test("a file another connection holds exclusively is reported as in use, not as missing entries")
    func lockedFileIsInUse() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.file("cache.sqlite")
        _ = try HTTPCache(fileURL: file)
        // What another process does with `PRAGMA locking_mode = EXCLUSIVE` and a write: it keeps the lock until it
        // closes. SQLite's locks work between connections of one process as between processes.
        let holder = try SQLiteConnection(path: file.path)
        try holder.execute(
            "PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; UPDATE totals SET count = count WHERE id = 1")

        let error = #expect(throws: CacheStorageError.self) { try HTTPCache(fileURL: file) }
        #expect(error?.kind == .inUse)
        #expect(error?.description == "The cache at \(file.path) is in use by another process.")
        try holder.execute("COMMIT")
    }

    @Test("a folder that cannot be created is unusable, with a sentence that ends once")
    func unusableFolder() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let blocker = folder.file("not-a-folder")
        try Data().write(to: blocker)
        let error = #expect(throws: CacheStorageError.self) {
            try HTTPCache(fileURL: blocker.appendingPathComponent("cache.sqlite"))
        }
        #expect(error?.kind == .unusable)
        #expect(error?.description.hasSuffix(".") == true)
        #expect(error?.description.hasSuffix("..") == false)
    }

    @Test("a cache made for memory reports no storage problem")
    func memoryCacheHasNoProblem() {
        #expect(HTTPCache().storageProblem == nil)
    }
}
