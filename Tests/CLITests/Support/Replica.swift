import Errand
import Foundation
import TestSupport

/// The replica's request log, to check what the server received.
enum Replica {
    struct LoggedRequest: Decodable {
        var method: String
        var path: String
        var query: String
        var headers: [String: String]
    }

    /// The replica's root URL, as `http://127.0.0.1:PORT` (no trailing slash).
    static func root() throws -> String {
        var text = try TestServer.replica.url().absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }

    /// Every request the replica logged whose path and query contain `marker`.
    static func requests(containing marker: String) async throws -> [LoggedRequest] {
        let client = APIClient(baseURL: try TestServer.replica.url())
        let data = try await client.send(Request<Data>(path: "__requests")).value
        return try JSONDecoder().decode([LoggedRequest].self, from: data).filter {
            ($0.path + "?" + $0.query).contains(marker)
        }
    }
}

extension Replica {
    /// Runs `body` while the replica answers 404 for every picture's size variant, then serves them again.
    static func withSizeVariantsMissing<T>(_ body: () async throws -> T) async throws -> T {
        try await setSizeVariants("missing")
        do {
            let value = try await body()
            try await setSizeVariants("served")
            return value
        } catch {
            try await setSizeVariants("served")
            throw error
        }
    }

    private static func setSizeVariants(_ choice: String) async throws {
        let client = APIClient(baseURL: try TestServer.replica.url())
        _ = try await client.send(
            Request<Data>(
                method: .post, path: "__settings", query: [QueryItem("size_variants", choice)]))
    }
}
