#if ERRAND_TSAN
import Errand

/// ThreadSanitizer builds only: this module's `Mutex` is Errand's pthread-based stand-in (see `SanitizerMutex`).
typealias Mutex<Value: ~Copyable> = SanitizerMutex<Value>
#endif
