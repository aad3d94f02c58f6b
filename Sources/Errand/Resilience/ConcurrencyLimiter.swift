import Synchronization

/// Lets at most `limit` operations run at once; the rest wait in arrival order.
///
/// A released slot goes straight to the longest waiter, so no newcomer overtakes it. A waiter whose task is cancelled
/// leaves the queue at once with ``ErrandError/cancelled`` and gives up its place. Share one instance to share one
/// limit between tasks or clients.
///
/// ```swift
/// let limiter = ConcurrencyLimiter(limit: 4)
/// let object = try await limiter.withSlot { try await museum.object(id) }
/// ```
public final class ConcurrencyLimiter: Sendable {
    /// The most operations allowed at once.
    public let limit: Int

    private struct State {
        var running = 0
        var waiters = WaiterQueue()
    }

    private let state = Mutex(State())

    /// Creates a limiter. `limit` must be at least 1 (otherwise ``acquire()`` throws ``ErrandError/invalidRequest(_:)``).
    public init(limit: Int) {
        self.limit = limit
    }

    /// How many operations hold a slot now.
    public var running: Int { state.withLock { $0.running } }

    /// How many callers are waiting for a slot.
    public var waitingCount: Int { state.withLock { $0.waiters.count } }

    /// Waits for a free slot and takes it. Every successful call must be matched by one ``release()``.
    ///
    /// Throws ``ErrandError/cancelled`` when the task is cancelled while waiting (the slot is not taken).
    public func acquire() async throws(ErrandError) {
        guard limit >= 1 else {
            throw .invalidRequest("a concurrency limit must be at least 1, not \(limit).")
        }
        let ticket: UInt64? = state.withLock { state in
            if state.waiters.isEmpty, state.running < limit {
                state.running += 1
                return nil
            }
            return state.waiters.makeTicket()
        }
        guard let ticket else { return }
        do {
            try await wait(ticket)
        } catch {
            throw .cancelled
        }
    }

    /// Gives a slot back: to the longest waiter if there is one.
    public func release() {
        let next: WaiterQueue.Continuation? = state.withLock { state in
            if let waiter = state.waiters.popFirst() { return waiter }  // the slot passes on; `running` is unchanged
            state.running = max(state.running - 1, 0)
            return nil
        }
        next?.resume()
    }

    /// Runs `operation` holding a slot, and releases it however the operation ends.
    public func withSlot<Value: Sendable>(_ operation: () async throws -> Value) async throws -> Value {
        try await acquire()
        defer { release() }
        return try await operation()
    }

    private func wait(_ ticket: UInt64) async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: WaiterQueue.Continuation) in
                state.withLock { state in
                    // Checked under the lock the cancellation handler also takes: either the handler finds this
                    // waiter, or this sees the task already cancelled.
                    if Task.isCancelled {
                        continuation.resume(throwing: CancellationError())
                        return
                    }
                    // A slot may have been released between the first check and now.
                    if state.waiters.isEmpty, state.running < limit {
                        state.running += 1
                        continuation.resume()
                        return
                    }
                    state.waiters.append(ticket, continuation)
                }
            }
        } onCancel: {
            state.withLock { $0.waiters.remove(ticket) }?.resume(throwing: CancellationError())
        }
    }
}
