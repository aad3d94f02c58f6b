import Errand
import Foundation

/// Downloads pictures for `--html` galleries through the same client setup as API requests (timeouts, retries,
/// `--verbose`, `--offline`).
public struct ImageLoader: Sendable {
    private let client: APIClient

    /// Creates a loader for a tool's setup.
    public init(setup: ClientSetup, console: Console) {
        client = APIClient(configuration: setup.configuration(console: console))
    }

    /// The bytes of a picture.
    public func data(for url: URL) async throws(ErrandError) -> Data {
        try await client.send(Request<Data>(url: url, headers: ["Accept": "image/*"])).value
    }
}
