import Errand
import Synchronization

/// The work of one ``ObjectFetch``: plan, fan out through the rate limiter, report every outcome, finish in order.
///
/// A fetch that wants fewer objects than it has IDs (a search's first `limit` objects) fetches the first `wanted`
/// IDs, then, for every one skipped, the next IDs in order, round after round, until it holds `wanted` objects or
/// the IDs run out. Every round goes through the same rate limiter, and the objects stay in the IDs' order: the
/// result is the first `wanted` objects the Met serves, in search order.
struct FetchRun: Sendable {
    let plan: ObjectFetch.Plan
    let fetch: ObjectFetch.FetchOne
    let rateLimiter: RateLimiter?
    let concurrency: Int
    let continuation: AsyncThrowingStream<ObjectFetchEvent, any Error>.Continuation
    let control: FetchControl

    /// What has arrived so far.
    struct Tally {
        var objects: [MetObject?]
        var skipped: [SkippedObject] = []
        var progress: FanOutProgress
        /// The first failure that stopped the fetch.
        var stop: MetError?

        init(count: Int) {
            objects = Array(repeating: nil, count: count)
            progress = FanOutProgress(completed: 0, failed: 0, total: count)
        }

        /// How many objects arrived.
        var delivered: Int { progress.completed - progress.failed }

        /// Takes `count` more IDs into the fetch.
        mutating func extend(by count: Int) {
            objects += Array(repeating: nil, count: count)
            progress.total += count
        }
    }

    func run() async {
        let ids: [Int]
        let matches: Int
        let wanted: Int
        do {
            (ids, matches, wanted) = try await plan()
        } catch {
            continuation.finish(throwing: error)
            return
        }
        var scheduled = min(wanted, ids.count)
        continuation.yield(.started(ids: Array(ids.prefix(scheduled)), matches: matches))
        let tally = SharedTally(Tally(count: scheduled))
        var round = 0..<scheduled
        while !round.isEmpty {
            let fanOut = FanOut(Array(round), maxConcurrent: concurrency, rateLimiter: rateLimiter) { index in
                try await fetchOne(ids[index], at: index, into: tally)
            }
            _ = await fanOut.results()
            let (stopped, shortfall) = tally.state.withLock { ($0.stop != nil, wanted - $0.delivered) }
            guard !stopped, !Task.isCancelled, shortfall > 0 else { break }
            // Replace the skipped objects with the next IDs, as many as are still wanted.
            let more = min(shortfall, ids.count - scheduled)
            tally.state.withLock { $0.extend(by: more) }
            round = scheduled..<(scheduled + more)
            scheduled += more
        }
        let final = tally.state.withLock { $0 }
        if let stop = final.stop {
            continuation.finish(throwing: stop)
        } else if Task.isCancelled || final.progress.completed < scheduled {
            continuation.finish(throwing: MetError.request(.cancelled))
        } else {
            continuation.yield(
                .finished(
                    FetchedObjects(
                        objects: final.objects.compactMap { $0 }, skipped: final.skipped.sorted { $0.index < $1.index },
                        matches: matches)))
            continuation.finish()
        }
    }

    private func fetchOne(_ id: Int, at index: Int, into tally: SharedTally) async throws {
        let outcome: Result<MetObject, MetError>
        do {
            outcome = .success(try await fetch(id))
        } catch {
            outcome = .failure(error)
        }
        if case .failure(let error) = outcome, !Self.skips(error) {
            tally.state.withLock { if $0.stop == nil { $0.stop = error } }
            control.stop()
            throw error
        }
        // Yielding under the lock keeps the events' progress in order.
        tally.state.withLock { tally in
            tally.progress.completed += 1
            switch outcome {
            case .success(let object):
                tally.objects[index] = object
                continuation.yield(.fetched(object, index: index, progress: tally.progress))
            case .failure(let reason):
                let skipped = SkippedObject(id: id, index: index, reason: reason)
                tally.progress.failed += 1
                tally.skipped.append(skipped)
                continuation.yield(.skipped(skipped, progress: tally.progress))
            }
        }
    }

    /// Whether a failure concerns only this object, so the fetch goes on without it: the Met does not serve it, or
    /// what it serves cannot be decoded or is larger than the body limit (which the next object does not share).
    static func skips(_ error: MetError) -> Bool {
        if error.isObjectSpecific { return true }
        switch error {
        case .request(.decoding), .request(.bodyTooLarge): return true
        default: return false
        }
    }
}

/// The tally of a run, shared by its concurrent fetches.
final class SharedTally: Sendable {
    let state: Mutex<FetchRun.Tally>

    init(_ tally: FetchRun.Tally) {
        state = Mutex(tally)
    }
}
