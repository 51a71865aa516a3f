// A VFS that simulates power loss for tests; see include/PowerLossVFS.h for the model.
#include "PowerLossVFS.h"

#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SECTOR 512

/// One unsynced change to a file: the range it wrote (or truncated away) and what was there.
typedef struct Change {
    int64_t offset;
    int64_t length;       // bytes written, or bytes cut off by a truncate
    unsigned char *old;   // the bytes that were there (oldLength of them; the rest was past EOF)
    int64_t oldLength;
    int64_t oldSize;      // the file's size before the change
    int isTruncate;
} Change;

/// The unsynced changes of one file, by path (they outlive the handles that made them).
typedef struct Record {
    char *path;
    int isDatabase;
    Change *changes;
    int count, capacity;
} Record;

static struct {
    sqlite3_vfs vfs;
    sqlite3_vfs *base;
    int registered;
    Record *records;
    int recordCount, recordCapacity;
    int64_t operations;
    int64_t armedAt;
    int off;
} state;

typedef struct PowerLossFile {
    sqlite3_file base;    // must come first
    sqlite3_file *real;   // the wrapped file, allocated after this struct
    Record *record;       // NULL for files not tracked (temp files, the -shm index)
} PowerLossFile;

static Record *recordFor(const char *path, int isDatabase) {
    for (int i = 0; i < state.recordCount; i++) {
        if (strcmp(state.records[i].path, path) == 0) return &state.records[i];
    }
    if (state.recordCount == state.recordCapacity) {
        int capacity = state.recordCapacity ? state.recordCapacity * 2 : 8;
        Record *grown = realloc(state.records, sizeof(Record) * capacity);
        if (!grown) return NULL;
        state.records = grown;
        state.recordCapacity = capacity;
    }
    Record *record = &state.records[state.recordCount++];
    memset(record, 0, sizeof *record);
    record->path = strdup(path);
    record->isDatabase = isDatabase;
    return record;
}

static void forgetChanges(Record *record) {
    for (int i = 0; i < record->count; i++) free(record->changes[i].old);
    free(record->changes);
    record->changes = NULL;
    record->count = record->capacity = 0;
}

/// Counts one write, truncate or sync; false once the power is off (this call included).
static int powerStaysOn(void) {
    if (state.off) return 0;
    state.operations++;
    if (state.armedAt > 0 && state.operations >= state.armedAt) {
        state.off = 1;
        return 0;
    }
    return 1;
}

/// Remembers what the range [offset, offset + length) of `file` holds before it changes.
static int remember(PowerLossFile *file, int64_t offset, int64_t length, int isTruncate) {
    Record *record = file->record;
    sqlite3_int64 size = 0;
    int rc = file->real->pMethods->xFileSize(file->real, &size);
    if (rc != SQLITE_OK) return rc;
    if (record->count == record->capacity) {
        int capacity = record->capacity ? record->capacity * 2 : 16;
        Change *grown = realloc(record->changes, sizeof(Change) * capacity);
        if (!grown) return SQLITE_NOMEM;
        record->changes = grown;
        record->capacity = capacity;
    }
    Change *change = &record->changes[record->count];
    change->offset = offset;
    change->length = length;
    change->oldSize = size;
    change->isTruncate = isTruncate;
    change->oldLength = offset >= size ? 0 : (offset + length <= size ? length : size - offset);
    change->old = change->oldLength > 0 ? malloc((size_t)change->oldLength) : NULL;
    if (change->oldLength > 0) {
        if (!change->old) return SQLITE_NOMEM;
        rc = file->real->pMethods->xRead(file->real, change->old, (int)change->oldLength, offset);
        if (rc != SQLITE_OK) {
            free(change->old);
            return rc;
        }
    }
    record->count++;
    return SQLITE_OK;
}

// MARK: I/O methods

static int plClose(sqlite3_file *f) {
    PowerLossFile *file = (PowerLossFile *)f;
    return file->real->pMethods ? file->real->pMethods->xClose(file->real) : SQLITE_OK;
}

static int plRead(sqlite3_file *f, void *buffer, int amount, sqlite3_int64 offset) {
    PowerLossFile *file = (PowerLossFile *)f;
    return file->real->pMethods->xRead(file->real, buffer, amount, offset);
}

static int plWrite(sqlite3_file *f, const void *buffer, int amount, sqlite3_int64 offset) {
    PowerLossFile *file = (PowerLossFile *)f;
    if (file->record) {
        if (!powerStaysOn()) return SQLITE_IOERR_WRITE;
        int rc = remember(file, offset, amount, 0);
        if (rc != SQLITE_OK) return rc;
    }
    return file->real->pMethods->xWrite(file->real, buffer, amount, offset);
}

static int plTruncate(sqlite3_file *f, sqlite3_int64 size) {
    PowerLossFile *file = (PowerLossFile *)f;
    if (file->record) {
        if (!powerStaysOn()) return SQLITE_IOERR_TRUNCATE;
        sqlite3_int64 current = 0;
        int rc = file->real->pMethods->xFileSize(file->real, &current);
        if (rc != SQLITE_OK) return rc;
        if (current > size) {
            rc = remember(file, size, current - size, 1);
            if (rc != SQLITE_OK) return rc;
        }
    }
    return file->real->pMethods->xTruncate(file->real, size);
}

static int plSync(sqlite3_file *f, int flags) {
    PowerLossFile *file = (PowerLossFile *)f;
    (void)flags;
    if (!file->record) return SQLITE_OK;
    if (!powerStaysOn()) return SQLITE_IOERR_FSYNC;
    // Durable from here on. The real fsync is skipped: durability is what this file models.
    forgetChanges(file->record);
    return SQLITE_OK;
}

static int plFileSize(sqlite3_file *f, sqlite3_int64 *size) {
    PowerLossFile *file = (PowerLossFile *)f;
    return file->real->pMethods->xFileSize(file->real, size);
}

static int plLock(sqlite3_file *f, int lock) {
    PowerLossFile *file = (PowerLossFile *)f;
    return file->real->pMethods->xLock(file->real, lock);
}

static int plUnlock(sqlite3_file *f, int lock) {
    PowerLossFile *file = (PowerLossFile *)f;
    return file->real->pMethods->xUnlock(file->real, lock);
}

static int plCheckReservedLock(sqlite3_file *f, int *result) {
    PowerLossFile *file = (PowerLossFile *)f;
    return file->real->pMethods->xCheckReservedLock(file->real, result);
}

static int plFileControl(sqlite3_file *f, int op, void *argument) {
    PowerLossFile *file = (PowerLossFile *)f;
    return file->real->pMethods->xFileControl(file->real, op, argument);
}

static int plSectorSize(sqlite3_file *f) {
    PowerLossFile *file = (PowerLossFile *)f;
    return file->real->pMethods->xSectorSize(file->real);
}

static int plDeviceCharacteristics(sqlite3_file *f) {
    PowerLossFile *file = (PowerLossFile *)f;
    return file->real->pMethods->xDeviceCharacteristics(file->real);
}

static int plShmMap(sqlite3_file *f, int region, int size, int extend, void volatile **pointer) {
    PowerLossFile *file = (PowerLossFile *)f;
    return file->real->pMethods->xShmMap(file->real, region, size, extend, pointer);
}

static int plShmLock(sqlite3_file *f, int offset, int n, int flags) {
    PowerLossFile *file = (PowerLossFile *)f;
    return file->real->pMethods->xShmLock(file->real, offset, n, flags);
}

static void plShmBarrier(sqlite3_file *f) {
    PowerLossFile *file = (PowerLossFile *)f;
    file->real->pMethods->xShmBarrier(file->real);
}

static int plShmUnmap(sqlite3_file *f, int deleteFlag) {
    PowerLossFile *file = (PowerLossFile *)f;
    return file->real->pMethods->xShmUnmap(file->real, deleteFlag);
}

static int plFetch(sqlite3_file *f, sqlite3_int64 offset, int amount, void **pointer) {
    // No memory-mapped reads: every read goes through xRead.
    (void)f; (void)offset; (void)amount;
    *pointer = 0;
    return SQLITE_OK;
}

static int plUnfetch(sqlite3_file *f, sqlite3_int64 offset, void *pointer) {
    (void)f; (void)offset; (void)pointer;
    return SQLITE_OK;
}

static const sqlite3_io_methods methods = {
    3, plClose, plRead, plWrite, plTruncate, plSync, plFileSize, plLock, plUnlock,
    plCheckReservedLock, plFileControl, plSectorSize, plDeviceCharacteristics,
    plShmMap, plShmLock, plShmBarrier, plShmUnmap, plFetch, plUnfetch,
};

// MARK: VFS methods

static int plOpen(sqlite3_vfs *vfs, sqlite3_filename name, sqlite3_file *f, int flags, int *outFlags) {
    (void)vfs;
    PowerLossFile *file = (PowerLossFile *)f;
    memset(file, 0, sizeof *file);
    file->real = (sqlite3_file *)&file[1];
    int rc = state.base->xOpen(state.base, name, file->real, flags, outFlags);
    if (rc != SQLITE_OK) {
        if (file->real->pMethods) file->real->pMethods->xClose(file->real);
        file->real->pMethods = NULL;
        file->base.pMethods = NULL;
        return rc;
    }
    int tracked = flags & (SQLITE_OPEN_MAIN_DB | SQLITE_OPEN_WAL | SQLITE_OPEN_MAIN_JOURNAL);
    if (tracked && name) {
        file->record = recordFor(name, (flags & SQLITE_OPEN_MAIN_DB) != 0);
    }
    file->base.pMethods = &methods;
    return SQLITE_OK;
}

static int plDelete(sqlite3_vfs *vfs, const char *name, int syncDir) {
    (void)vfs;
    if (state.off) return SQLITE_IOERR_DELETE;
    for (int i = 0; i < state.recordCount; i++) {
        if (strcmp(state.records[i].path, name) == 0) forgetChanges(&state.records[i]);
    }
    return state.base->xDelete(state.base, name, syncDir);
}

static int plAccess(sqlite3_vfs *vfs, const char *name, int flags, int *result) {
    (void)vfs;
    return state.base->xAccess(state.base, name, flags, result);
}

static int plFullPathname(sqlite3_vfs *vfs, const char *name, int size, char *out) {
    (void)vfs;
    return state.base->xFullPathname(state.base, name, size, out);
}

static void *plDlOpen(sqlite3_vfs *vfs, const char *name) { (void)vfs; return state.base->xDlOpen(state.base, name); }
static void plDlError(sqlite3_vfs *vfs, int size, char *out) { (void)vfs; state.base->xDlError(state.base, size, out); }
static void (*plDlSym(sqlite3_vfs *vfs, void *handle, const char *symbol))(void) {
    (void)vfs;
    return state.base->xDlSym(state.base, handle, symbol);
}
static void plDlClose(sqlite3_vfs *vfs, void *handle) { (void)vfs; state.base->xDlClose(state.base, handle); }
static int plRandomness(sqlite3_vfs *vfs, int size, char *out) { (void)vfs; return state.base->xRandomness(state.base, size, out); }
static int plSleep(sqlite3_vfs *vfs, int microseconds) { (void)vfs; return state.base->xSleep(state.base, microseconds); }
static int plCurrentTime(sqlite3_vfs *vfs, double *out) { (void)vfs; return state.base->xCurrentTime(state.base, out); }
static int plGetLastError(sqlite3_vfs *vfs, int size, char *out) {
    (void)vfs;
    return state.base->xGetLastError ? state.base->xGetLastError(state.base, size, out) : 0;
}
static int plCurrentTimeInt64(sqlite3_vfs *vfs, sqlite3_int64 *out) {
    (void)vfs;
    return state.base->xCurrentTimeInt64(state.base, out);
}

int powerloss_register(void) {
    if (state.registered) return SQLITE_OK;
    state.base = sqlite3_vfs_find(NULL);
    if (!state.base) return SQLITE_ERROR;
    sqlite3_vfs *vfs = &state.vfs;
    memset(vfs, 0, sizeof *vfs);
    vfs->iVersion = 2;
    vfs->szOsFile = (int)sizeof(PowerLossFile) + state.base->szOsFile;
    vfs->mxPathname = state.base->mxPathname;
    vfs->zName = "powerloss";
    vfs->xOpen = plOpen;
    vfs->xDelete = plDelete;
    vfs->xAccess = plAccess;
    vfs->xFullPathname = plFullPathname;
    vfs->xDlOpen = plDlOpen;
    vfs->xDlError = plDlError;
    vfs->xDlSym = plDlSym;
    vfs->xDlClose = plDlClose;
    vfs->xRandomness = plRandomness;
    vfs->xSleep = plSleep;
    vfs->xCurrentTime = plCurrentTime;
    vfs->xGetLastError = plGetLastError;
    vfs->xCurrentTimeInt64 = plCurrentTimeInt64;
    int rc = sqlite3_vfs_register(vfs, 0);
    if (rc == SQLITE_OK) state.registered = 1;
    return rc;
}

void powerloss_reset(void) {
    for (int i = 0; i < state.recordCount; i++) {
        forgetChanges(&state.records[i]);
        free(state.records[i].path);
    }
    state.recordCount = 0;
    state.operations = 0;
    state.armedAt = 0;
    state.off = 0;
}

void powerloss_arm(int64_t operation) { state.armedAt = operation > 0 ? state.operations + operation : 0; }
int64_t powerloss_operations(void) { return state.operations; }
int powerloss_is_off(void) { return state.off; }

int powerloss_unsynced_database_changes(void) {
    int count = 0;
    for (int i = 0; i < state.recordCount; i++) {
        if (state.records[i].isDatabase) count += state.records[i].count;
    }
    return count;
}

/// splitmix64: a small seeded generator, so a cut is reproducible from its seed.
static uint64_t nextRandom(uint64_t *seed) {
    uint64_t z = (*seed += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static int writeAll(int descriptor, const unsigned char *bytes, int64_t length, int64_t offset) {
    while (length > 0) {
        ssize_t written = pwrite(descriptor, bytes, (size_t)length, (off_t)offset);
        if (written < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        bytes += written;
        length -= written;
        offset += written;
    }
    return 0;
}

/// Undoes `change` on disk in the sectors `keep` rejects (all of them for a drop).
static int revert(int descriptor, const Change *change, int mode, uint64_t *seed) {
    if (change->isTruncate || mode == POWERLOSS_DROP) {
        if (change->isTruncate && mode == POWERLOSS_TEAR && (nextRandom(seed) & 1)) return 0;
        int error = writeAll(descriptor, change->old, change->oldLength, change->offset);
        if (error) return error;
        return ftruncate(descriptor, (off_t)change->oldSize) == 0 ? 0 : errno;
    }
    // Torn: each sector the write touched survives or not, independently. A lost sector
    // inside the old size gets its old bytes back; one past it reads as zeros (the file grew
    // but its data never arrived).
    static const unsigned char zeros[SECTOR];
    int64_t end = change->offset + change->length;
    for (int64_t sector = change->offset / SECTOR * SECTOR; sector < end; sector += SECTOR) {
        if (nextRandom(seed) & 1) continue;
        int64_t from = sector > change->offset ? sector : change->offset;
        int64_t to = sector + SECTOR < end ? sector + SECTOR : end;
        int64_t oldEnd = change->offset + change->oldLength;
        if (from < oldEnd) {
            int64_t upto = to < oldEnd ? to : oldEnd;
            int error = writeAll(descriptor, change->old + (from - change->offset), upto - from, from);
            if (error) return error;
            from = upto;
        }
        if (from < to) {
            int error = writeAll(descriptor, zeros, to - from, from);
            if (error) return error;
        }
    }
    return 0;
}

int powerloss_cut(uint64_t seed, int mode) {
    int result = 0;
    for (int i = 0; i < state.recordCount; i++) {
        Record *record = &state.records[i];
        if (mode != POWERLOSS_KEEP && record->count > 0) {
            int descriptor = open(record->path, O_RDWR | O_CLOEXEC);
            if (descriptor >= 0) {
                // Newest first, so each change is undone onto the state it was made on.
                for (int c = record->count - 1; c >= 0 && result == 0; c--) {
                    result = revert(descriptor, &record->changes[c], mode, &seed);
                }
                close(descriptor);
            } else if (errno != ENOENT) {
                result = errno;
            }
        }
        if (record->isDatabase) {
            // The wal-index lives in shared memory: gone with the power.
            size_t length = strlen(record->path) + 5;
            char *shm = malloc(length);
            if (shm) {
                memcpy(shm, record->path, length - 5);
                memcpy(shm + length - 5, "-shm", 5);
                unlink(shm);
                free(shm);
            }
        }
    }
    powerloss_reset();
    return result;
}
