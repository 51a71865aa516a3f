-- Sync with a CalDAV collection (`todo sync`). `todos` keeps its documented shape: everything
-- sync needs lives in these tables, which other programs may ignore.
--
-- A todo's UID: its identity across devices and apps (iCalendar's UID), given on its first sync
-- or by `todo import --from ics`, and kept by `todo sync forget`. Todo ids are never reused
-- (AUTOINCREMENT), so a row whose todo is gone means "deleted here"; the next sync deletes it
-- on the server too (when it was there) and then drops the row. No foreign key: other programs
-- delete todos without our code, and the row must outlive the todo to say so.
CREATE TABLE todo_uids (
    todo_id INTEGER PRIMARY KEY,
    uid     TEXT    NOT NULL UNIQUE
);

-- The one remote of this database: a CalDAV calendar collection. The password is never stored;
-- only the command that prints it. `sync_token` is the RFC 6578 token of the last sync (NULL
-- when the server offers none, or before the first sync); `feed_seq` is this reader's position
-- in the change feed (todo_changes), so a sync reads only the todos changed since the last one.
CREATE TABLE sync_remote (
    id               INTEGER PRIMARY KEY CHECK (id = 1),
    url              TEXT    NOT NULL,
    user             TEXT,
    password_command TEXT,
    sync_token       TEXT,
    last_sync        TEXT,                      -- ISO 8601 UTC, NULL before the first sync
    feed_seq         INTEGER NOT NULL DEFAULT 0
);

-- One row per object of the collection that is (or was, at the last sync) one of our todos:
-- where it is, its ETag, its text as the server has it (so properties `todo` does not use are
-- sent back unchanged), and the todo's fields as last synced: the base of the three-way merge.
CREATE TABLE sync_items (
    uid      TEXT    PRIMARY KEY,
    href     TEXT    NOT NULL UNIQUE,
    etag     TEXT,
    ics      TEXT    NOT NULL,
    name     TEXT    NOT NULL,
    deadline TEXT,
    done     INTEGER NOT NULL
);
