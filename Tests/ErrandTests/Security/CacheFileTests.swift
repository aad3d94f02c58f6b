import Errand
import ErrandTesting
import Foundation
import Testing

/// The cache file's keys are SQLite values, never paths: URLs built to climb out of the cache folder add rows, not
/// files, and the folder holds only the database and SQLite's own companions, readable by the owner alone.
@Suite("Security: cache keys never become paths")
struct CacheFileTests {
    @Test func hostileURLsCreateNoFilesOutsideTheDatabase() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "errand-cache-keys-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("errand/c.sqlite")
        let cache = try HTTPCache(fileURL: file, configuration: .init(defaultTTL: .seconds(60)))
        let stub = StubTransport()
        stub.register(
            path: "", reply: .response(status: 200, headers: ["Cache-Control": "max-age=60"], body: Data("x".utf8)))
        let client = APIClient(
            configuration: ClientConfiguration(
                baseURL: URL(string: "https://api.example.com")!, transport: stub, middleware: [cache]))
        let hostile = [
            "https://api.example.com/../../../../tmp/escaped", "https://api.example.com/%2E%2E/%2E%2E/etc/passwd",
            "https://api.example.com/x?file=../../escaped", "https://api.example.com/a%00b",
            "https://api.example.com/~/x",
        ]
        for text in hostile {
            let response = try await client.send(Request<Data>(url: try #require(URL(string: text))))
            #expect(response.status == 200)
        }
        let again = try await client.send(Request<Data>(url: URL(string: hostile[1])!))
        #expect(again.cacheStatus == .hit, "the entries were stored")

        let names = Set(try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path))
        #expect(names.isSubset(of: ["c.sqlite", "c.sqlite-wal", "c.sqlite-shm", "c.sqlite-journal"]), "\(names)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["errand"])
        for name in names {
            let mode =
                try FileManager.default.attributesOfItem(
                    atPath: file.deletingLastPathComponent().appendingPathComponent(name).path)[.posixPermissions]
                as? Int
            #expect(mode.map { $0 & 0o077 } == 0, "\(name) is readable by others")
        }
    }
}
