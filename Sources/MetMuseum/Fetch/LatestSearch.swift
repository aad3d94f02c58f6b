import Synchronization

/// Holds the fetch of a client's latest search, so that starting a new one cancels it.
final class LatestSearch: Sendable {
    private let current = Mutex<ObjectFetch?>(nil)

    /// Makes `fetch` the latest and cancels the one it replaces.
    func replace(with fetch: ObjectFetch) {
        current.withLock { current in
            let previous = current
            current = fetch
            return previous
        }?.cancel()
    }
}
