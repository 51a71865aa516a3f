-- Several lists (issue 35): every todo is in exactly one list, as every app that syncs over
-- CalDAV has it (a list is a calendar collection there). One list is the default: where a todo
-- goes when nobody says which list, `INSERT INTO todos(name) VALUES ('x')` from another program
-- included. The default is kept in the file, not in a config file, because those programs need it.
--
-- AUTOINCREMENT: a list's id is never reused, so an id remembered by a watcher or a sync link
-- never comes to mean another list. Names are unique ignoring case (NOCASE folds ASCII only;
-- `todo` also refuses names equal under Unicode case folding). A colour is '#RRGGBB' or NULL.
-- position orders the lists for display (Apple's calendar-order when synced).
CREATE TABLE lists (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    name       TEXT    NOT NULL UNIQUE COLLATE NOCASE CHECK (length(trim(name)) > 0),
    color      TEXT    CHECK (color IS NULL OR color GLOB '#[0-9A-F][0-9A-F][0-9A-F][0-9A-F][0-9A-F][0-9A-F]'),
    position   INTEGER NOT NULL DEFAULT 0,
    is_default INTEGER NOT NULL DEFAULT 0 CHECK (is_default IN (0, 1))
);
-- At most one default; the triggers below keep at least one.
CREATE UNIQUE INDEX lists_one_default ON lists (is_default) WHERE is_default = 1;
INSERT INTO lists (id, name, position, is_default) VALUES (1, 'Todos', 1, 1);

-- The todo's list. NULL only for the instant between a plain insert and the trigger below.
ALTER TABLE todos ADD COLUMN list_id INTEGER REFERENCES lists (id);
UPDATE todos SET list_id = 1;
-- `todo list --list X` streams in the default order from this index.
CREATE INDEX todos_by_list ON todos (list_id, deadline IS NULL, deadline, id);

-- A todo written without a list lands in the default list. (An INSERT ... RETURNING list_id of
-- such a row returns NULL: the row as inserted, before this trigger; `todo` names the list.)
CREATE TRIGGER todos_default_list AFTER INSERT ON todos WHEN new.list_id IS NULL
BEGIN
    UPDATE todos SET list_id = (SELECT id FROM lists WHERE is_default = 1) WHERE id = new.id;
END;
CREATE TRIGGER todos_default_list_on_update AFTER UPDATE OF list_id ON todos WHEN new.list_id IS NULL
BEGIN
    UPDATE todos SET list_id = (SELECT id FROM lists WHERE is_default = 1) WHERE id = new.id;
END;

-- Checks that hold whatever PRAGMA foreign_keys says (it is off in the sqlite3 shell and in most
-- clients): the default list stays, and a list with todos is not deleted (its todos are moved or
-- deleted first, which `todo lists rm` asks about). A todo's list_id naming no list is not refused
-- here: undo re-inserts a deleted list's todos before the list itself (a changeset applies table
-- by table), and would be refused. `todo check` reports such a todo.
CREATE TRIGGER lists_keep_default BEFORE DELETE ON lists WHEN old.is_default = 1
BEGIN
    SELECT RAISE(ABORT, 'lists: the default list cannot be deleted');
END;
CREATE TRIGGER lists_keep_nonempty BEFORE DELETE ON lists WHEN EXISTS (SELECT 1 FROM todos WHERE list_id = old.id)
BEGIN
    SELECT RAISE(ABORT, 'lists: the list still has todos');
END;

-- The lists' change feed, beside the todos' (todo_changes carries todo ids only, and its readers
-- take every entry for one): a watcher re-titles a section when any program renames, recolours
-- or reorders a list, without reading every todo again. Pruned like todo_changes.
CREATE TABLE list_changes (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id  INTEGER NOT NULL              -- the list's id; look it up to see what it is now (or that it is gone)
);
CREATE TRIGGER list_changes_after_insert AFTER INSERT ON lists
BEGIN
    INSERT INTO list_changes (id) VALUES (new.id);
END;
CREATE TRIGGER list_changes_after_update AFTER UPDATE ON lists
BEGIN
    INSERT INTO list_changes (id) VALUES (new.id);
    INSERT INTO list_changes (id) SELECT old.id WHERE old.id IS NOT new.id;
END;
CREATE TRIGGER list_changes_after_delete AFTER DELETE ON lists
BEGIN
    INSERT INTO list_changes (id) VALUES (old.id);
END;
CREATE TRIGGER list_changes_prune AFTER INSERT ON list_changes
WHEN new.seq % 1000 = 0
BEGIN
    DELETE FROM list_changes WHERE seq <= new.seq - 10000;
END;

-- The list the sync link holds: `todo sync` sends and receives that list's todos only; the others
-- stay on this device. A database set up before lists had every todo in its one list, list 1.
ALTER TABLE sync_remote ADD COLUMN list_id INTEGER NOT NULL DEFAULT 1;

-- Undo and redo entries are changesets of the row as it was (thirteen columns): they cannot
-- apply to rows of fourteen. The history before this upgrade is dropped, not misapplied.
DELETE FROM todo_history;
DELETE FROM todo_redo;
