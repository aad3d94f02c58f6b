/// What a screen shows in place of its content, or above it while more arrives: an invitation to act, progress, an
/// empty result or a failure, each with its sentence.
///
/// A model's `status` is `nil` when its content speaks for itself. A SwiftUI view and a terminal screen read the
/// same value, so both say the same thing in the same state.
public enum ScreenStatus: Sendable, Hashable {
    /// Nothing asked for yet: what to do.
    case hint(String)
    /// On its way: what is being loaded.
    case loading(String)
    /// Loaded, and there is nothing.
    case empty(String)
    /// Failed: the sentence for the user; the screen offers to try again.
    case failed(String)

    /// The sentence, whatever the case.
    public var text: String {
        switch self {
        case .hint(let text), .loading(let text), .empty(let text), .failed(let text): return text
        }
    }

    /// Whether the screen should offer to try again.
    public var offersRetry: Bool {
        if case .failed = self { return true }
        return false
    }
}

extension LoadState {
    /// The status of a screen that shows this state.
    ///
    /// - Parameters:
    ///   - hint: what `idle` invites the user to do; `nil` shows `idle` as loading (a screen that loads when it
    ///     appears).
    ///   - loading: what is being loaded.
    ///   - empty: the sentence for a loaded value with nothing in it.
    ///   - isEmpty: whether a loaded value has nothing to show.
    /// - Returns: `nil` for a loaded value with something to show.
    public func status(
        hint: String? = nil, loading: String, empty: String, isEmpty: (Value) -> Bool
    ) -> ScreenStatus? {
        switch self {
        case .idle: return hint.map(ScreenStatus.hint) ?? .loading(loading)
        case .loading: return .loading(loading)
        case .failed(let message): return .failed(message)
        case .loaded(let value): return isEmpty(value) ? .empty(empty) : nil
        }
    }
}

extension LoadState where Value: Collection {
    /// The status of a screen that lists this state's elements: `nil` once there is at least one.
    public func status(hint: String? = nil, loading: String, empty: String) -> ScreenStatus? {
        status(hint: hint, loading: loading, empty: empty, isEmpty: \.isEmpty)
    }
}
