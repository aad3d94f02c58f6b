#if canImport(CCurl)
import Foundation
import Synchronization

/// Hands a buffered transfer's outcome from the loop thread to the calling task, by one of two routes.
///
/// Usually the caller suspends on a continuation that the loop resumes. When an exchange is expected to finish sooner
/// than a suspended task can be woken — one request in flight to a server that has been answering within
/// ``CurlLoop/quickExchange``, as on loopback or a LAN — the caller instead watches for the outcome for that long
/// without suspending. Resuming a suspended task hands it to another thread, and that hand-off alone measured about
/// 20 µs on a 2-core virtual machine: a fifth of a whole loopback exchange.
///
/// States: pending → ready (the loop delivered first; the caller takes the outcome), or pending → awaited (the caller
/// suspended first; the loop resumes it). Whichever side comes second completes the hand-off, exactly once.
///
/// `@unchecked Sendable` because ``outcome`` and ``waiter`` are each written by one side before the state change that
/// publishes them (release) and read by the other side only after observing that change (acquire).
final class BufferedHandoff: @unchecked Sendable {
    private enum State {
        static let pending: UInt8 = 0
        static let awaited: UInt8 = 1
        static let ready: UInt8 = 2
    }

    private let state = Atomic<UInt8>(State.pending)
    private var outcome: Result<CurlResponse, ErrandError>?
    private var waiter: UnsafeContinuation<CurlResponse, any Error>?

    /// For how much of a watch the caller only spins; after that it yields the processor between looks, so the loop
    /// thread or the server, when they need this processor, can run.
    static let spinOnly = Duration.microseconds(20)

    /// Loop thread: stores the outcome; when the caller has already suspended, returns the resumption that completes
    /// the hand-off (the loop performs a pass's resumptions together, see ``CurlLoop``).
    func deliver(_ result: Result<CurlResponse, ErrandError>) -> Resumption? {
        outcome = result
        if state.compareExchange(expected: State.pending, desired: State.ready, ordering: .acquiringAndReleasing).exchanged {
            return nil
        }
        let waiter = self.waiter
        self.waiter = nil
        outcome = nil
        return waiter.map { Resumption(waiter: $0, result: result) }
    }

    /// Caller: watches for the outcome for up to `limit` without suspending; the outcome if it arrived in time.
    func watch(for limit: Duration) -> Result<CurlResponse, ErrandError>? {
        let arrived = BriefWait.until(limit, spinningFor: Self.spinOnly) {
            state.load(ordering: .acquiring) == State.ready
        }
        return arrived ? takeOutcome() : nil
    }

    /// Caller: suspends until the outcome arrives, or returns it at once when it is already there.
    func wait() async throws -> CurlResponse {
        try await withUnsafeThrowingContinuation { continuation in
            waiter = continuation
            if state.compareExchange(expected: State.pending, desired: State.awaited, ordering: .acquiringAndReleasing).exchanged {
                return
            }
            waiter = nil
            continuation.resume(with: takeOutcome().mapError { $0 })
        }
    }

    private func takeOutcome() -> Result<CurlResponse, ErrandError> {
        let result = outcome ?? .failure(.cancelled)
        outcome = nil
        return result
    }
}

/// A suspended caller and the outcome to resume it with.
struct Resumption: Sendable {
    let waiter: UnsafeContinuation<CurlResponse, any Error>
    let result: Result<CurlResponse, ErrandError>

    /// Resumes the caller; call exactly once.
    func perform() {
        waiter.resume(with: result.mapError { $0 })
    }
}

/// A buffered response as the loop thread hands it over. The caller's task completes it with
/// ``CurlTransfer/takeResponse(_:)``: the header strings and the metrics are made there, off the loop thread.
struct CurlResponse: Sendable {
    let status: Int
    /// The header fields, when they were collected as they arrived; otherwise empty, and read from the handle.
    let head: ResponseHead
    let body: Data
    let url: URL
    /// How long the whole exchange took, up to the loop's noticing its end.
    let total: Duration
}
#endif
