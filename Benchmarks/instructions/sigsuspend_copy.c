/* Loaded with LD_PRELOAD under valgrind only (scripts/bench --instructions).
 *
 * Valgrind 3.19 rewrites the signal mask passed to rt_sigsuspend in place, and libdispatch's main loop (which an
 * async `main` ends in) passes a mask held in read-only memory, so valgrind itself crashes. Passing a copy on the
 * stack instead changes nothing for the program. */
#define _GNU_SOURCE
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

int sigsuspend(const sigset_t *mask) {
    sigset_t copy = *mask;
    return (int)syscall(SYS_rt_sigsuspend, &copy, _NSIG / 8);
}
