import Foundation
import Synchronization

/// Middleware that lets identical GET and HEAD requests in flight share one transfer.
///
/// Requests are identical when method, URL and every header field match. Each caller gets the same response (or the
/// same failure). A caller that is cancelled stops waiting at once; the shared transfer is cancelled only when every
/// caller has left. Requests with a body, streamed requests (``ResponseDelivery/streamed``: a body has one reader),
/// and those that set ``RequestOptions/allowsCoalescing`` to `false`, go through alone.
///
/// Put it first in the chain so that one transfer, retries and all, serves everyone.
public final class CoalescingMiddleware: Middleware {
    private struct Key: Hashable {
        var method: HTTPMethod
        var url: URL
        var headers: HTTPHeaders
    }

    private typealias Continuation = CheckedContinuation<TransportResponse, any Error>

    private struct Flight {
        var id: UInt64
        var task: Task<Void, Never>?
        var callers: [UInt64: Continuation] = [:]
    }

    private struct State {
        var flights: [Key: Flight] = [:]
        var nextID: UInt64 = 0

        mutating func makeID() -> UInt64 {
            nextID &+= 1
            return nextID
        }
    }

    private let state = Mutex(State())

    /// Creates coalescing middleware. Use one instance per client (or share it between clients to coalesce across them).
    public init() {}

    /// How many distinct transfers are in flight.
    public var transfersInFlight: Int { state.withLock { $0.flights.count } }

    /// Joins an identical transfer in flight, or starts one.
    public func intercept(_ request: TransportRequest, context: MiddlewareContext, next: @escaping Next) async throws
        -> TransportResponse
    {
        // A streamed body is read once, by one reader: it cannot be shared.
        guard request.method == .get || request.method == .head, request.body == .none, request.delivery == .buffered,
            request.options.allowsCoalescing
        else { return try await next(request) }
        let key = Key(method: request.method, url: request.url, headers: request.headers)
        let caller = state.withLock { $0.makeID() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: Continuation) in
                join(key, caller: caller, continuation: continuation, request: request, next: next)
            }
        } onCancel: {
            leave(key, caller: caller)
        }
    }

    private func join(
        _ key: Key, caller: UInt64, continuation: Continuation, request: TransportRequest, next: @escaping Next
    ) {
        state.withLock { state in
            // Checked under the lock `leave` also takes: either `leave` finds this caller, or this sees the cancellation.
            if Task.isCancelled {
                continuation.resume(throwing: ErrandError.cancelled)
                return
            }
            if state.flights[key] != nil {
                state.flights[key]?.callers[caller] = continuation
                return
            }
            let id = state.makeID()
            var flight = Flight(id: id)
            flight.callers[caller] = continuation
            flight.task = Task {
                let result: Result<TransportResponse, any Error>
                do {
                    result = .success(try await next(request))
                } catch {
                    result = .failure(error)
                }
                self.land(key, id: id, result: result)
            }
            state.flights[key] = flight
        }
    }

    /// Hands the result to every caller still waiting.
    private func land(_ key: Key, id: UInt64, result: Result<TransportResponse, any Error>) {
        let callers: [Continuation] = state.withLock { state in
            guard let flight = state.flights[key], flight.id == id else { return [] }
            state.flights[key] = nil
            return Array(flight.callers.values)
        }
        for caller in callers { caller.resume(with: result) }
    }

    /// Releases a cancelled caller at once; cancels the transfer when it was the last one.
    private func leave(_ key: Key, caller: UInt64) {
        let (continuation, abandoned): (Continuation?, Task<Void, Never>?) = state.withLock { state in
            guard var flight = state.flights[key], let continuation = flight.callers.removeValue(forKey: caller) else {
                return (nil, nil)
            }
            if flight.callers.isEmpty {
                state.flights[key] = nil
                return (continuation, flight.task)
            }
            state.flights[key] = flight
            return (continuation, nil)
        }
        continuation?.resume(throwing: ErrandError.cancelled)
        abandoned?.cancel()
    }
}
