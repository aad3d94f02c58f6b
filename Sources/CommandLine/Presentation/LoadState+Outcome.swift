import FeatureState

extension LoadState {
    /// The loaded value, or the failure a tool reports for this state.
    ///
    /// A failed state is reported as its classified `failure` (the kind's exit code, the error's own sentence);
    /// a state still idle or loading means the work was cancelled before it settled, an interruption.
    public func loadedValue(failure: ClassifiedFailure?) throws(Failure) -> Value {
        switch self {
        case .loaded(let value):
            return value
        case .failed(let message):
            throw failure.map(Failure.init) ?? Failure(.failure, message)
        case .idle, .loading:
            throw Failure(.interrupted, ToolText.sentence("failure.interrupted"))
        }
    }
}

extension LoadingModel {
    /// Loads, then returns the value, or throws the ``Failure`` a tool reports (see ``LoadState/loadedValue(failure:)``).
    public func loadedValue() async throws -> Value {
        await load()
        return try state.loadedValue(failure: lastFailure?.classified)
    }
}
