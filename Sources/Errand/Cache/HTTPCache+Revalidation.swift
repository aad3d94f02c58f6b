import Synchronization

/// The background revalidations of one cache: the per-key state machine and the tasks it started.
final class BackgroundRevalidator: Sendable {
    private struct State {
        var machine = BackgroundRevalidations()
        var tasks: [String: Task<Void, Never>] = [:]
    }

    private let state = Mutex(State())

    /// Starts `work` for `key` unless a revalidation of that key runs already.
    func start(_ key: String, _ work: @escaping @Sendable () async -> Void) {
        state.withLock { state in
            guard state.machine.servedStale(key) == .start else { return }
            state.tasks[key] = Task { [self] in
                await work()
                finish(key)
            }
        }
    }

    private func finish(_ key: String) {
        state.withLock { state in
            _ = state.machine.finished(key)
            state.tasks[key] = nil
        }
    }

    /// How many revalidations run now.
    var running: Int { state.withLock { $0.machine.count } }

    /// Returns once every revalidation started so far, and any they lead to, has ended.
    func settled() async {
        while let task = state.withLock({ $0.tasks.values.first }) {
            await task.value
        }
    }
}

extension HTTPCache {
    /// Revalidates a response just served stale (`stale-while-revalidate`), in a task of its own: at most one per
    /// stored response at a time, its outcome stored as any revalidation's is. A failure is reported to the
    /// observers (with ``CacheStatus/stale``, as the caller was answered), never thrown: nobody waits for it.
    func revalidateInBackground(
        _ lookup: Lookup, stored: CachedResponse, next: @escaping Next, context: MiddlewareContext
    ) {
        var unranged = lookup
        unranged.dropRange()
        let background = unranged
        revalidator.start(stored.url + "\n" + stored.variant) { [self] in
            do {
                _ = try await forward(background, stored: stored, next: next, context: context)
            } catch {
                report(background, status: nil, error: ErrandError(error), cacheStatus: .stale, context: context)
            }
        }
    }

    /// Waits for the background revalidations started so far to end (for tests, which then look at the store).
    func backgroundRevalidationsSettled() async {
        await revalidator.settled()
    }
}
