-- The history behind `todo undo`: one row per command that changed todos through `todo`,
-- newest last. `changeset` is an SQLite session changeset that reverts the command (its
-- inverse, recorded when it ran); undo applies it only if none of its rows changed since, so
-- undo never overwrites another program's later edit. Only the newest 100 entries are kept.
CREATE TABLE todo_history (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    command    TEXT    NOT NULL,
    changeset  BLOB    NOT NULL,
    created_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
