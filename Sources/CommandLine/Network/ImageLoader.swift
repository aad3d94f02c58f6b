import Errand
import Foundation

/// Downloads pictures for `--html` galleries through the data pipeline: each picture once, kept in an on-disk cache
/// of its own (memory only with `--no-cache`), with the run's timeout, retries and `--verbose` log. With `--offline`
/// only pictures already on disk are found.
public struct ImageLoader: Sendable {
    private let pipeline: DataPipeline

    /// Creates a loader for a tool's setup; its cache file is named after the tool (`mealdb-pictures`).
    public init(setup: ClientSetup, console: Console) {
        let client = APIClient(configuration: setup.pictureConfiguration(console: console))
        pipeline = setup.usesCache
            ? DataPipeline.standard(named: setup.cacheName + "-pictures", client: client)
            : DataPipeline(client: client)
    }

    /// The bytes of a picture.
    public func data(for url: URL) async throws(ErrandError) -> Data {
        try await pipeline.data(for: url)
    }
}
