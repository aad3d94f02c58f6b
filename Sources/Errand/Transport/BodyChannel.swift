import Foundation
import Synchronization

/// The hand-off of a streamed body from the transport's side (curl's loop thread, URLSession's delegate queue) to the
/// reading task, with backpressure where the producer can pause.
///
/// A producer that can pause offers chunks (``offer(_:evenIfBehind:)``); once `capacity` bytes wait unread the offer
/// is refused and the transfer pauses. The reader takes chunks; when a paused channel drains to half its capacity,
/// ``take(orStore:)`` says so and the reader asks the producer to resume. A producer that cannot pause (URLSession
/// offers no way to stop a data task's socket reads) appends (``append(_:)``): nothing is refused, and a slow reader
/// of a fast body holds the difference here. At most one reader waits at a time (a `ByteStream` is iterated by one
/// task).
final class BodyChannel: Sendable {
    private struct State {
        var chunks: [Data] = []
        var next = 0
        var buffered = 0
        var paused = false
        var finished = false
        var failure: ErrandError?
        var waiter: CheckedContinuation<Data?, any Error>?
    }

    /// What a reader gets: a chunk (and whether the transfer should now resume), the end, or a failure.
    enum Take {
        case chunk(Data, resume: Bool)
        case end
        case failure(ErrandError)
        case wait
    }

    private let capacity: Int
    private let state = Mutex(State())

    /// A channel that pauses its producer once `capacity` bytes wait unread; `Int.max` for one that never does.
    init(capacity: Int = .max) {
        self.capacity = capacity
    }

    // MARK: The producer's side

    /// Accepts a chunk, or refuses it (and marks the channel paused) when the reader is `capacity` bytes behind —
    /// unless `evenIfBehind`, for bytes that cannot be offered again (decoded ones: their input is consumed).
    func offer(_ bytes: UnsafeRawBufferPointer, evenIfBehind: Bool = false) -> Bool {
        var waiter: CheckedContinuation<Data?, any Error>?
        var chunk: Data?
        let accepted = state.withLock { state in
            if state.finished { return true }
            if let pending = state.waiter {
                state.waiter = nil
                waiter = pending
                chunk = Data(bytes)
                return true
            }
            guard state.buffered < capacity || evenIfBehind else {
                state.paused = true
                return false
            }
            state.chunks.append(Data(bytes))
            state.buffered += bytes.count
            return true
        }
        waiter?.resume(returning: chunk)
        return accepted
    }

    /// Hands a chunk to the waiting reader or queues it, however far behind the reader is: for producers that cannot
    /// pause.
    func append(_ data: Data) {
        let waiter: CheckedContinuation<Data?, any Error>? = state.withLock { state in
            guard !state.finished else { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.chunks.append(data)
            state.buffered += data.count
            return nil
        }
        waiter?.resume(returning: data)
    }

    /// Whether the reader is `capacity` bytes behind, marking the channel paused when it is.
    func pauseIfBehind() -> Bool {
        state.withLock { state in
            guard !state.finished, state.waiter == nil, state.buffered >= capacity else { return false }
            state.paused = true
            return true
        }
    }

    /// Ends the body, with a failure or normally; chunks already offered can still be read.
    func finish(_ failure: ErrandError?) {
        let waiter: CheckedContinuation<Data?, any Error>? = state.withLock { state in
            guard !state.finished else { return nil }
            state.finished = true
            state.failure = failure
            defer { state.waiter = nil }
            return state.waiter
        }
        guard let waiter else { return }
        if let failure { waiter.resume(throwing: failure) } else { waiter.resume(returning: nil) }
    }

    /// Ends the body as cancelled and lets go of every chunk still queued: the reader is gone or was cancelled, so
    /// nobody reads them, and a producer that could not pause may have queued many.
    func discard() {
        finish(.cancelled)
        state.withLock { state in
            state.chunks = []
            state.next = 0
            state.buffered = 0
        }
    }

    /// Bytes queued and not yet taken.
    var bufferedByteCount: Int { state.withLock { $0.buffered } }

    // MARK: The reader's side

    /// The next chunk if one is ready, the end, a failure, or `.wait` after storing `waiter` to be resumed later.
    func take(orStore waiter: CheckedContinuation<Data?, any Error>? = nil) -> Take {
        state.withLock { state in
            if state.next < state.chunks.count {
                let chunk = state.chunks[state.next]
                // Let go of the taken chunk now: while the producer keeps appending, the array may never drain, and taken
                // chunks it still held would pile up beyond the capacity unseen.
                state.chunks[state.next] = Data()
                state.next += 1
                state.buffered -= chunk.count
                if state.next == state.chunks.count {
                    state.chunks.removeAll(keepingCapacity: true)
                    state.next = 0
                } else if state.next >= 256 {
                    state.chunks.removeFirst(state.next)
                    state.next = 0
                }
                let resume = state.paused && state.buffered <= capacity / 2
                if resume { state.paused = false }
                return .chunk(chunk, resume: resume)
            }
            if state.finished {
                return state.failure.map { .failure($0) } ?? .end
            }
            if let waiter {
                state.waiter = waiter
                // A paused channel with nothing buffered cannot happen (pausing needs a full buffer), so waiting
                // here always has a producer.
            }
            return .wait
        }
    }
}
