import Errand

/// What happens during a bulk fetch, in the order it happens. See ``ObjectFetch``.
///
/// Progress is the fan-out's own ``/Errand/FanOutProgress``: `completed` of `total` IDs, of which `failed` were
/// skipped.
public enum ObjectFetchEvent: Sendable {
    /// The fetch knows what it will fetch: `ids` in order, and how many objects matched (a search's total; the
    /// number of IDs for a plain bulk fetch). Always the first event. A search's fetch may go on past these IDs, in
    /// search order, to replace skipped ones (see ``MetClient/searchObjects(_:limit:rate:concurrency:)``).
    case started(ids: [Int], matches: Int)
    /// One object arrived; `index` is its position in the IDs (in the search's order, past the started IDs for a
    /// replacement). Objects arrive in completion order, not ID order.
    case fetched(MetObject, index: Int, progress: FanOutProgress)
    /// One ID was skipped: the Met has no such object, does not serve it, or sent one that could not be read.
    case skipped(SkippedObject, progress: FanOutProgress)
    /// Every ID is done; the objects are in the IDs' order. Always the last event of a fetch that was not stopped.
    case finished(FetchedObjects)

    /// The progress after this event, if it reports one.
    public var progress: FanOutProgress? {
        switch self {
        case .fetched(_, _, let progress), .skipped(_, let progress): return progress
        case .started, .finished: return nil
        }
    }
}

/// An ID a bulk fetch skipped, and why.
public struct SkippedObject: Sendable {
    /// The object's ID.
    public var id: Int
    /// Its position in the IDs.
    public var index: Int
    /// Why: ``MetError/notFound(objectID:message:)``, ``MetError/notAvailable(objectID:message:)``, or a
    /// ``MetError/request(_:)`` with a decoding failure.
    public var reason: MetError

    /// Creates a skipped entry.
    public init(id: Int, index: Int, reason: MetError) {
        self.id = id
        self.index = index
        self.reason = reason
    }
}

/// The outcome of a finished bulk fetch.
public struct FetchedObjects: Sendable {
    /// The objects fetched, in the order of the IDs asked for (skipped ones left out).
    public var objects: [MetObject]
    /// The IDs skipped, in the order of the IDs asked for.
    public var skipped: [SkippedObject]
    /// How many objects matched (a search's total; the number of IDs for a plain bulk fetch).
    public var matches: Int

    /// Creates an outcome.
    public init(objects: [MetObject], skipped: [SkippedObject], matches: Int) {
        self.objects = objects
        self.skipped = skipped
        self.matches = matches
    }
}
