/// A view model whose screen shows one fetched value: it forwards state and actions to its ``Loader``.
@MainActor
public protocol LoadingModel: AnyObject {
    /// The value the screen shows.
    associatedtype Value: Sendable
    /// How the screen presents failures.
    associatedtype Failure: PresentableFailure
    /// The loader that holds the state.
    var loader: Loader<Value, Failure> { get }
}

extension LoadingModel {
    /// The current state.
    public var state: LoadState<Value> { loader.state }
    /// Whether a refresh is on its way while the loaded value stays visible.
    public var isRefreshing: Bool { loader.isRefreshing }
    /// The last failure, with its technical description for logs.
    public var lastFailure: Failure? { loader.lastFailure }

    /// Loads, showing `loading` until the value or a failure arrives.
    public func load() async { await loader.load() }
    /// Loads only when nothing was asked for yet.
    public func loadIfIdle() async { await loader.loadIfIdle() }
    /// Loads again while the loaded value stays visible.
    public func refresh() async { await loader.refresh() }
    /// Loads again after a failure.
    public func retry() async { await loader.retry() }
}
