#ifndef SEGUE_CSQLITE_SHIM_H
#define SEGUE_CSQLITE_SHIM_H
// SQLite, imported by SegueService only (SQLiteDatabase): the durable queue of `segue serve`. SQLITE_TRANSIENT is a
// cast of -1 to a function pointer, which Swift cannot import: segue_sqlite_transient gives it.
#include <sqlite3.h>
static inline sqlite3_destructor_type segue_sqlite_transient(void) { return SQLITE_TRANSIENT; }
#endif
