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
