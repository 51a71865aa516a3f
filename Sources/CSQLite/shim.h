// The session extension (changesets, for `todo undo`) is declared only when these are defined;
// Debian's libsqlite3 is built with both (PRAGMA compile_options lists ENABLE_SESSION).
#define SQLITE_ENABLE_SESSION 1
#define SQLITE_ENABLE_PREUPDATE_HOOK 1
#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro that casts -1 to a function pointer, which Swift cannot import.
// Binding with it makes SQLite copy the bytes before the call returns.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }
