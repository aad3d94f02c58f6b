@testable import Errand
import Foundation
import TestSupport
import Testing

/// The library's SQLite files next to symbolic links and foreign files: nothing is created through a link (at any
/// component of the path), and a file that is not recognisably the library's own is refused and kept byte for byte.
@Suite("Security: stored files next to links and foreign files")
struct StoredFileTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder() }

    /// A real folder and a link to it beside it that another user could have made: `link/...` paths lead into
    /// `target`.
    private func linkedFolder() throws -> (link: URL, target: URL) {
        let target = folder.file("target")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        let link = folder.file("link")
        try SymbolicLinks.makeForeign(at: link, to: target)
        return (link, target)
    }

    private func contents(_ url: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }

    @Test("a cache inside a symlinked folder is refused and leaves nothing behind the link")
    func cacheBehindALinkedFolder() throws {
        let (link, target) = try linkedFolder()
        #expect {
            _ = try HTTPCache(fileURL: link.appendingPathComponent("c.sqlite"))
        } throws: { error in
            (error as? CacheStorageError)?.kind == .symbolicLink
        }
        #expect {
            _ = try HTTPCache(fileURL: link.appendingPathComponent("deeper/still/c.sqlite"))
        } throws: { error in
            (error as? CacheStorageError)?.kind == .symbolicLink
        }
        #expect(try contents(target) == [], "no file and no folder was created through the link")
    }

    @Test("a cookie jar inside a symlinked folder is refused and leaves nothing behind the link")
    func jarBehindALinkedFolder() throws {
        let (link, target) = try linkedFolder()
        #expect {
            _ = try CookieJar(fileURL: link.appendingPathComponent("jar/cookies.sqlite"))
        } throws: { error in
            (error as? CookieStorageError)?.kind == .symbolicLink
        }
        #expect(try contents(target) == [])
    }

    @Test("a link the system owns above the files (as /var on Apple platforms) is followed, and SQLite opens the file")
    func systemLinkAboveIsFollowed() throws {
        guard SymbolicLinks.canMakeSystemLinks else {
            print("skipping: only root can make a link root owns (CI runs as root)")
            return
        }
        let target = folder.file("private")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        let link = folder.file("var")
        try SymbolicLinks.makeSystem(at: link, to: target)
        let cacheFile = link.appendingPathComponent("caches/c.sqlite")
        #expect(StorageFile.symbolicLink(on: cacheFile.path) == nil)
        #expect(StorageFile.resolvedForOpening(cacheFile.path).hasSuffix("/private/caches/c.sqlite"))
        _ = try HTTPCache(fileURL: cacheFile)
        _ = try CookieJar(fileURL: link.appendingPathComponent("jar/cookies.sqlite"))
        #expect(try contents(target) == ["caches", "jar"])
        #expect(try contents(target.appendingPathComponent("caches")).contains("c.sqlite"))
        // The file itself as a link is refused, whoever owns it.
        let fileLink = folder.file("file-link.sqlite")
        try SymbolicLinks.makeSystem(at: fileLink, to: target.appendingPathComponent("caches/c.sqlite"))
        #expect(StorageFile.symbolicLink(on: fileLink.path) == fileLink.path)
    }

    @Test("a 20,000-byte file that is not a database is refused by name and kept as it was")
    func foreignFileIsKept() throws {
        let bytes = Data((0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) })
        for name in ["c.sqlite", "cookies.sqlite"] {
            try bytes.write(to: folder.file(name))
        }
        #expect {
            _ = try HTTPCache(fileURL: folder.file("c.sqlite"))
        } throws: { error in
            let text = "\(error)"
            return text.contains(folder.file("c.sqlite").path) && text.contains("left as it is")
        }
        #expect {
            _ = try CookieJar(fileURL: folder.file("cookies.sqlite"))
        } throws: { error in
            "\(error)".contains(folder.file("cookies.sqlite").path)
        }
        #expect(try Data(contentsOf: folder.file("c.sqlite")) == bytes)
        #expect(try Data(contentsOf: folder.file("cookies.sqlite")) == bytes)
        #expect(try contents(folder.url) == ["c.sqlite", "cookies.sqlite"], "no journal was made beside them")
    }

    @Test("another program's SQLite database is refused and not written to")
    func anotherProgramsDatabase() throws {
        let file = folder.file("notes.sqlite")
        do {
            let connection = try SQLiteConnection(path: file.path)
            try connection.execute("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('keep me')")
        }
        let before = try Data(contentsOf: file)
        #expect(throws: CacheStorageError.self) { _ = try HTTPCache(fileURL: file) }
        #expect(throws: CookieStorageError.self) { _ = try CookieJar(fileURL: file) }
        #expect(try Data(contentsOf: file) == before)
        let connection = try SQLiteConnection(path: file.path)
        var tables: [String] = []
        try connection.query("SELECT name FROM sqlite_master WHERE type = 'table'") { tables.append($0.text(0)) }
        #expect(tables == ["notes"])
    }

    @Test("a cache file is not taken for a cookie file, nor the other way round")
    func kindsAreTold() throws {
        let cacheFile = folder.file("c.sqlite")
        _ = try HTTPCache(fileURL: cacheFile)
        #expect(throws: CookieStorageError.self) { _ = try CookieJar(fileURL: cacheFile) }
        let jarFile = folder.file("cookies.sqlite")
        _ = try CookieJar(fileURL: jarFile)
        #expect(throws: CacheStorageError.self) { _ = try HTTPCache(fileURL: jarFile) }
    }

    @Test("a damaged cache file of the library's own is still replaced")
    func ownDamagedFileIsReplaced() throws {
        let file = folder.file("c.sqlite")
        do {
            let store = try SQLiteStore(fileURL: file, sizeLimit: 1_000_000)
            store.store(makeEntry(url: "http://h/a", body: Data(repeating: 1, count: 50_000)))
        }
        let handle = try FileHandle(forUpdating: file)
        try handle.seek(toOffset: 4096)
        handle.write(Data(repeating: 0xA5, count: 64 * 1024))
        try handle.close()
        let store = try SQLiteStore(fileURL: file, sizeLimit: 1_000_000)
        store.store(makeEntry(url: "http://h/b", body: Data(repeating: 2, count: 10)))
        #expect(store.responses(for: "http://h/b").first?.body == Data(repeating: 2, count: 10))
    }

    @Test("a file written before the library marked its files is still recognised as its own")
    func legacyCacheFileIsOwn() throws {
        let file = folder.file("c.sqlite")
        do {
            let store = try SQLiteStore(fileURL: file, sizeLimit: 1_000_000)
            store.store(makeEntry(url: "http://h/a", body: Data(repeating: 1, count: 10)))
        }
        do {
            let connection = try SQLiteConnection(path: file.path)
            try connection.execute("PRAGMA application_id = 0")
        }
        let store = try SQLiteStore(fileURL: file, sizeLimit: 1_000_000)
        #expect(store.responses(for: "http://h/a").first?.body == Data(repeating: 1, count: 10))
    }
}
