import Foundation

/// The process-wide counts of the preloaded counting library (Benchmarks/counters/errand_counters.c, which
/// `scripts/bench` builds and preloads): allocations, jobs enqueued on Swift's global executor, and curl loop wake-ups.
///
/// Found with `dlsym`, so the benchmark runs without the library too (and elsewhere than on Linux, for which the
/// library is written): every count is then `nil`.
struct Counters: Sendable {
    let allocations: UInt64
    let enqueues: UInt64
    let wakeups: UInt64

    private typealias Reader = @convention(c) () -> UInt64

    private struct Readers: @unchecked Sendable {
        // @unchecked: C function pointers into a library that stays loaded for the process's life.
        let allocations: Reader
        let enqueues: Reader
        let wakeups: Reader
    }

    private static let readers: Readers? = {
        func reader(_ name: String) -> Reader? {
            #if os(Linux)
            // A null handle is glibc's RTLD_DEFAULT: the search covers every loaded library.
            dlsym(UnsafeMutableRawPointer(bitPattern: 0), name).map { unsafeBitCast($0, to: Reader.self) }
            #else
            nil
            #endif
        }
        guard let allocations = reader("errand_counted_allocations"), let enqueues = reader("errand_counted_enqueues"),
            let wakeups = reader("errand_counted_wakeups")
        else { return nil }
        return Readers(allocations: allocations, enqueues: enqueues, wakeups: wakeups)
    }()

    /// The counts so far; `nil` without the library.
    static func now() -> Counters? {
        readers.map { Counters(allocations: $0.allocations(), enqueues: $0.enqueues(), wakeups: $0.wakeups()) }
    }

    /// What was counted between `earlier` and this reading.
    func since(_ earlier: Counters) -> Counters {
        Counters(
            allocations: allocations - earlier.allocations, enqueues: enqueues - earlier.enqueues,
            wakeups: wakeups - earlier.wakeups)
    }
}
