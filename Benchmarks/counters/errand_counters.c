/* Loaded with LD_PRELOAD by scripts/bench: counts, for errand-bench's per-request figures,
 *
 *   - allocations: every malloc, calloc, realloc, posix_memalign, aligned_alloc and memalign of the process;
 *   - jobs enqueued on Swift's global executor (swift_task_enqueueGlobal_hook): each is a task that resumes on a pool
 *     thread — a continuation resumed by the curl loop, an actor hop, a child task starting — so it counts the
 *     hand-offs that wake a thread, with no counter compiled into Errand;
 *   - wake-ups: a caller waking a curl loop that sleeps in curl_multi_poll, by curl_multi_wakeup or (Errand's loop on
 *     Linux) eventfd_write.
 *
 * errand-bench finds the three readers with dlsym and runs without this library too (it then prints no counts).
 * Relaxed atomics: a count is read after the work it counts has been awaited, and each costs one locked add. The
 * allocator itself stays glibc's, reached through its __libc_* entry points, so the counts change nothing else and
 * no dlsym runs inside malloc (dlsym allocates). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static _Atomic uint64_t allocations;
static _Atomic uint64_t enqueues;
static _Atomic uint64_t wakeups;

static inline void tally(_Atomic uint64_t *counter) {
    atomic_fetch_add_explicit(counter, 1, memory_order_relaxed);
}

void *malloc(size_t size) {
    tally(&allocations);
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    tally(&allocations);
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    tally(&allocations);
    return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
    tally(&allocations);
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    tally(&allocations);
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    tally(&allocations);
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return ENOMEM;
    *result = pointer;
    return 0;
}

/* The runtime calls the hook with Swift's calling convention and hands it the default enqueue to call on. */
typedef void (*errand_enqueue_original)(void *job) __attribute__((swiftcall));
typedef void (*errand_enqueue_hook)(void *job, errand_enqueue_original original) __attribute__((swiftcall));

__attribute__((swiftcall)) static void count_enqueue(void *job, errand_enqueue_original original) {
    tally(&enqueues);
    original(job);
}

/* Every library the program links is mapped before preloaded constructors run, so the hook is found here. */
__attribute__((constructor)) static void install_enqueue_hook(void) {
    errand_enqueue_hook *hook = (errand_enqueue_hook *)dlsym(RTLD_DEFAULT, "swift_task_enqueueGlobal_hook");
    if (hook != NULL && *hook == NULL) *hook = count_enqueue;
}

typedef int (*errand_multi_wakeup)(void *multi);

int curl_multi_wakeup(void *multi) {
    static _Atomic(errand_multi_wakeup) next;
    errand_multi_wakeup wakeup = atomic_load_explicit(&next, memory_order_relaxed);
    if (wakeup == NULL) {
        wakeup = (errand_multi_wakeup)dlsym(RTLD_NEXT, "curl_multi_wakeup");
        if (wakeup == NULL) return 1; /* CURLM_BAD_HANDLE: no libcurl behind this library */
        atomic_store_explicit(&next, wakeup, memory_order_relaxed);
    }
    tally(&wakeups);
    return wakeup(multi);
}

typedef int (*errand_eventfd_write)(int descriptor, uint64_t value);

int eventfd_write(int descriptor, uint64_t value) {
    static _Atomic(errand_eventfd_write) next;
    errand_eventfd_write write = atomic_load_explicit(&next, memory_order_relaxed);
    if (write == NULL) {
        write = (errand_eventfd_write)dlsym(RTLD_NEXT, "eventfd_write");
        if (write == NULL) {
            errno = ENOSYS;
            return -1;
        }
        atomic_store_explicit(&next, write, memory_order_relaxed);
    }
    tally(&wakeups);
    return write(descriptor, value);
}

uint64_t errand_counted_allocations(void) { return atomic_load_explicit(&allocations, memory_order_relaxed); }
uint64_t errand_counted_enqueues(void) { return atomic_load_explicit(&enqueues, memory_order_relaxed); }
uint64_t errand_counted_wakeups(void) { return atomic_load_explicit(&wakeups, memory_order_relaxed); }
