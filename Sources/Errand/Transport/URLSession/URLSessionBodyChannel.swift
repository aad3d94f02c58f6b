import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The hand-off of a streamed body from URLSession's delegate queue to the reading task.
///
/// Chunks are handed over as URLSession delivers them. URLSession offers no way to pause a data task's receiving
/// (suspending a running task is not defined to stop the socket reads on every platform), so chunks the reader has
/// not taken yet wait here: the reader's pace does not slow the server down, and a slow reader of a fast, large body
/// holds the difference in memory. At most one reader waits at a time.
final class URLSessionBodyChannel: Sendable {
    private struct State {
        var chunks: [Data] = []
        var next = 0
        var finished = false
        var failure: ErrandError?
        var waiter: CheckedContinuation<Data?, any Error>?
    }

    private let state = Mutex(State())

    /// Hands a chunk to the waiting reader or queues it.
    func append(_ data: Data) {
        let waiter: CheckedContinuation<Data?, any Error>? = state.withLock { state in
            guard !state.finished else { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.chunks.append(data)
            return nil
        }
        waiter?.resume(returning: data)
    }

    /// Ends the body, normally or with a failure; queued chunks can still be read.
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

    /// The next chunk, `nil` at the end; waits while nothing is queued.
    func next() async throws -> Data? {
        try await withCheckedThrowingContinuation { continuation in
            let ready: Result<Data?, ErrandError>? = state.withLock { state in
                if state.next < state.chunks.count {
                    let chunk = state.chunks[state.next]
                    // Let go of the taken chunk at once: while chunks keep arriving the queue may never drain.
                    state.chunks[state.next] = Data()
                    state.next += 1
                    if state.next == state.chunks.count {
                        state.chunks.removeAll(keepingCapacity: true)
                        state.next = 0
                    } else if state.next >= 256 {
                        state.chunks.removeFirst(state.next)
                        state.next = 0
                    }
                    return .success(chunk)
                }
                if state.finished { return state.failure.map { .failure($0) } ?? .success(nil) }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(with: ready.mapError { $0 as any Error }) }
        }
    }
}

/// The reading end of a URLSession stream; cancelling the reading task, or dropping the reader before the end,
/// cancels the data task, which closes its connection.
final class URLSessionBodyReader: Sendable {
    private let channel: URLSessionBodyChannel
    private let exchange: URLSessionExchange
    private let task: URLSessionTask

    init(channel: URLSessionBodyChannel, exchange: URLSessionExchange, task: URLSessionTask) {
        self.channel = channel
        self.exchange = exchange
        self.task = task
    }

    deinit {
        cancelTask()
    }

    private func cancelTask() {
        exchange.fail(.cancelled)
        channel.finish(.cancelled)
        task.cancel()
    }

    /// The next chunk, `nil` at the end; a cancelled task cancels the transfer and gets ``ErrandError/cancelled``.
    func next() async throws -> Data? {
        if Task.isCancelled {
            cancelTask()
            throw ErrandError.cancelled
        }
        return try await withTaskCancellationHandler {
            try await channel.next()
        } onCancel: {
            cancelTask()
        }
    }

    /// The body as a stream that keeps this reader alive while iterated.
    var byteStream: ByteStream {
        ByteStream { [self] in try await next() }
    }
}
