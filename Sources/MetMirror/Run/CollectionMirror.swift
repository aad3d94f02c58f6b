import Errand
import Foundation
import MetMuseum

/// Fills a ``MirrorStore`` from The Met, politely and resumably: it lists the scope once, then fetches the pending
/// objects in batches through the SDK's bulk fetch, within the client's budget, storing each batch in one
/// transaction.
///
/// ```swift
/// let store = try MirrorStore(directory: URL(fileURLWithPath: "met"))
/// let mirror = CollectionMirror(store: store, configuration: ClientConfiguration(baseURL: MetClient.defaultBaseURL))
/// let summary = try await mirror.run(MirrorOptions()) { event in print(event) }
/// ```
/// A run stopped in any way — killed, a full disk, a lost network, the Met's block — leaves the database
/// consistent, and the next ``run(_:progress:)`` continues where it stopped without fetching a stored object
/// again. Once the mirror is complete, ``MirrorOptions/update`` refreshes it: it fetches the objects changed since
/// the newest record the mirror holds and the new ones, and removes the ones the Met no longer lists.
public struct CollectionMirror: Sendable {
    /// Where the objects go.
    public let store: MirrorStore
    /// The SDK client the listing and the objects go through.
    public let client: MetClient
    private let bodies: ServedBodies
    /// Starts timing a run: returns the time since that start, each time it is called.
    private let stopwatch: @Sendable () -> @Sendable () -> Duration

    /// Creates a mirror run over the client built from `configuration` (its middleware used as is), spending
    /// `budget` on the objects' requests.
    ///
    /// - Parameters:
    ///   - store: the mirror to fill.
    ///   - configuration: the Met's server root and the client's middleware (retries, cache, logs).
    ///   - budget: the bulk fetch's budget; default ``/MetMuseum/MetClient/defaultBudget(clock:)``, the Met's 80 requests
    ///     per second kept in every window.
    ///   - clock: times the run for progress and the summary.
    public init<C: Clock>(
        store: MirrorStore, configuration: ClientConfiguration, budget: RateLimiter = MetClient.defaultBudget(),
        clock: C = ContinuousClock()
    ) where C.Duration == Duration {
        let bodies = ServedBodies()
        var configuration = configuration
        configuration.middleware.insert(bodies, at: 0)
        self.store = store
        self.client = MetClient(configuration: configuration, rateLimiter: budget)
        self.bodies = bodies
        self.stopwatch = {
            let start = clock.now
            return { start.duration(to: clock.now) }
        }
    }

    /// Runs the mirror until nothing is pending, reporting each step to `progress`.
    ///
    /// - Throws: ``MirrorError``: what stopped the run. Everything stored before stays.
    public func run(_ options: MirrorOptions, progress: @Sendable (MirrorEvent) -> Void = { _ in })
        async throws(MirrorError) -> MirrorSummary
    {
        do {
            return try await drive(options, progress: progress)
        } catch let error as MirrorError {
            throw error
        } catch let error as MirrorStoreError {
            throw .store(error)
        } catch let error as MetError {
            throw .met(error)
        } catch {
            throw .met(.request(ErrandError(error)))
        }
    }

    private func drive(_ options: MirrorOptions, progress: (MirrorEvent) -> Void) async throws -> MirrorSummary {
        let elapsed = stopwatch()
        if let stored = try store.scope(), stored != options.scope {
            throw MirrorError.scopeMismatch(stored: stored, requested: options.scope)
        }
        let phase = try store.phase()
        let before = try store.counts()
        var machine = MirrorRunMachine(phase: phase)
        var action = machine.start(update: options.update, failedWaiting: before.failed)
        progress(
            .started(MirrorStart(phase: phase, counts: before, isResuming: phase != .empty && action == .fetchBatch)))
        var done = 0
        var changes: MirrorChanges?
        if action == .fetchBatch { _ = try store.requeueFailed() }
        while true {
            switch action {
            case .list(let kind):
                let listing = try await list(kind, scope: options.scope)
                changes = listing.changes
                progress(.listed(listing))
                action = machine.listed(pending: listing.pending)
            case .fetchBatch:
                let ids = try store.pendingIDs(limit: options.batchSize)
                do {
                    done += try await fetchBatch(ids, concurrency: options.concurrency)
                } catch {
                    _ = machine.failed()
                    throw error
                }
                _ = try await fetchImages(options.images, limit: options.batchSize, concurrency: options.concurrency)
                let counts = try store.counts()
                progress(.stored(MirrorProgress(counts: counts, doneThisRun: done, elapsed: elapsed())))
                action = machine.batchStored(pending: counts.pending)
            case .complete(let kind):
                try await fetchRemainingImages(options)
                try store.markComplete(at: Date())
                return try summary(
                    .completed(kind), changes: changes ?? (kind == .update ? store.lastChanges() : nil), done: done,
                    elapsed: elapsed())
            case .reportComplete:
                try await fetchRemainingImages(options)
                return try summary(.alreadyComplete, changes: nil, done: 0, elapsed: elapsed())
            case .stop:
                throw MirrorError.met(.request(.cancelled))
            }
        }
    }

    /// Pictures of objects stored by earlier runs (or a run killed between a batch and its pictures), until none
    /// is missing or the budget is spent.
    private func fetchRemainingImages(_ options: MirrorOptions) async throws {
        while try await fetchImages(options.images, limit: options.batchSize, concurrency: options.concurrency) > 0 {}
    }

    private func summary(_ outcome: MirrorSummary.Outcome, changes: MirrorChanges?, done: Int, elapsed: Duration)
        throws -> MirrorSummary
    {
        MirrorSummary(
            outcome: outcome, counts: try store.counts(), changes: changes, doneThisRun: done, elapsed: elapsed,
            databaseBytes: store.fileSize(), skips: try store.skips())
    }

    /// Lists the scope (and for an update what changed) and stores the listing in one transaction.
    private func list(_ kind: MirrorRunKind, scope: MirrorScope) async throws -> MirrorListing {
        let departments = try await client.departments()
        let listed = try await listIDs(scope, since: nil)
        switch kind {
        case .full:
            try store.storeListing(ids: listed, departments: departments, scope: scope)
            let counts = try store.counts()
            return MirrorListing(kind: .full, pending: counts.pending, listed: counts.listed, changes: nil)
        case .update:
            let day = try store.updateDay()
            let changed = try await listIDs(scope, since: day)
            let changes = try store.storeUpdate(listed: listed, changed: changed, departments: departments)
            let counts = try store.counts()
            return MirrorListing(kind: .update, pending: counts.pending, listed: counts.listed, changes: changes)
        }
    }

    /// The IDs of the scope, or of those of its objects changed on or after `since` (`YYYY-MM-DD`).
    private func listIDs(_ scope: MirrorScope, since day: String?) async throws(MetError) -> [Int] {
        let date = day.flatMap(Self.date(ofDay:))
        switch scope {
        case .all:
            return try await client.objectIDs(updatedSince: date).ids
        case .department(let id):
            return try await client.objectIDs(updatedSince: date, departmentIDs: [id]).ids
        case .search(let text):
            let found = try await client.search(SearchQuery(text)).ids
            guard let date else { return found }
            // The search cannot filter by date: the changed ones are those of the changed list it found.
            let changed = Set(try await client.objectIDs(updatedSince: date).ids)
            return found.filter(changed.contains)
        }
    }

    /// Fetches one batch through the SDK's bulk fetch and stores what arrived in one transaction, also when the
    /// fetch stopped midway; returns how many objects it settled.
    private func fetchBatch(_ ids: [Int], concurrency: Int) async throws -> Int {
        var batch = MirrorBatch()
        var stop: MetError?
        do {
            for try await event in client.objects(ids: ids, concurrency: concurrency) {
                switch event {
                case .fetched(let object, _, _):
                    // The served body is there unless a middleware answered without one; then the SDK's own
                    // encoding, which it decodes the same way, stands in.
                    let json = bodies.take(object.objectID) ?? (try? JSONEncoder().encode(object)) ?? Data()
                    batch.fetched.append((object, json))
                case .skipped(let skipped, _):
                    // Not served, not decodable, over the body limit: the object fails the same way on every run, so
                    // it is recorded with its reason and the run goes on; an update tries it again.
                    _ = bodies.take(skipped.id)
                    batch.skipped.append((skipped.id, Self.reason(skipped.reason)))
                case .started, .finished:
                    break
                }
            }
        } catch {
            stop = error
        }
        // Bodies still held belong to requests the stop cancelled; none of them is stored.
        bodies.removeAll()
        try store.storeBatch(batch)
        if let stop { throw stop }
        return batch.fetched.count + batch.skipped.count + batch.failed.count
    }

    private static func reason(_ error: MetError) -> String {
        switch error {
        case .notFound(_, let message), .notAvailable(_, let message): return message
        default: return error.userMessage
        }
    }

    private static func date(ofDay day: String) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        let parts = day.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        return calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2]))
    }
}

/// What a mirror run covers and how it goes about it.
public struct MirrorOptions: Sendable, Hashable {
    /// Which objects; a folder keeps the scope of its first run.
    public var scope: MirrorScope
    /// Refresh a complete mirror: fetch what changed since its newest record and the new objects, remove what is
    /// no longer listed. Ignored while a run is to be resumed (the resumed run comes first); a mirror never filled
    /// is filled in full.
    public var update: Bool
    /// Objects per batch, and so per transaction: what a kill can cost to fetch again.
    public var batchSize: Int
    /// The most object requests in flight.
    public var concurrency: Int
    /// Which pictures to keep (after each batch, within the same budget as the records).
    public var images: MirrorImages

    /// Creates options.
    public init(
        scope: MirrorScope = .all, update: Bool = false, batchSize: Int = 100, concurrency: Int = 8,
        images: MirrorImages = .none
    ) {
        self.scope = scope
        self.update = update
        self.batchSize = max(1, batchSize)
        self.concurrency = max(1, concurrency)
        self.images = images
    }
}
