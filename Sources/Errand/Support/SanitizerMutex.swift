#if ERRAND_TSAN
import Foundation

/// Only in ThreadSanitizer builds (`scripts/sanitize` compiles with `-D ERRAND_TSAN`): a mutex with the same
/// `withLock` as Synchronization's `Mutex`, over a `pthread_mutex_t`.
///
/// Synchronization's `Mutex` waits on a futex directly, which ThreadSanitizer does not follow on Linux, so every value
/// it guards would read as racing and real races would drown. Each module that locks state declares
/// `typealias Mutex = SanitizerMutex` in such builds: a declaration in the module shadows the imported `Mutex`, so no
/// call site changes. Public only so ErrandTesting and the tests can alias it too; normal builds do not have it.
public final class SanitizerMutex<Value: ~Copyable>: @unchecked Sendable {
    // @unchecked: `value` is read and written only inside `withLock`, with `lock` held.
    private var value: Value
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    /// Creates a mutex guarding `initialValue`.
    public init(_ initialValue: consuming Value) {
        value = initialValue
        pthread_mutex_init(lock, nil)
    }

    deinit {
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    public func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return try body(&value)
    }
}

typealias Mutex<Value: ~Copyable> = SanitizerMutex<Value>
#endif
