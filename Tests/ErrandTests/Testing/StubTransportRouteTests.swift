import Errand
import ErrandTesting
import Foundation
import Testing

/// StubTransport's routes match whole segments: a relative route names the path's last segments, an absolute one
/// the whole path.
@Suite("StubTransport routes")
struct StubTransportRouteTests {
    func status(of path: String, routes: [String]) async throws -> Int {
        let stub = StubTransport()
        for route in routes { stub.respond(to: route, json: "{}") }
        let client = APIClient(
            configuration: ClientConfiguration(
                baseURL: try #require(URL(string: "https://example.com")), transport: stub))
        var request = Request<Data>(path: path)
        request.acceptedStatusCodes = [200, 404]
        return try await client.send(request).status
    }

    @Test(
        "a relative route answers a path ending in its segments, whole",
        arguments: [
            ("api/json/v1/1/search.php", 200), ("api/json/v2/search.php", 200), ("research.php", 404),
            ("search.php/x", 404), ("objects/9", 200), ("objects/19", 404), ("v1/objects/9", 200),
        ])
    func relative(path: String, expected: Int) async throws {
        #expect(try await status(of: path, routes: ["search.php", "objects/9"]) == expected)
    }

    @Test("an empty route answers every path", arguments: ["search.php", "a/b/c", ""])
    func catchAll(path: String) async throws {
        #expect(try await status(of: path, routes: [""]) == 200)
    }

    @Test(
        "an absolute route answers only that whole path",
        arguments: [("api/json/v1/1/search.php", 200), ("api/json/v2/search.php", 404), ("v1/1/search.php", 404)])
    func absolute(path: String, expected: Int) async throws {
        #expect(try await status(of: path, routes: ["/api/json/v1/1/search.php"]) == expected)
    }
}
