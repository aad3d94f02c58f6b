#if ERRAND_TSAN
import Foundation

/// Only in ThreadSanitizer builds (`scripts/sanitize` compiles with `-D ERRAND_TSAN`): the module's `Mutex`, with the
/// same `withLock` as Synchronization's, over a `pthread_mutex_t`.
///
/// Synchronization's `Mutex` waits on a futex directly, which ThreadSanitizer does not follow on Linux, so every value
/// it guards would read as racing and real races would drown. A declaration in this module shadows the imported one,
/// so no call site changes. The same file is in ErrandTesting and ErrandTests, whose own state needs it too.
final class Mutex<Value: ~Copyable>: @unchecked Sendable {
    // @unchecked: `value` is read and written only inside `withLock`, with `lock` held.
    private var value: Value
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    init(_ initialValue: consuming Value) {
        value = initialValue
        pthread_mutex_init(lock, nil)
    }

    deinit {
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return try body(&value)
    }
}
#endif
