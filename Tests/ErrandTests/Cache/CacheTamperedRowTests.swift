@testable import Errand
import ErrandTesting
import Foundation
import TestSupport
import Testing

/// Rows of the cache file changed behind the library's back (through SQLite's C API, as any program could): each is a
/// miss and is deleted, never handed up.
@Suite("Disk store: tampered rows")
struct CacheTamperedRowTests {
    /// Each tampering, as the SQL that makes it.
    static let tamperings: [String] = [
        // A header value with CR LF: a field of its own on the wire, were it trusted.
        "UPDATE entries SET headers = CAST('ETag:\"x\"' || char(13, 10) || 'X-Injected:yes' || char(10) AS BLOB)",
        "UPDATE entries SET headers = CAST('ETag:a' || char(0) || 'b' || char(10) AS BLOB)",
        "UPDATE entries SET headers = CAST('Bad Name:x' || char(10) AS BLOB)",
        "UPDATE entries SET status = 700",
        "UPDATE entries SET status = 42",
        "UPDATE entries SET body = zeroblob(600000)",
        "UPDATE entries SET key = 'https://evil.example/a'",
        "UPDATE entries SET response_time = 1e300",
    ]

    @Test("a tampered row is a miss and is deleted", arguments: tamperings)
    func tamperedRow(_ sql: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.file("c.sqlite")
        do {
            let store = try SQLiteStore(fileURL: file, sizeLimit: 1_000_000)
            store.store(makeEntry(url: "http://h/a", headers: ["ETag": "\"x\""], body: Data("body".utf8)))
            #expect(store.responses(for: "http://h/a").count == 1)
        }
        do {
            let connection = try SQLiteConnection(path: file.path)
            try connection.execute(sql)
            #expect(connection.changes == 1)
        }
        let store = try SQLiteStore(fileURL: file, sizeLimit: 1_000_000)
        #expect(store.responses(for: "http://h/a").isEmpty)
        #expect(store.entryCount == 0, "the row was deleted")
    }

    @Test("a stored header with CR LF never reaches the caller; the request goes to the network")
    func injectedHeaderNeverServed() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.file("c.sqlite")
        let stub = StubTransport()
        stub.register(
            path: "/a",
            reply: .response(status: 200, headers: ["Cache-Control": "max-age=600"], body: Data("fresh".utf8)))
        let base = URL(string: "https://api.example.com")!
        func client() throws -> APIClient {
            APIClient(
                configuration: ClientConfiguration(
                    baseURL: base, transport: stub, middleware: [try HTTPCache(fileURL: file)]))
        }
        _ = try await client().send(Request<Data>(path: "/a"))
        do {
            let connection = try SQLiteConnection(path: file.path)
            try connection.execute(
                "UPDATE entries SET headers = CAST('Cache-Control:max-age=600' || char(13, 10) || 'X-Injected:yes'"
                    + " || char(10) AS BLOB)")
        }
        let response = try await client().send(Request<Data>(path: "/a"))
        #expect(response.cacheStatus != .hit)
        #expect(!response.headers.contains("X-Injected"))
        #expect(!response.headers.fields.contains { $0.value.contains("\r") || $0.value.contains("\n") })
        #expect(stub.requests.count == 2, "the tampered entry was not used")
    }

    @Test("a stored body over the request's limit is a miss, as it would fail on the network")
    func storedBodyOverTheLimit() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.file("c.sqlite")
        let stub = StubTransport()
        stub.register(
            path: "/a",
            reply: .response(
                status: 200, headers: ["Cache-Control": "max-age=600"], body: Data(repeating: 0x41, count: 5_000)))
        let base = URL(string: "https://api.example.com")!
        let cache = try HTTPCache(fileURL: file)
        let generous = APIClient(
            configuration: ClientConfiguration(baseURL: base, transport: stub, middleware: [cache]))
        _ = try await generous.send(Request<Data>(path: "/a"))
        let strict = APIClient(
            configuration: ClientConfiguration(
                baseURL: base, transport: stub, middleware: [cache], maxResponseBodySize: 1_000))
        await #expect(throws: ErrandError.self) { _ = try await strict.send(Request<Data>(path: "/a")) }
        #expect(stub.requests.count == 2, "the stored body was not served past the limit")
    }
}
