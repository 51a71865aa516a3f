-- The change feed: which todos changed, in commit order, whoever changed them. Other programs
-- (the sqlite3 shell, Python) write `todos` without our code, so only the file itself can say
-- what they touched: these triggers write one row per changed todo id, for every writer.
-- A reader keeps the last `seq` it has seen and asks for the ids after it: a one-row commit
-- costs it one row to re-read, whatever the size of the list. `todos` keeps its shape; a plain
-- `INSERT INTO todos(name) VALUES ('x')` still works and is recorded.
--
-- The feed is pruned to about the newest 10,000 entries (every 1,000th entry drops the older
-- ones, so a write pays for it once in a thousand). A reader whose position fell behind the
-- oldest entry has missed changes and reads the whole list again. AUTOINCREMENT: a `seq` is
-- never reused, even if the table is emptied, so a position can never point at a later change.
CREATE TABLE todo_changes (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id  INTEGER NOT NULL              -- the todo's id; look it up to see what it is now (or that it is gone)
);

CREATE TRIGGER todo_changes_after_insert AFTER INSERT ON todos
BEGIN
    INSERT INTO todo_changes (id) VALUES (new.id);
END;

CREATE TRIGGER todo_changes_after_update AFTER UPDATE ON todos
BEGIN
    INSERT INTO todo_changes (id) VALUES (new.id);
    -- An update that changes the id moves the todo: the old id is gone.
    INSERT INTO todo_changes (id) SELECT old.id WHERE old.id IS NOT new.id;
END;

CREATE TRIGGER todo_changes_after_delete AFTER DELETE ON todos
BEGIN
    INSERT INTO todo_changes (id) VALUES (old.id);
END;

CREATE TRIGGER todo_changes_prune AFTER INSERT ON todo_changes
WHEN new.seq % 1000 = 0
BEGIN
    DELETE FROM todo_changes WHERE seq <= new.seq - 10000;
END;
