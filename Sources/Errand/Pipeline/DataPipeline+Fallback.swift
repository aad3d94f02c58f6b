import Foundation

extension DataPipeline {
    /// The bytes at `url`, or at `fallback` when there is nothing to have at `url`.
    ///
    /// For pictures served in several versions, such as a size variant and its original: ask for the variant, and
    /// get the original when the server has no such variant. Only failures that say the blob is not there move on to
    /// `fallback` (see ``fallsBack(after:)``); any other failure, and the fallback's own failure, is thrown. Both
    /// downloads go through the pipeline, so each is shared and kept as ``data(for:)`` describes.
    public nonisolated func data(for url: URL, fallingBackTo fallback: URL?) async throws(ErrandError) -> Data {
        do {
            return try await data(for: url)
        } catch {
            guard let fallback, fallback != url, Self.fallsBack(after: error) else { throw error }
            return try await data(for: fallback)
        }
    }

    /// Whether a failure to load a blob means "not there", so that another URL for the same blob is worth asking.
    ///
    /// True for any 4xx answer (a 404 for a missing size variant, a 403, a 410, bot protection's page among them)
    /// and for ``ErrandError/notCached(_:)`` (offline, the variant was never stored, but the original may have been);
    /// false for server errors, wire failures and cancellation, which another URL on the same server would meet too.
    public static func fallsBack(after error: ErrandError) -> Bool {
        if case .notCached = error { return true }
        guard let status = error.status else { return false }
        return (400..<500).contains(status)
    }
}
