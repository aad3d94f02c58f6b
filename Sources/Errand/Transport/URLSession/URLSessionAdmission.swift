import Foundation
import Synchronization

/// How many of ``URLSessionTransport``'s exchanges run at once per server (scheme, host and port); the others wait
/// their turn in arrival order, and a cancelled waiter leaves at once.
///
/// FoundationNetworking (Linux) reads every running task's body as fast as the network delivers and queues the chunks
/// for the delegate without any backpressure, so memory grows with the number of exchanges in flight: mixed bodies of
/// up to 32 MiB peaked at about 1.2 GB with 64 in flight and 0.28 GB with 6 (`scripts/bench --memory`). Admitting
/// `httpMaximumConnectionsPerHost` exchanges per server bounds that by what the session's configuration already says.
/// Apple's URLSession schedules its tasks itself (and multiplexes HTTP/2), so there the transport admits everything.
///
/// The queue is the one curl's loop uses (``AdmissionQueue``); here it sits behind a lock, and what waits is a
/// suspended caller.
final class URLSessionAdmission: Sendable {
    /// What tells servers apart.
    typealias Server = String

    /// A caller waiting for a slot.
    ///
    /// `@unchecked Sendable` because its fields are read and written only under the admission's lock; the
    /// cancellation handler holds it only to find it in the queue under that lock.
    private final class Waiter: @unchecked Sendable {
        var continuation: CheckedContinuation<Void, any Error>?
        /// A slot was handed over before the caller finished suspending.
        var admitted = false
        /// The caller's task was cancelled before it finished suspending.
        var cancelled = false
    }

    /// Exchanges admitted per server at once.
    var perServer: Int { queue.withLock { $0.perServer } }

    private let queue: Mutex<AdmissionQueue<Server, Waiter>>

    init(perServer: Int) {
        queue = Mutex(AdmissionQueue(perServer: perServer))
    }

    /// Runs `exchange` once `url`'s server has a free slot; throws ``ErrandError/cancelled`` if the task is cancelled
    /// while waiting.
    func withSlot<Value: Sendable>(
        for url: URL, _ exchange: () async throws -> Value
    ) async throws -> Value {
        let server = Self.serverKey(of: url)
        try await acquire(server)
        defer { release(server) }
        return try await exchange()
    }

    /// How many exchanges with `url`'s server hold a slot, and how many wait for one.
    func occupancy(of url: URL) -> (running: Int, waiting: Int) {
        queue.withLock { $0.occupancy(of: Self.serverKey(of: url)) }
    }

    private func acquire(_ server: Server) async throws {
        let waiter = Waiter()
        if queue.withLock({ $0.request(waiter, at: server) }) { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let now: Result<Void, ErrandError>? = queue.withLock { _ in
                    if waiter.admitted { return .success(()) }
                    if waiter.cancelled { return .failure(.cancelled) }
                    waiter.continuation = continuation
                    return nil
                }
                if let now { continuation.resume(with: now.mapError { $0 as any Error }) }
            }
        } onCancel: {
            let continuation: CheckedContinuation<Void, any Error>? = queue.withLock { queue in
                // Admitted already: the slot is the caller's, and its exchange sees the cancellation itself.
                guard queue.withdraw(waiter, at: server) else { return nil }
                waiter.cancelled = true
                defer { waiter.continuation = nil }
                return waiter.continuation
            }
            continuation?.resume(throwing: ErrandError.cancelled)
        }
    }

    private func release(_ server: Server) {
        let continuation: CheckedContinuation<Void, any Error>? = queue.withLock { queue in
            guard let next = queue.release(at: server) else { return nil }
            next.admitted = true
            defer { next.continuation = nil }
            return next.continuation
        }
        continuation?.resume()
    }

    /// The URL's ``ServerIdentity`` as text, `scheme://host:port`: the key curl's admission uses too.
    static func serverKey(of url: URL) -> Server {
        ServerIdentity(url)?.description ?? url.absoluteString
    }
}
