import Errand
import MetMuseum

/// What a mirror run reports while it works, in order: ``started(_:)`` once, ``listed(_:)`` when it listed the
/// scope, ``stored(_:)`` after each batch.
public enum MirrorEvent: Sendable {
    /// The run began from what the database holds.
    case started(MirrorStart)
    /// The listing is stored: how many objects wait, and, for an update, what changed.
    case listed(MirrorListing)
    /// A batch is stored.
    case stored(MirrorProgress)
}

/// How a run began.
public struct MirrorStart: Sendable, Hashable {
    /// The phase the database held.
    public var phase: MirrorPhase
    /// The counts the database held.
    public var counts: MirrorCounts
    /// Whether the run continues an interrupted one (nothing stored is fetched again).
    public var isResuming: Bool
}

/// A stored listing.
public struct MirrorListing: Sendable, Hashable {
    /// A full listing or an update's.
    public var kind: MirrorRunKind
    /// Objects waiting to be fetched.
    public var pending: Int
    /// Every object listed.
    public var listed: Int
    /// What an update found; `nil` for a full listing.
    public var changes: MirrorChanges?
}

/// How far a run has come, after a batch.
public struct MirrorProgress: Sendable, Hashable {
    /// The database's counts now.
    public var counts: MirrorCounts
    /// Objects this run fetched, skipped or failed (not those of earlier runs).
    public var doneThisRun: Int
    /// Time since the run started, by the run's clock.
    public var elapsed: Duration

    /// Objects per second this run.
    public var objectsPerSecond: Double {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return seconds > 0 ? Double(doneThisRun) / seconds : 0
    }

    /// The time the pending objects need at this run's rate; `nil` before there is a rate.
    public var estimatedRemaining: Duration? {
        let rate = objectsPerSecond
        guard rate > 0 else { return nil }
        return .seconds(Double(counts.pending) / rate)
    }
}

/// How a run ended.
public struct MirrorSummary: Sendable, Hashable {
    /// What the run did.
    public enum Outcome: Sendable, Hashable {
        /// Every listed object is now fetched, skipped or failed.
        case completed(MirrorRunKind)
        /// The mirror was already complete and nothing else was asked: nothing was fetched.
        case alreadyComplete
    }

    /// What the run did.
    public var outcome: Outcome
    /// The database's counts at the end.
    public var counts: MirrorCounts
    /// What the update found; `nil` for a full run.
    public var changes: MirrorChanges?
    /// Objects this run fetched, skipped or failed.
    public var doneThisRun: Int
    /// The run's duration, by its clock.
    public var elapsed: Duration
    /// The database's size on disk.
    public var databaseBytes: Int
    /// Why objects were skipped, the most frequent reason first.
    public var skips: [MirrorSkips] = []
}

/// Objects skipped for one reason: not served by the Met, not decodable, or larger than the body limit. Each fails
/// the same way on every run, so a run records it and goes on; ``MirrorOptions/update`` tries them again.
public struct MirrorSkips: Sendable, Hashable {
    /// Why, as a sentence (the Met's message, or the failure's own sentence).
    public var reason: String
    /// How many objects were skipped for it.
    public var count: Int
    /// The lowest of their IDs.
    public var firstID: Int

    /// Creates a reason's count.
    public init(reason: String, count: Int, firstID: Int) {
        self.reason = reason
        self.count = count
        self.firstID = firstID
    }
}

/// Why a mirror run stopped before it completed. Whatever was stored stays; the next run continues from there.
public enum MirrorError: DescribedError {
    /// The Met (or the network) stopped the run: a 403 block, a 503 that outlasted the retries, a lost connection.
    case met(MetError)
    /// The database could not store a batch: a full disk, a damaged file.
    case store(MirrorStoreError)
    /// The folder holds a mirror of another scope.
    case scopeMismatch(stored: MirrorScope, requested: MirrorScope)

    /// One sentence for a user.
    public var userMessage: String {
        switch self {
        case .met(let error): return error.userMessage
        case .store(let error): return error.userMessage
        case .scopeMismatch(let stored, let requested):
            return "This folder mirrors \(stored), not \(requested); use another folder for another scope."
        }
    }

    /// The case and the underlying error's details, for the log.
    public var debugDescription: String {
        switch self {
        case .met(let error): return "MirrorError.met: \(error.debugDescription)"
        case .store(let error): return "MirrorError.store: \(error.debugDescription)"
        case .scopeMismatch(let stored, let requested):
            return "MirrorError.scopeMismatch(stored: \(stored), requested: \(requested))"
        }
    }
}
