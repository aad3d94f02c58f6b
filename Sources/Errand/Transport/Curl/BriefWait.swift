#if canImport(CCurl)
import CCurl
import Foundation

/// Waiting without sleeping, for moments shorter than a sleeping thread takes to be woken.
enum BriefWait {
    /// Checks `isDone` until it holds or `limit` has passed; true when it held.
    ///
    /// Spins for the first `spinOnly` (the clock is read once every 64 looks), then yields the processor between
    /// looks, so a thread that needs this processor — on a busy machine, often the very thread being waited for —
    /// can run.
    static func until(_ limit: Duration, spinningFor spinOnly: Duration, _ isDone: () -> Bool) -> Bool {
        let clock = ContinuousClock()
        let started = clock.now
        let yieldsFrom = started + spinOnly
        let deadline = started + limit
        while true {
            for _ in 0..<64 {
                if isDone() { return true }
                errand_cpu_relax()
            }
            let now = clock.now
            if now >= deadline { return isDone() }
            if now >= yieldsFrom { sched_yield() }
        }
    }
}
#endif
