#ifndef ERRAND_CSQLITE_SHIM_H
#define ERRAND_CSQLITE_SHIM_H
#include <sqlite3.h>

/* SQLITE_TRANSIENT is a cast macro Swift cannot import: it tells SQLite to copy bound text and blobs at once. */
static inline sqlite3_destructor_type errand_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}
#endif
