/// Where a screen's data stands: not asked for yet, on its way, here, or failed with a sentence for the user.
public enum LoadState<Value: Sendable>: Sendable {
    /// Nothing asked for yet.
    case idle
    /// A request is on its way.
    case loading
    /// The data arrived.
    case loaded(Value)
    /// The request failed; the message is one sentence to show the user.
    case failed(String)

    /// The loaded value, if any.
    public var value: Value? {
        if case .loaded(let value) = self { return value }
        return nil
    }

    /// Whether a request is on its way.
    public var isLoading: Bool {
        if case .loading = self { return true }
        return false
    }

    /// Whether nothing was asked for yet.
    public var isIdle: Bool {
        if case .idle = self { return true }
        return false
    }

    /// The failure's message, if the state is failed.
    public var errorMessage: String? {
        if case .failed(let message) = self { return message }
        return nil
    }
}

extension LoadState: Equatable where Value: Equatable {}
extension LoadState: Hashable where Value: Hashable {}
