/// Fetches one value per id, several at a time, and returns every outcome in input order.
///
/// Each id yields exactly one ``FanOutResult``: its value, or a typed failure (``ErrandError``); none is lost or
/// duplicated, duplicates in the input included. At most `maxConcurrent` fetches run at once; an optional
/// ``RateLimiter`` and ``ConcurrencyLimiter`` (shared with other work, say) are waited for before each fetch.
/// When the caller is cancelled, fetches in flight are cancelled and ids not yet started fail with
/// ``ErrandError/cancelled``.
///
/// ```swift
/// let fanOut = FanOut(ids, maxConcurrent: 8, rateLimiter: limiter) { id in try await museum.object(id) }
/// let run = fanOut.start()
/// Task { for await progress in run.progress { print("\(progress.completed)/\(progress.total)") } }
/// for item in await run.results() { … }
/// ```
public struct FanOut<ID: Sendable, Value: Sendable>: Sendable {
    /// Fetches one id.
    public typealias Fetch = @Sendable (ID) async throws -> Value

    /// The ids, in the order results are returned.
    public let ids: [ID]
    /// The most fetches running at once (at least 1).
    public let maxConcurrent: Int
    /// Waited for before each fetch, if any.
    public let rateLimiter: RateLimiter?
    /// Held during each fetch, if any.
    public let concurrencyLimiter: ConcurrencyLimiter?
    private let fetch: Fetch

    /// Describes a fan-out; nothing runs until ``results()`` or ``start()``.
    public init(
        _ ids: [ID], maxConcurrent: Int = 6, rateLimiter: RateLimiter? = nil,
        concurrencyLimiter: ConcurrencyLimiter? = nil, fetch: @escaping Fetch
    ) {
        self.ids = ids
        self.maxConcurrent = max(maxConcurrent, 1)
        self.rateLimiter = rateLimiter
        self.concurrencyLimiter = concurrencyLimiter
        self.fetch = fetch
    }

    /// Fetches every id and returns the outcomes in input order.
    public func results() async -> [FanOutResult<ID, Value>] {
        await run(progress: nil)
    }

    /// Starts fetching in a task of its own and returns a handle with the progress sequence and the results.
    public func start() -> FanOutRun<ID, Value> {
        let (progress, continuation) = AsyncStream.makeStream(of: FanOutProgress.self, bufferingPolicy: .unbounded)
        let task = Task {
            let results = await run(progress: continuation)
            continuation.finish()
            return results
        }
        return FanOutRun(progress: progress, task: task)
    }

    private func run(progress: AsyncStream<FanOutProgress>.Continuation?) async -> [FanOutResult<ID, Value>] {
        var outcomes = [Result<Value, ErrandError>?](repeating: nil, count: ids.count)
        var tally = FanOutProgress(completed: 0, failed: 0, total: ids.count)
        progress?.yield(tally)
        await withTaskGroup(of: (Int, Result<Value, ErrandError>).self) { group in
            var nextIndex = 0
            func startNext() {
                guard nextIndex < ids.count, !Task.isCancelled else { return }
                let index = nextIndex
                let id = ids[index]
                nextIndex += 1
                group.addTask { (index, await fetchOne(id)) }
            }
            for _ in 0..<min(maxConcurrent, ids.count) { startNext() }
            for await (index, outcome) in group {
                outcomes[index] = outcome
                tally.completed += 1
                if case .failure = outcome { tally.failed += 1 }
                progress?.yield(tally)
                startNext()
            }
        }
        // Ids never started (the caller was cancelled) still get an outcome each.
        return ids.indices.map { index in
            FanOutResult(id: ids[index], result: outcomes[index] ?? .failure(.cancelled))
        }
    }

    private func fetchOne(_ id: ID) async -> Result<Value, ErrandError> {
        do {
            try await rateLimiter?.acquire()
            if let concurrencyLimiter {
                return .success(try await concurrencyLimiter.withSlot { try await fetch(id) })
            }
            return .success(try await fetch(id))
        } catch {
            return .failure(ErrandError(error))
        }
    }
}

/// The outcome for one id of a ``FanOut``.
public struct FanOutResult<ID: Sendable, Value: Sendable>: Sendable {
    /// The id.
    public let id: ID
    /// The value, or why there is none.
    public let result: Result<Value, ErrandError>

    /// The value, if the fetch succeeded.
    public var value: Value? { try? result.get() }

    /// The failure, if the fetch failed.
    public var error: ErrandError? {
        if case .failure(let error) = result { return error }
        return nil
    }
}

/// How far a ``FanOut`` has come.
public struct FanOutProgress: Sendable, Hashable {
    /// Ids finished, successfully or not.
    public var completed: Int
    /// Of the finished ids, how many failed.
    public var failed: Int
    /// Ids in all.
    public var total: Int

    /// Creates a progress report.
    public init(completed: Int, failed: Int, total: Int) {
        self.completed = completed
        self.failed = failed
        self.total = total
    }

    /// Ids finished successfully.
    public var succeeded: Int { completed - failed }
    /// Whether every id has finished.
    public var isFinished: Bool { completed == total }
}

/// A running ``FanOut``: its progress as an `AsyncSequence`, and its results.
public struct FanOutRun<ID: Sendable, Value: Sendable>: Sendable {
    /// Progress after every finished id (and once at the start); ends when every id is done.
    public let progress: AsyncStream<FanOutProgress>
    private let task: Task<[FanOutResult<ID, Value>], Never>

    init(progress: AsyncStream<FanOutProgress>, task: Task<[FanOutResult<ID, Value>], Never>) {
        self.progress = progress
        self.task = task
    }

    /// Waits for every id; cancelling the waiting task cancels the run.
    public func results() async -> [FanOutResult<ID, Value>] {
        await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
    }

    /// Cancels fetches in flight; ids not started fail with ``ErrandError/cancelled``.
    public func cancel() {
        task.cancel()
    }
}
