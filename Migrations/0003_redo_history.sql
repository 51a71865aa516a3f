-- The steps behind `todo redo`: what `todo undo` reverted, newest last. `changeset` re-applies
-- the step (the inverse of what undo changed), under the same conflict rule as undo. Any new
-- recorded change empties this table, as in every editor: redo continues only an undo.
CREATE TABLE todo_redo (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    command   TEXT NOT NULL,
    changeset BLOB NOT NULL
);
