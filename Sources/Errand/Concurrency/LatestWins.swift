import Synchronization

/// Runs one operation at a time where only the newest matters: search-as-you-type.
///
/// Each ``run(_:)`` cancels the operation started before it. A superseded call throws ``ErrandError/cancelled``,
/// never its operation's value, even when that operation had already finished. With a debounce, an operation starts
/// only after the debounce passes without a newer call, so fast typing sends one request.
///
/// ```swift
/// let search = LatestWins<[Meal]>(debounce: .milliseconds(250))
/// // on every keystroke:
/// let meals = try await search.run { try await api.search(text) }
/// ```
public final class LatestWins<Value: Sendable>: Sendable {
    /// How long an operation waits for a newer one before it starts; `nil` starts at once.
    public let debounce: Duration?
    /// The clock the debounce runs on.
    public let clock: any Clock<Duration>

    private struct State {
        var generation = 0
        var current: Task<Value, any Error>?
    }

    private let state = Mutex(State())

    /// Creates a runner whose debounce runs on `clock` (a test passes a manual one); default `ContinuousClock()`.
    public init(debounce: Duration? = nil, clock: any Clock<Duration> = ContinuousClock()) {
        self.debounce = debounce
        self.clock = clock
    }

    /// How many times ``run(_:)`` or ``cancel()`` has been called: each call supersedes everything before it.
    public var generation: Int { state.withLock { $0.generation } }

    /// Cancels the operation in flight, if any, and runs this one (after the debounce).
    ///
    /// Throws ``ErrandError/cancelled`` when a newer call or ``cancel()`` supersedes it, or when the calling task is
    /// cancelled; otherwise the operation's own failure as an ``ErrandError``.
    public func run(_ operation: @escaping @Sendable () async throws -> Value) async throws(ErrandError) -> Value {
        // A caller cancelled before it got here is already stale: it must not supersede a newer call in flight.
        guard !Task.isCancelled else { throw .cancelled }
        let debounce = debounce
        let clock = clock
        let (generation, task) = state.withLock { state in
            state.current?.cancel()
            state.generation &+= 1
            let task = Task {
                if let debounce { try await clock.sleep(for: debounce) }
                try Task.checkCancellation()
                return try await operation()
            }
            state.current = task
            return (state.generation, task)
        }
        let outcome = await withTaskCancellationHandler {
            await task.result
        } onCancel: {
            task.cancel()
        }
        let isCurrent = state.withLock { state in
            guard state.generation == generation else { return false }
            state.current = nil
            return true
        }
        guard isCurrent, !Task.isCancelled else { throw .cancelled }
        switch outcome {
        case .success(let value): return value
        case .failure(let error): throw ErrandError(error)
        }
    }

    /// Cancels the operation in flight, if any; its caller gets ``ErrandError/cancelled``.
    public func cancel() {
        state.withLock { state in
            state.current?.cancel()
            state.current = nil
            state.generation &+= 1
        }
    }
}
