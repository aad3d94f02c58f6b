/// When a recording writes its file: at most one write at a time, and entries that arrive during a write are
/// written by one more write after it, however many arrived (a burst of exchanges costs two writes, not one each).
struct HARWriteMachine: Sendable, Hashable {
    enum State: Sendable, Hashable {
        /// The file holds every entry so far.
        case idle
        /// A write is under way and has every entry so far.
        case writing
        /// A write is under way, and entries arrived after it began.
        case writingWithMore
    }

    /// What the recorder does next.
    enum Action: Sendable, Hashable {
        /// Write the entries as they are now.
        case write
        /// Nothing: a write under way or to come covers it.
        case none
        /// The file is up to date: wake whoever waits for it.
        case settle
    }

    private(set) var state = State.idle

    /// An entry was added.
    mutating func entryAdded() -> Action {
        switch state {
        case .idle:
            state = .writing
            return .write
        case .writing, .writingWithMore:
            state = .writingWithMore
            return .none
        }
    }

    /// The write under way ended (whether or not it could write the file: a later entry tries again).
    mutating func writeEnded() -> Action {
        switch state {
        case .idle:
            return .settle
        case .writing:
            state = .idle
            return .settle
        case .writingWithMore:
            state = .writing
            return .write
        }
    }

    /// Whether the file holds every entry so far.
    var isSettled: Bool { state == .idle }
}
