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
        pipeline =
            setup.usesCache
            ? DataPipeline.standard(named: setup.cacheName + "-pictures", client: client)
            : DataPipeline(client: client)
    }

    /// The bytes of a picture.
    public func data(for url: URL) async throws(ErrandError) -> Data {
        try await pipeline.data(for: url)
    }
}

extension GalleryWriter {
    /// Writes a tool's `--html` gallery into `folder`, its pictures fetched through an ``ImageLoader`` for the tool's
    /// setup, then tells the user (on standard error) how many pictures were saved and how many could not be had.
    /// - Throws: ``Failure`` (exit 1) when the folder or a file cannot be written.
    public func write(_ gallery: Gallery, toFolder folder: String, setup: ClientSetup, console: Console)
        async throws(Failure)
    {
        let images = ImageLoader(setup: setup, console: console)
        let report = try await write(gallery, to: URL(fileURLWithPath: folder)) { url in
            try await images.data(for: url)
        }
        if report.imagesFailed > 0 {
            console.warning(
                "\(report.imagesFailed) picture\(report.imagesFailed == 1 ? "" : "s") could not be downloaded.")
        }
        console.diagnostic(
            "Wrote \(report.indexFile.path) with \(report.imagesSaved) picture\(report.imagesSaved == 1 ? "" : "s").")
    }
}
