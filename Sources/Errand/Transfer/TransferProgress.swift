import Foundation
import Synchronization

/// How far a transfer has come: bytes of the request body sent and of the response body received, with the totals
/// where they are known.
///
/// Counts are body bytes as they cross the wire (before content decoding), so they compare with `Content-Length`.
/// A download that resumes counts the bytes already on disk as received.
public struct TransferProgress: Sendable, Hashable {
    /// Bytes of the request body sent so far.
    public var bytesSent: Int64
    /// The size of the request body, when known.
    public var totalBytesToSend: Int64?
    /// Bytes of the response body received so far.
    public var bytesReceived: Int64
    /// The size of the response body, when the server announced it.
    public var totalBytesToReceive: Int64?

    /// Creates a progress value.
    public init(
        bytesSent: Int64 = 0, totalBytesToSend: Int64? = nil, bytesReceived: Int64 = 0,
        totalBytesToReceive: Int64? = nil
    ) {
        self.bytesSent = bytesSent
        self.totalBytesToSend = totalBytesToSend
        self.bytesReceived = bytesReceived
        self.totalBytesToReceive = totalBytesToReceive
    }

    /// The fraction of the response received, or of the request sent while nothing was received yet; `nil` when the
    /// total is unknown.
    public var fractionCompleted: Double? {
        if let total = totalBytesToReceive, total > 0 { return min(1, Double(bytesReceived) / Double(total)) }
        if bytesReceived == 0, let total = totalBytesToSend, total > 0 {
            return min(1, Double(bytesSent) / Double(total))
        }
        return nil
    }

    /// This progress combined with a later report: every count is the larger of the two, so a sequence never goes back
    /// (a redirect's next hop starts counting at zero again, and a total once known stays known).
    func merged(with later: TransferProgress) -> TransferProgress {
        TransferProgress(
            bytesSent: max(bytesSent, later.bytesSent), totalBytesToSend: later.totalBytesToSend ?? totalBytesToSend,
            bytesReceived: max(bytesReceived, later.bytesReceived),
            totalBytesToReceive: later.totalBytesToReceive ?? totalBytesToReceive)
    }
}

/// The progress of one transfer as an `AsyncSequence` of ``TransferProgress``: pass it to a call that transfers
/// (`send(_:progress:)`, ``APIClient/download(_:to:resume:progress:)``) and iterate it beside the call.
///
/// ```swift
/// let progress = TransferProgressStream()
/// async let saved = client.download(Request(url: isoURL), to: destination, progress: progress)
/// for await update in progress { print(update.bytesReceived, update.totalBytesToReceive ?? -1) }
/// let download = try await saved
/// ```
///
/// Updates are throttled (at most one per ``interval``, however small the chunks), never go back, and the sequence
/// ends with the transfer: its last element carries the final counts, also after a failure. A slow reader skips
/// intermediate updates, never the last one. Use one stream for one transfer and iterate it once.
public final class TransferProgressStream: AsyncSequence, Sendable {
    /// One progress update.
    public typealias Element = TransferProgress

    private struct State {
        var latest = TransferProgress()
        var lastYield: ContinuousClock.Instant?
        var pendingYield = false
        var finished = false
    }

    /// The shortest time between two updates.
    public let interval: Duration
    private let state = Mutex(State())
    private let stream: AsyncStream<TransferProgress>
    private let continuation: AsyncStream<TransferProgress>.Continuation

    /// Creates a stream that yields at most one update per `interval`.
    public init(interval: Duration = .milliseconds(50)) {
        self.interval = interval
        (stream, continuation) = AsyncStream.makeStream(of: TransferProgress.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Makes the iterator.
    public func makeAsyncIterator() -> AsyncStream<TransferProgress>.Iterator { stream.makeAsyncIterator() }

    /// The latest progress known, whether or not it was yielded yet.
    public var current: TransferProgress { state.withLock { $0.latest } }

    /// Takes a report from a transport: merged into the latest progress, yielded when the interval since the last
    /// update has passed. Cheap enough to call for every chunk.
    func report(_ progress: TransferProgress) {
        let now = ContinuousClock.now
        let update: TransferProgress? = state.withLock { state in
            guard !state.finished else { return nil }
            let merged = state.latest.merged(with: progress)
            guard merged != state.latest else { return nil }
            state.latest = merged
            if let last = state.lastYield, now - last < interval {
                state.pendingYield = true
                return nil
            }
            state.lastYield = now
            state.pendingYield = false
            return merged
        }
        if let update { continuation.yield(update) }
    }

    /// Ends the sequence with the latest counts; later reports are ignored.
    func finish() {
        finish { _ in }
    }

    /// Ends the sequence after a transfer completed: `final` is merged in, and each total becomes its count (what
    /// arrived is now all there is), so the last element reads complete.
    func finish(completing final: TransferProgress) {
        finish { latest in
            latest = latest.merged(with: final)
            latest.totalBytesToSend = latest.bytesSent
            latest.totalBytesToReceive = latest.bytesReceived
        }
    }

    private func finish(_ update: (inout TransferProgress) -> Void) {
        let last: TransferProgress? = state.withLock { state in
            guard !state.finished else { return nil }
            state.finished = true
            update(&state.latest)
            return state.latest
        }
        guard let last else { return }
        continuation.yield(last)
        continuation.finish()
    }
}

/// Carries a ``TransferProgressStream`` from the client to the transport in ``TransportRequest/options``.
public enum TransferProgressKey: RequestOptionKey {
    /// No one asks for progress.
    public static let defaultValue: TransferProgressStream? = nil
}

extension RequestOptions {
    /// Where the transport reports the transfer's progress; `nil` (the default) when no one asks, which costs nothing.
    public var progress: TransferProgressStream? {
        get { self[TransferProgressKey.self] }
        set { self[TransferProgressKey.self] = newValue }
    }
}
