#ifndef POWER_LOSS_VFS_H
#define POWER_LOSS_VFS_H

#include <stdint.h>

/// A test VFS that simulates power loss, the way SQLite's own crash tests do (test6.c).
///
/// It wraps the default VFS under the name "powerloss". Writes and truncations of database,
/// WAL and rollback-journal files reach the real file at once (as the operating system's
/// cache would have them), and are remembered, with the bytes they replaced, until the file
/// is synced: only xSync makes them durable. Real fsyncs are skipped (durability is modelled
/// here), which keeps a thousand runs fast.
///
/// A run counts write, truncate and sync calls. Armed with `powerloss_arm(n)`, the n-th such
/// call and every later one fail with SQLITE_IOERR and change nothing: the power is off.
/// `powerloss_cut(seed, mode)` then decides what survived of the unsynced changes and writes
/// that to the files: none of them, all of them, or a random choice of 512-byte sectors
/// (torn writes). The shared-memory index is volatile and is deleted.
///
/// xDelete passes through and counts as durable at once (the store runs in WAL mode, which
/// deletes no file while it runs). One process-wide state: one scenario at a time.

/// Registers the "powerloss" VFS (idempotent). Returns an SQLite result code.
int powerloss_register(void);
/// Forgets all records and counters and turns the power back on.
void powerloss_reset(void);
/// Cuts the power at the `operation`-th write/truncate/sync from now (0: never).
void powerloss_arm(int64_t operation);
/// Write, truncate and sync calls counted since the last reset.
int64_t powerloss_operations(void);
/// 1 once the power is off.
int powerloss_is_off(void);
/// Unsynced changes to main database files now: in WAL mode only a checkpoint writes there,
/// so a cut with some is a cut inside a checkpoint.
int powerloss_unsynced_database_changes(void);
/// What survives of unsynced changes at a cut.
enum { POWERLOSS_DROP = 0, POWERLOSS_KEEP = 1, POWERLOSS_TEAR = 2 };
/// Applies the cut to the files on disk (call after closing every connection), deletes the
/// `-shm` files of the database files it saw, and forgets all records. Returns 0 or an errno.
int powerloss_cut(uint64_t seed, int mode);

#endif
