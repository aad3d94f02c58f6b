import Errand
import Synchronization

/// A running bulk fetch of objects: its events as an `AsyncSequence`, ending with the objects in the IDs' order.
///
/// Made by ``MetClient/objects(ids:rate:concurrency:)`` and ``MetClient/searchObjects(_:limit:rate:concurrency:)``.
/// The fetch starts at once, whether or not anyone iterates; events are buffered until read. Iterate it once:
///
/// ```swift
/// for try await event in met.objects(ids: ids) {
///     switch event {
///     case .started(let ids, _): print("fetching \(ids.count)")
///     case .fetched(let object, let index, let progress): show(object, at: index, progress)
///     case .skipped(let skipped, _): print("skipped \(skipped.id): \(skipped.reason)")
///     case .finished(let result): print("\(result.objects.count) objects")
///     }
/// }
/// ```
/// IDs the Met does not have or does not serve are skipped and reported, never fatal. Anything that concerns the
/// whole service — ``MetError/blocked(_:)``, ``MetError/serviceUnavailable(_:)``, a wire failure — stops the fetch:
/// requests in flight are cancelled and iteration throws it. ``cancel()``, a consumer that stops iterating, or a
/// cancelled consumer task stops the fetch the same way (iteration then throws ``MetError/request(_:)`` with
/// ``/Errand/ErrandError/cancelled``).
public struct ObjectFetch: AsyncSequence, Sendable {
    /// The events.
    public typealias Element = ObjectFetchEvent
    /// Iteration throws only ``MetError``.
    public typealias Failure = MetError

    /// What a fetch needs to know before it starts: the IDs, how many matched, and how many objects it wants (the
    /// IDs past the first `wanted` replace skipped ones).
    typealias Plan = @Sendable () async throws(MetError) -> (ids: [Int], matches: Int, wanted: Int)
    /// Fetches one object.
    typealias FetchOne = @Sendable (Int) async throws(MetError) -> MetObject

    private let events: AsyncThrowingStream<ObjectFetchEvent, any Error>
    private let control: FetchControl

    init(plan: @escaping Plan, fetch: @escaping FetchOne, rateLimiter: RateLimiter?, concurrency: Int) {
        let (events, continuation) = AsyncThrowingStream.makeStream(
            of: ObjectFetchEvent.self, throwing: (any Error).self, bufferingPolicy: .unbounded)
        let control = FetchControl()
        let run = FetchRun(
            plan: plan, fetch: fetch, rateLimiter: rateLimiter, concurrency: concurrency, continuation: continuation,
            control: control)
        control.attach(Task { await run.run() })
        continuation.onTermination = { _ in control.stop() }
        self.events = events
        self.control = control
    }

    /// Stops the fetch: requests in flight are cancelled, no new one starts.
    public func cancel() {
        control.stop()
    }

    /// Reads every event and returns the finished result.
    ///
    /// - Throws: what stopped the fetch, as a ``MetError``.
    public func result() async throws(MetError) -> FetchedObjects {
        for try await event in self {
            if case .finished(let result) = event { return result }
        }
        throw .request(.cancelled)
    }

    /// Starts iterating the events.
    ///
    /// When the iterator is dropped — the consumer broke out of its loop or went away — the fetch stops.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: events.makeAsyncIterator(), consumer: Consumer(control: control))
    }

    /// Iterates a fetch's events.
    public struct Iterator: AsyncIteratorProtocol {
        /// Iteration throws only ``MetError``.
        public typealias Failure = MetError

        var base: AsyncThrowingStream<ObjectFetchEvent, any Error>.Iterator
        let consumer: Consumer

        /// The next event, `nil` after the last.
        public mutating func next() async throws(MetError) -> ObjectFetchEvent? {
            do {
                return try await base.next()
            } catch {
                throw Self.metError(error)
            }
        }

        /// The next event, `nil` after the last.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(MetError) -> ObjectFetchEvent? {
            do {
                return try await base.next(isolation: actor)
            } catch {
                throw Self.metError(error)
            }
        }

        private static func metError(_ error: any Error) -> MetError {
            error as? MetError ?? .request(ErrandError(error))
        }
    }
}

/// Stops the fetch when the last copy of an iterator goes away: nobody is reading the events any more.
final class Consumer: Sendable {
    private let control: FetchControl

    init(control: FetchControl) {
        self.control = control
    }

    deinit {
        control.stop()
    }
}

/// Lets the fetch's task be cancelled from anywhere, including before it is attached.
final class FetchControl: Sendable {
    private struct State {
        var task: Task<Void, Never>?
        var isStopped = false
    }

    private let state = Mutex(State())

    func attach(_ task: Task<Void, Never>) {
        let stopped = state.withLock { state in
            state.task = task
            return state.isStopped
        }
        if stopped { task.cancel() }
    }

    func stop() {
        state.withLock { state in
            state.isStopped = true
            return state.task
        }?.cancel()
    }
}
