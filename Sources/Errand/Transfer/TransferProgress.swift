import Foundation
import Synchronization

/// How far a transfer has come: bytes of the request body sent and of the response body received, with the totals
/// where they are known.
///
/// Counts are body bytes as they cross the wire (before content decoding), so they compare with `Content-Length`,
/// from the first update to the last: over ``CurlTransport`` a gzip response counts its compressed bytes. URLSession
/// hands over only decoded bytes, so over it a content-coded response counts decoded bytes, from the first update to
/// the last too, with no total until the end (on Linux Errand asks for no coding unless the request names one; on
/// Apple platforms URLSession asks for gzip itself). A download that resumes counts the bytes already on disk as
/// received.
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
/// ends with the transfer: its last element carries the final counts, also after a failure. An update held back by
/// the interval goes out when the interval has passed, also when the transfer stalls and nothing else is reported.
/// A slow reader skips intermediate updates, never the last one. Use one stream for one transfer and iterate it once.
///
/// The counts are the transport's: body bytes as they cross the wire (see ``TransferProgress``), from the first
/// update to the last. Only a transfer no transport carried for this stream (an answer from the cache, a transfer
/// shared by coalescing middleware) ends with the response's own counts.
public final class TransferProgressStream: AsyncSequence, Sendable {
    /// One progress update.
    public typealias Element = TransferProgress

    private struct State {
        var latest = TransferProgress()
        var throttle: ProgressThrottle
        var timeline: Timeline
        /// Whether the timeline may still become the clock of the client the stream is passed to.
        var adoptsClock: Bool
        /// Whether a transport (or a download) reported anything.
        var hasReports = false
        /// The timer that yields an update held back by the interval.
        var flush: Task<Void, Never>?
    }

    /// The shortest time between two updates.
    public let interval: Duration
    private let state: Mutex<State>
    private let stream: AsyncStream<TransferProgress>
    private let continuation: AsyncStream<TransferProgress>.Continuation

    /// Creates a stream that yields at most one update per `interval`, measured on `clock`; without one, on the clock
    /// of the client whose `send(_:progress:)` it is passed to (``ClientConfiguration/clock``), else on the
    /// continuous clock.
    public init(interval: Duration = .milliseconds(50), clock: (any Clock<Duration>)? = nil) {
        self.interval = interval
        state = Mutex(
            State(
                throttle: ProgressThrottle(interval: interval), timeline: Timeline(clock ?? ContinuousClock()),
                adoptsClock: clock == nil))
        (stream, continuation) = AsyncStream.makeStream(of: TransferProgress.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Makes the iterator.
    public func makeAsyncIterator() -> AsyncStream<TransferProgress>.Iterator { stream.makeAsyncIterator() }

    /// The latest progress known, whether or not it was yielded yet.
    public var current: TransferProgress { state.withLock { $0.latest } }

    /// Measures the interval on the client's clock, when the stream was made without one and nothing was reported yet.
    func adopt(_ timeline: Timeline) {
        state.withLock { state in
            guard state.adoptsClock else { return }
            state.adoptsClock = false
            if case .fresh = state.throttle.state { state.timeline = timeline }
        }
    }

    /// Takes a report from a transport: merged into the latest progress, yielded when the interval since the last
    /// update has passed, else when it passes. Cheap enough to call for every chunk.
    func report(_ progress: TransferProgress) {
        state.withLock { state in
            state.adoptsClock = false
            state.hasReports = true
            let merged = state.latest.merged(with: progress)
            guard merged != state.latest else { return }
            state.latest = merged
            perform(state.throttle.changed(at: state.timeline.now), &state)
        }
    }

    /// Ends the sequence with the latest counts; later reports are ignored.
    func finish() {
        finish { _, _ in }
    }

    /// Ends the sequence after a transfer completed, and each total becomes its count (what arrived is now all there
    /// is), so the last element reads complete. `final` holds the response's counts: they count where no transport
    /// reported (a cached answer), and for the bytes sent; the bytes received stay the transport's, which count
    /// what crossed the wire, where the response's are decoded.
    func finish(completing final: TransferProgress) {
        finish { latest, hasReports in
            latest = latest.merged(with: hasReports ? TransferProgress(bytesSent: final.bytesSent) : final)
            latest.totalBytesToSend = latest.bytesSent
            latest.totalBytesToReceive = latest.bytesReceived
        }
    }

    private func finish(_ update: (inout TransferProgress, Bool) -> Void) {
        state.withLock { state in
            guard case .yieldLast = state.throttle.finish() else { return }
            update(&state.latest, state.hasReports)
            perform(.yieldLast(cancelsFlush: true), &state)
        }
    }

    /// The timer's end: yields the update the interval held back, unless the sequence moved on.
    private func flushDue() {
        state.withLock { state in
            state.flush = nil
            perform(state.throttle.flushDue(at: state.timeline.now), &state)
        }
    }

    /// Carries out what the throttle decided, under the lock: yielding there keeps the elements in the order of the
    /// counts, whichever thread (the transport's, the timer's, the caller's) got there first.
    private func perform(_ action: ProgressThrottle.Action, _ state: inout State) {
        switch action {
        case .none:
            break
        case .yield:
            continuation.yield(state.latest)
        case .scheduleFlush(let deadline):
            let timeline = state.timeline
            state.flush = Task { [weak self] in
                guard (try? await timeline.sleep(until: deadline)) != nil else { return }
                self?.flushDue()
            }
        case .yieldLast:
            state.flush?.cancel()
            state.flush = nil
            continuation.yield(state.latest)
            continuation.finish()
        }
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
