-- The todos table: the public schema that other SQLite clients may read and write.
-- Every column but name has a default, so `INSERT INTO todos(name) VALUES ('x')` works.
-- AUTOINCREMENT: ids are never reused, so an id printed once always means that todo.
CREATE TABLE todos (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    name     TEXT    NOT NULL,
    -- A calendar date, never an instant: 'YYYY-MM-DD' and a real day. The '+0 days' modifier makes
    -- date() normalise, so an impossible day such as 2023-02-29 does not round-trip and is refused.
    deadline TEXT    CHECK (deadline IS NULL OR (
                         deadline GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'
                         AND date(deadline, '+0 days') IS deadline)),
    done     INTEGER NOT NULL DEFAULT 0 CHECK (done IN (0, 1))
);

-- The default list order: deadline ascending, undated last, then id. Matching the ORDER BY
-- expression lets SQLite stream the list in index order instead of sorting it.
CREATE INDEX todos_by_deadline ON todos (deadline IS NULL, deadline, id);

-- Marks the file as a todo database ('todo' in ASCII), so `todo` can tell its own files from
-- other applications' databases and refuse to write into those.
PRAGMA application_id = 1953457263;
