import Errand
import MetMuseum
import Observation

/// A search of the collection whose objects appear as they arrive, in search order, with progress and a count of
/// objects skipped.
///
/// Starting a search cancels the one before it, and nothing of the older search reaches the store afterwards: a
/// slow "cat" can never overwrite a later "rhino".
@MainActor @Observable
public final class MuseumSearchStore {
    /// Where the search stands.
    public enum State: Sendable, Hashable {
        /// No search yet (or the last one was cancelled).
        case idle
        /// Waiting for the list of matching IDs.
        case searching
        /// Fetching the objects; see ``progress``.
        case fetching
        /// Every object arrived or was skipped.
        case finished
        /// The search failed; the message is one sentence for the user.
        case failed(String)
    }

    /// Where the search stands.
    public private(set) var state: State
    /// The search shown.
    public private(set) var query: SearchQuery?
    /// How many objects matched the search in all (more than are fetched when over the limit).
    public private(set) var matches = 0
    /// The IDs the fetch started with, in search order (replacements for skipped objects follow them).
    public private(set) var objectIDs: [Int] = []
    /// How far fetching has come: completed of total, and how many were skipped.
    public private(set) var progress = FanOutProgress(completed: 0, failed: 0, total: 0)
    /// Objects skipped, and why (the collection does not have or serve them, or sent one that could not be read):
    /// in the order they were reported while fetching, in search order once finished.
    public private(set) var skipped: [SkippedObject] = []
    /// The IDs of the objects skipped, in the order of ``skipped``.
    public var skippedIDs: [Int] { skipped.map(\.id) }
    /// The last failure, with its technical description for logs.
    public private(set) var lastFailure: MuseumFailure?

    /// The objects that arrived so far, in search order (not arrival order).
    public var objects: [MetObject] { slots.compactMap { $0 } }
    /// How many objects were skipped.
    public var skippedCount: Int { skipped.count }

    private var slots: [MetObject?] = []
    @ObservationIgnored private let client: MetClient?
    @ObservationIgnored private let limit: Int
    @ObservationIgnored private let rate: Double?
    @ObservationIgnored private let concurrency: Int
    @ObservationIgnored private var generation = 0
    @ObservationIgnored private var running: ObjectFetch?

    /// Searches The Met (or a client on a stub transport, for tests).
    /// - Parameters:
    ///   - client: the SDK client the searches and object fetches go through.
    ///   - limit: how many of the matching objects to fetch.
    ///   - rate: the most object requests per second (`nil`: the SDK's default, the Met's published limit).
    ///   - concurrency: the most object requests in flight.
    public init(client: MetClient, limit: Int = 20, rate: Double? = nil, concurrency: Int = 8) {
        self.state = .idle
        self.client = client
        self.limit = limit
        self.rate = rate
        self.concurrency = concurrency
    }

    /// Fixed with some objects, for previews: nothing is fetched.
    public init(objects: [MetObject], state: State = .finished, matches: Int? = nil) {
        self.state = state
        self.client = nil
        self.limit = objects.count
        self.rate = nil
        self.concurrency = 1
        self.slots = objects
        self.objectIDs = objects.map(\.objectID)
        self.matches = matches ?? objects.count
        self.progress = FanOutProgress(completed: objects.count, failed: 0, total: objects.count)
    }

    /// Cancels the running search, if any, and runs this one; returns when it has finished, failed, or been
    /// superseded by a newer search.
    public func search(_ query: SearchQuery) async {
        guard let client else { return }
        generation += 1
        let current = generation
        running?.cancel()
        reset(for: query)
        let fetch = client.searchObjects(query, limit: limit, rate: rate, concurrency: concurrency)
        running = fetch
        do {
            for try await event in fetch {
                guard current == generation else {
                    fetch.cancel()
                    return
                }
                apply(event)
            }
        } catch {
            guard current == generation else { return }
            running = nil
            if MuseumFailure.isCancellation(error) {
                state = .idle
                return
            }
            let failure = MuseumFailure(error)
            lastFailure = failure
            state = .failed(failure.message)
            return
        }
        if current == generation { running = nil }
    }

    /// Runs the last search again (after a failure, say).
    public func retry() async {
        guard let query else { return }
        await search(query)
    }

    /// Cancels the running search; the store goes back to idle, keeping what arrived.
    public func cancel() {
        generation += 1
        running?.cancel()
        running = nil
        if state == .searching || state == .fetching { state = .idle }
    }

    private func reset(for query: SearchQuery) {
        self.query = query
        state = .searching
        matches = 0
        objectIDs = []
        slots = []
        skipped = []
        progress = FanOutProgress(completed: 0, failed: 0, total: 0)
        lastFailure = nil
    }

    private func apply(_ event: ObjectFetchEvent) {
        switch event {
        case .started(let ids, let matches):
            self.objectIDs = ids
            self.matches = matches
            slots = Array(repeating: nil, count: ids.count)
            progress = FanOutProgress(completed: 0, failed: 0, total: ids.count)
            state = ids.isEmpty ? .finished : .fetching
        case .fetched(let object, let index, let progress):
            // A replacement for a skipped object comes after the IDs the fetch started with.
            if index >= slots.count { slots += Array(repeating: nil, count: index - slots.count + 1) }
            if index >= 0 { slots[index] = object }
            self.progress = progress
        case .skipped(let skipped, let progress):
            self.skipped.append(skipped)
            self.progress = progress
        case .finished(let result):
            slots = result.objects
            skipped = result.skipped
            state = .finished
        }
    }
}
