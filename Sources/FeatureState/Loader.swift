import Observation

/// Drives one ``LoadState`` through loading, refreshing and retrying a single fetch.
///
/// Each view model owns one. Only the latest load may change the state: a result that arrives after a
/// newer load started is dropped. A load whose task is cancelled puts back the state it found.
@MainActor @Observable
public final class Loader<Value: Sendable, Failure: PresentableFailure> {
    /// The current state.
    public private(set) var state: LoadState<Value>
    /// Whether a refresh is on its way while the loaded value stays on screen.
    public private(set) var isRefreshing = false
    /// The sentence for a refresh that failed while a loaded value stayed on screen; cleared by the next success.
    public private(set) var refreshFailureMessage: String?
    /// The last failure, with its technical description for logs.
    public private(set) var lastFailure: Failure?

    @ObservationIgnored private let fetch: (@Sendable () async throws -> Value)?
    @ObservationIgnored private var generation = 0

    /// Creates a loader that fetches with `fetch`.
    public init(fetch: @escaping @Sendable () async throws -> Value) {
        self.state = .idle
        self.fetch = fetch
    }

    /// Creates a loader fixed in a state, for previews and tests: loading does nothing.
    public init(state: LoadState<Value>) {
        self.state = state
        self.fetch = nil
    }

    /// Loads, showing `loading` until the value or the failure arrives.
    public func load() async {
        await run(keepingValue: false)
    }

    /// Loads only when nothing was loaded or asked for yet (a screen appearing again keeps what it has).
    public func loadIfIdle() async {
        guard state.isIdle else { return }
        await load()
    }

    /// Loads again while the loaded value stays visible; a failure then keeps the value and sets
    /// ``refreshFailureMessage``. Without a loaded value this is ``load()``.
    public func refresh() async {
        await run(keepingValue: state.value != nil)
    }

    /// Loads again after a failure.
    public func retry() async {
        await load()
    }

    private func run(keepingValue: Bool) async {
        guard let fetch else { return }
        generation += 1
        let current = generation
        let before = state
        if keepingValue {
            isRefreshing = true
        } else {
            state = .loading
        }
        let outcome: Result<Value, any Error>
        do {
            outcome = .success(try await fetch())
        } catch {
            outcome = .failure(error)
        }
        guard current == generation else { return }
        isRefreshing = false
        switch outcome {
        case .success(let value):
            state = .loaded(value)
            refreshFailureMessage = nil
            lastFailure = nil
        case .failure(let error):
            if Task.isCancelled || Failure.isCancellation(error) {
                state = before
                return
            }
            let failure = Failure(error)
            lastFailure = failure
            if keepingValue {
                refreshFailureMessage = failure.message
            } else {
                state = .failed(failure.message)
            }
        }
    }
}

/// A failure as a feature's screens present it: one sentence for the user, built from any error a fetch throws.
public protocol PresentableFailure: Error, Sendable {
    /// Classifies any error a fetch threw.
    init(_ error: any Error)
    /// One sentence for the user.
    var message: String { get }
    /// The failure as classified, for front ends that present the kind their own way (a tool's exit code).
    var classified: ClassifiedFailure { get }
    /// Whether an error is a cancellation rather than a failure to report.
    static func isCancellation(_ error: any Error) -> Bool
}
