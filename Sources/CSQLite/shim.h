#ifndef ERRAND_CSQLITE_SHIM_H
#define ERRAND_CSQLITE_SHIM_H
#include <sqlite3.h>
#endif
