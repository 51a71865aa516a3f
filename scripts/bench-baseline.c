#define _GNU_SOURCE /* timegm, gmtime_r */
/* The C baseline for scripts/bench: the same work as TodoBench, straight on libsqlite3.
 *
 *   bench-baseline insert PATH COUNT SCHEMA.sql   prints rows/s for COUNT inserts in one transaction
 *   bench-baseline fetch PATH                     prints rows/s reading every todo into structs
 *
 * Same schema (the migration file), pragmas (WAL, synchronous=FULL, busy timeout, foreign
 * keys), SQL and rows as the Swift side, so the ratio measures the wrapper and nothing else.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void check(int rc, sqlite3 *db, const char *what) {
    if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) {
        fprintf(stderr, "%s: %s\n", what, sqlite3_errmsg(db));
        exit(1);
    }
}

static sqlite3 *open_db(const char *path) {
    sqlite3 *db;
    check(sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL), db, "open");
    sqlite3_busy_timeout(db, 5000);
    check(sqlite3_exec(db, "PRAGMA foreign_keys = ON; PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;", 0, 0, 0), db, "pragmas");
    return db;
}

/* The todo's fields as todo reads them (issue 26 added priority, tags, note and the two times). */
struct todo {
    long long id; char *name; int year, month, day, has_deadline, done, priority; char *tags, *note;
    long long created, completed; int has_created, has_completed;
};

/* 'YYYY-MM-DDTHH:MM:SSZ' to seconds since 1970 (UTC), as todo parses it. */
static long long parse_utc(const char *t) {
    struct tm tm = {0};
    tm.tm_year = atoi(t) - 1900; tm.tm_mon = atoi(t + 5) - 1; tm.tm_mday = atoi(t + 8);
    tm.tm_hour = atoi(t + 11); tm.tm_min = atoi(t + 14); tm.tm_sec = atoi(t + 17);
    return (long long)timegm(&tm);
}

static char *copy_text(sqlite3_stmt *stmt, int column) {
    if (sqlite3_column_type(stmt, column) == SQLITE_NULL) return NULL;
    const unsigned char *text = sqlite3_column_text(stmt, column);
    int length = sqlite3_column_bytes(stmt, column);
    if (length == 0) return NULL;
    char *copy = malloc(length + 1);
    memcpy(copy, text, length + 1);
    return copy;
}

static int insert(const char *path, int count, const char *schema_path) {
    sqlite3 *db = open_db(path);
    FILE *f = fopen(schema_path, "r");
    if (!f) { perror(schema_path); return 1; }
    static char schema[1 << 16];
    size_t n = fread(schema, 1, sizeof schema - 1, f);
    schema[n] = 0;
    fclose(f);
    check(sqlite3_exec(db, schema, 0, 0, 0), db, "schema");

    char (*names)[32] = malloc(sizeof *names * count);
    char (*dates)[11] = malloc(sizeof *dates * count);
    for (int i = 0; i < count; i++) {
        snprintf(names[i], 32, "Todo number %d", i);
        snprintf(dates[i], 11, "2024-%02d-%02d", 1 + i % 12, 1 + i % 28);
    }
    sqlite3_stmt *stmt;
    double start = now();
    check(sqlite3_exec(db, "BEGIN IMMEDIATE TRANSACTION", 0, 0, 0), db, "begin");
    /* Every column todo's add writes, the created time read from the clock for each row as it does,
       and the list: the default list, looked up for each row as todo's add looks it up (without it,
       the trigger that puts a todo in the default list would update every row a second time). */
    check(sqlite3_prepare_v3(db, "INSERT INTO todos (name, deadline, done, priority, tags, note, created, completed, list_id) "
                             "VALUES (?, ?, ?, ?, ?, ?, ?, ?, (SELECT id FROM lists WHERE is_default = 1))", -1,
                             SQLITE_PREPARE_PERSISTENT, &stmt, NULL), db, "prepare");
    for (int i = 0; i < count; i++) {
        sqlite3_reset(stmt);
        sqlite3_bind_text(stmt, 1, names[i], -1, SQLITE_TRANSIENT);
        if (i % 3 == 0) sqlite3_bind_null(stmt, 2);
        else sqlite3_bind_text(stmt, 2, dates[i], 10, SQLITE_TRANSIENT);
        sqlite3_bind_int64(stmt, 3, i % 5 == 0);
        sqlite3_bind_int64(stmt, 4, 0);
        sqlite3_bind_text(stmt, 5, "", 0, SQLITE_STATIC);
        sqlite3_bind_null(stmt, 6);
        struct timespec clock;
        clock_gettime(CLOCK_REALTIME, &clock);
        struct tm tm;
        gmtime_r(&clock.tv_sec, &tm);
        char created[21];
        strftime(created, sizeof created, "%Y-%m-%dT%H:%M:%SZ", &tm);
        sqlite3_bind_text(stmt, 7, created, 20, SQLITE_TRANSIENT);
        if (i % 5 == 0) sqlite3_bind_text(stmt, 8, created, 20, SQLITE_TRANSIENT);
        else sqlite3_bind_null(stmt, 8);
        check(sqlite3_step(stmt), db, "insert");
    }
    check(sqlite3_exec(db, "COMMIT TRANSACTION", 0, 0, 0), db, "commit");
    double elapsed = now() - start;
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    printf("%f\n", count / elapsed);
    return 0;
}

static int fetch(const char *path) {
    sqlite3 *db = open_db(path);
    sqlite3_stmt *stmt;
    check(sqlite3_prepare_v3(db, "SELECT id, name, deadline, done, priority, tags, note, created, completed FROM todos "
                             "ORDER BY deadline IS NULL, deadline, id LIMIT ? OFFSET ?",
                             -1, SQLITE_PREPARE_PERSISTENT, &stmt, NULL), db, "prepare");
    double best = 1e9;
    for (int round = 0; round < 5; round++) {
        size_t capacity = 1024, count = 0;
        struct todo *todos = malloc(capacity * sizeof *todos);
        double start = now();
        sqlite3_reset(stmt);
        sqlite3_bind_int64(stmt, 1, -1);
        sqlite3_bind_int64(stmt, 2, 0);
        while (sqlite3_step(stmt) == SQLITE_ROW) {
            if (count == capacity) todos = realloc(todos, (capacity *= 2) * sizeof *todos);
            struct todo *t = &todos[count++];
            t->id = sqlite3_column_int64(stmt, 0);
            const unsigned char *name = sqlite3_column_text(stmt, 1);
            int length = sqlite3_column_bytes(stmt, 1);
            t->name = malloc(length + 1);
            memcpy(t->name, name, length + 1);
            t->has_deadline = sqlite3_column_type(stmt, 2) != SQLITE_NULL;
            if (t->has_deadline) {
                const char *d = (const char *)sqlite3_column_text(stmt, 2);
                t->year = atoi(d); t->month = atoi(d + 5); t->day = atoi(d + 8);
            }
            t->done = sqlite3_column_int64(stmt, 3) != 0;
            t->priority = (int)sqlite3_column_int64(stmt, 4);
            t->tags = copy_text(stmt, 5);
            t->note = copy_text(stmt, 6);
            t->has_created = sqlite3_column_type(stmt, 7) != SQLITE_NULL;
            if (t->has_created) t->created = parse_utc((const char *)sqlite3_column_text(stmt, 7));
            t->has_completed = sqlite3_column_type(stmt, 8) != SQLITE_NULL;
            if (t->has_completed) t->completed = parse_utc((const char *)sqlite3_column_text(stmt, 8));
        }
        double elapsed = (now() - start) / (count ? count : 1);
        if (elapsed < best) best = elapsed;
        for (size_t i = 0; i < count; i++) { free(todos[i].name); free(todos[i].tags); free(todos[i].note); }
        free(todos);
    }
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    printf("%f\n", 1 / best);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 5 && strcmp(argv[1], "insert") == 0) return insert(argv[2], atoi(argv[3]), argv[4]);
    if (argc == 3 && strcmp(argv[1], "fetch") == 0) return fetch(argv[2]);
    fprintf(stderr, "usage: bench-baseline insert PATH COUNT SCHEMA.sql | fetch PATH\n");
    return 2;
}
