-- Dependencies (issue 36): a todo may wait for other todos, as taskwarrior's `depends:` and
-- iCalendar's RELATED-TO;RELTYPE=DEPENDS-ON (RFC 9253) say. A todo is blocked while it is not
-- done and waits for a todo that is not done (TodoRepository+Dependencies.swift).
--
-- One row per link: todo_id waits for depends_on. Not foreign keys, as todos.parent_id is not
-- one: undo puts a deleted todo and its links back row by row, links first (UndoHistory's
-- recordedTables), and another program may write either table alone. A link naming a todo that
-- is not there is read as no link.
CREATE TABLE dependencies (
    todo_id    INTEGER NOT NULL,  -- the todo that waits
    depends_on INTEGER NOT NULL,  -- the todo it waits for
    PRIMARY KEY (todo_id, depends_on)
);
-- The todos that wait for a todo ("blocks"), and the links a deleted todo takes along.
CREATE INDEX dependencies_by_depends_on ON dependencies (depends_on);

-- No cycles, from any program: a todo cannot wait for itself, nor for a todo that waits for it
-- (directly or through others), or nothing in the cycle could ever be done first. The walk
-- from the todo waited for follows the links until none is left or a todo is met twice (UNION),
-- so it ends whatever the file holds. An update is checked without the row it replaces.
CREATE TRIGGER dependencies_no_cycle_on_insert BEFORE INSERT ON dependencies
BEGIN
    SELECT RAISE(ABORT, 'dependencies: a todo cannot wait for itself or for a todo that waits for it')
    WHERE new.depends_on IS new.todo_id OR EXISTS (
        WITH RECURSIVE down(id) AS (
            SELECT new.depends_on
            UNION SELECT d.depends_on FROM dependencies d JOIN down ON d.todo_id = down.id)
        SELECT 1 FROM down WHERE down.id IS new.todo_id);
END;
CREATE TRIGGER dependencies_no_cycle_on_update BEFORE UPDATE ON dependencies
BEGIN
    SELECT RAISE(ABORT, 'dependencies: a todo cannot wait for itself or for a todo that waits for it')
    WHERE new.depends_on IS new.todo_id OR EXISTS (
        WITH RECURSIVE down(id) AS (
            SELECT new.depends_on
            UNION SELECT d.depends_on FROM dependencies d JOIN down ON d.todo_id = down.id
                WHERE NOT (d.todo_id IS old.todo_id AND d.depends_on IS old.depends_on))
        SELECT 1 FROM down WHERE down.id IS new.todo_id);
END;

-- A todo's links go with it, whoever deletes it (an undo of the delete brings them back: the
-- session that records a command records a trigger's changes too).
CREATE TRIGGER dependencies_after_todo_delete AFTER DELETE ON todos
BEGIN
    DELETE FROM dependencies WHERE todo_id = old.id;
    DELETE FROM dependencies WHERE depends_on = old.id;
END;

-- The change feed (migration 0004) names a todo whose blocked state may have changed: the todo
-- whose links changed, and the todos waiting for one whose done state changed. A list or a
-- watch filtered by it (`--blocked`) then reads those todos again, and a sync compares them.
CREATE TRIGGER dependencies_changes_after_insert AFTER INSERT ON dependencies
BEGIN
    INSERT INTO todo_changes (id) VALUES (new.todo_id);
END;
CREATE TRIGGER dependencies_changes_after_delete AFTER DELETE ON dependencies
BEGIN
    INSERT INTO todo_changes (id) VALUES (old.todo_id);
END;
CREATE TRIGGER dependencies_changes_after_update AFTER UPDATE ON dependencies
BEGIN
    INSERT INTO todo_changes (id) VALUES (new.todo_id);
    INSERT INTO todo_changes (id) SELECT old.todo_id WHERE old.todo_id IS NOT new.todo_id;
END;
CREATE TRIGGER dependencies_changes_after_done AFTER UPDATE OF done ON todos WHEN old.done IS NOT new.done
BEGIN
    INSERT INTO todo_changes (id) SELECT todo_id FROM dependencies WHERE depends_on = new.id;
END;

-- The todos it waits for as last synced (the merge base of RELATED-TO;RELTYPE=DEPENDS-ON):
-- their UIDs, each once, separated by a line feed (a UID is one line of text); NULL or '' for
-- none. UIDs, not ids: a todo waited for may not be on this device (yet).
ALTER TABLE sync_items ADD COLUMN depends_uids TEXT;
-- Objects synced before this version may carry a DEPENDS-ON link that their merge base (NULL
-- above) and their todo do not know yet: read them again, as migration 0017 does for RELATED-TO.
UPDATE sync_items SET etag = NULL WHERE instr(upper(ics), 'DEPENDS-ON') > 0;
UPDATE sync_links SET sync_token = NULL, seen = NULL
WHERE list_id IN (SELECT list_id FROM sync_items WHERE etag IS NULL);
