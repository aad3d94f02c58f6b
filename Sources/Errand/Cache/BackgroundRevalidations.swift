/// Which stored responses are being revalidated in the background after being served stale
/// (`stale-while-revalidate`, RFC 5861): at most one revalidation per stored response at a time.
///
/// Each key (a stored response's primary and secondary key) is idle or revalidating; serving it stale while idle
/// starts a revalidation, serving it stale while one runs starts nothing, and the revalidation's end makes it idle
/// again whatever its outcome.
struct BackgroundRevalidations: Sendable {
    /// Where one key is.
    enum State: Equatable, Sendable {
        /// No revalidation runs.
        case idle
        /// One revalidation runs; more stale answers join it.
        case revalidating
    }

    /// What to do after a transition.
    enum Action: Equatable, Sendable {
        /// Start the revalidation.
        case start
        /// Nothing: one is already running, or nothing was.
        case none
    }

    private var revalidating: Set<String> = []

    /// The state of a key.
    func state(of key: String) -> State {
        revalidating.contains(key) ? .revalidating : .idle
    }

    /// A stale response was served under `key`.
    mutating func servedStale(_ key: String) -> Action {
        revalidating.insert(key).inserted ? .start : .none
    }

    /// The revalidation of `key` ended (refreshed, replaced, failed or cancelled).
    mutating func finished(_ key: String) -> Action {
        revalidating.remove(key)
        return .none
    }

    /// How many revalidations run.
    var count: Int { revalidating.count }
}
