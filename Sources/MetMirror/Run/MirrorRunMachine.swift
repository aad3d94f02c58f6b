/// What kind of pass over the collection a run is.
public enum MirrorRunKind: String, Sendable, Hashable {
    /// Every object of the scope, listed once and fetched.
    case full
    /// Only the objects changed since the last complete run, plus the new ones; the ones no longer listed removed.
    case update
}

/// Where a mirror stands between runs, as its database records it.
public enum MirrorPhase: Sendable, Hashable {
    /// Nothing listed yet.
    case empty
    /// A listing is stored and objects are still pending: the next run resumes it.
    case fetching(MirrorRunKind)
    /// Every listed object was fetched, skipped as not served, or failed to decode.
    case complete
}

/// The life of one run, as a state machine: each event returns the action the run takes next.
///
/// The persisted part (``phase``) moves only when a transaction commits, so a run killed at any point leaves a phase
/// the next run's ``start(update:failedWaiting:)`` can act on: a run killed while listing starts over (nothing of
/// its listing was committed), one killed while fetching resumes the pending objects.
struct MirrorRunMachine: Sendable, Hashable {
    enum State: Sendable, Hashable {
        /// Before ``start(update:failedWaiting:)``: the phase the database holds.
        case idle(MirrorPhase)
        /// Asking the Met what to fetch.
        case listing(MirrorRunKind)
        /// Fetching batches of pending objects.
        case fetching(MirrorRunKind)
        /// Nothing pending any more.
        case finished(MirrorRunKind)
        /// Ended by a failure; the database keeps the phase it had at the last commit.
        case stopped(MirrorPhase)
    }

    enum Action: Sendable, Hashable {
        /// List the scope (and, for an update, what changed), store the listing, then report ``listed(pending:)``.
        case list(MirrorRunKind)
        /// Fetch and store one batch of pending objects, then report ``batchStored(pending:)``.
        case fetchBatch
        /// Record the run as complete and report the summary.
        case complete(MirrorRunKind)
        /// The mirror is complete and nothing was asked of it: say so, fetch nothing.
        case reportComplete
        /// End the run with the failure.
        case stop
    }

    private(set) var state: State

    init(phase: MirrorPhase) {
        state = .idle(phase)
    }

    /// The phase the database holds while the machine is in its current state.
    var phase: MirrorPhase {
        switch state {
        case .idle(let phase), .stopped(let phase): return phase
        case .listing(.full): return .empty
        case .listing(.update): return .complete
        case .fetching(let kind): return .fetching(kind)
        case .finished: return .complete
        }
    }

    /// A run begins. `failedWaiting` counts objects an earlier run could not read, which a run retries.
    mutating func start(update: Bool, failedWaiting: Int) -> Action {
        guard case .idle(let phase) = state else { return invalid() }
        switch phase {
        case .empty:
            // An update needs a complete mirror to compare with; without one it is a full run.
            state = .listing(.full)
            return .list(.full)
        case .fetching(let kind):
            state = .fetching(kind)
            return .fetchBatch
        case .complete where update:
            state = .listing(.update)
            return .list(.update)
        case .complete where failedWaiting > 0:
            state = .fetching(.full)
            return .fetchBatch
        case .complete:
            state = .finished(.full)
            return .reportComplete
        }
    }

    /// The listing is stored; `pending` objects wait to be fetched.
    mutating func listed(pending: Int) -> Action {
        guard case .listing(let kind) = state else { return invalid() }
        return advance(kind, pending: pending)
    }

    /// A batch is stored; `pending` objects still wait.
    mutating func batchStored(pending: Int) -> Action {
        guard case .fetching(let kind) = state else { return invalid() }
        return advance(kind, pending: pending)
    }

    /// The run failed (the network, the Met's block, the disk); what is stored stays.
    mutating func failed() -> Action {
        state = .stopped(phase)
        return .stop
    }

    private mutating func advance(_ kind: MirrorRunKind, pending: Int) -> Action {
        if pending > 0 {
            state = .fetching(kind)
            return .fetchBatch
        }
        state = .finished(kind)
        return .complete(kind)
    }

    /// An event the state does not expect is a bug of the run's driver; stopping keeps the database as it is.
    private mutating func invalid() -> Action {
        assertionFailure("mirror run event in state \(state)")
        return failed()
    }
}
