-- Subtasks (issue 36): a todo may be under another todo, at any depth, as Tasks.org, Apple
-- Reminders and Nextcloud Tasks nest them (RELATED-TO;RELTYPE=PARENT on the child's object).
--
-- parent_id: the todo it is a subtask of; NULL at the top level. Not a foreign key: undo puts a
-- deleted subtree back row by row (a changeset applies in no particular order), and another
-- program may delete a parent alone. A parent_id that names no todo, or a todo of another list,
-- reads as the top level: the todo shows there, and `todo check` reports the link.
ALTER TABLE todos ADD COLUMN parent_id INTEGER;
-- A todo's subtasks are found through this index (most todos have no parent: it stays small).
CREATE INDEX todos_by_parent ON todos (parent_id) WHERE parent_id IS NOT NULL;

-- No cycles, from any program: a todo cannot be under itself, nor under one of its own subtasks.
-- The walk up from the new parent stops at the top, or at a todo met twice (UNION), so it ends
-- whatever the file holds.
CREATE TRIGGER todos_parent_no_cycle_on_insert BEFORE INSERT ON todos WHEN new.parent_id IS NOT NULL
BEGIN
    SELECT RAISE(ABORT, 'todos: a todo cannot be a subtask of itself or of its own subtask')
    WHERE new.parent_id IS new.id OR EXISTS (
        WITH RECURSIVE up(id) AS (
            SELECT new.parent_id
            UNION SELECT t.parent_id FROM todos t JOIN up ON t.id = up.id WHERE t.parent_id IS NOT NULL)
        SELECT 1 FROM up WHERE up.id IS new.id);
END;
CREATE TRIGGER todos_parent_no_cycle_on_update BEFORE UPDATE OF parent_id, id ON todos
WHEN new.parent_id IS NOT NULL
BEGIN
    SELECT RAISE(ABORT, 'todos: a todo cannot be a subtask of itself or of its own subtask')
    WHERE new.parent_id IS new.id OR EXISTS (
        WITH RECURSIVE up(id) AS (
            SELECT new.parent_id
            UNION SELECT t.parent_id FROM todos t JOIN up ON t.id = up.id WHERE t.parent_id IS NOT NULL)
        SELECT 1 FROM up WHERE up.id IS new.id OR up.id IS old.id);
END;

-- The parent as last synced (the merge base of RELATED-TO;RELTYPE=PARENT): its UID, NULL for
-- none. A UID, not an id: the parent may not be on this device (yet).
ALTER TABLE sync_items ADD COLUMN parent_uid TEXT;
-- Objects synced before this version may carry a RELATED-TO their merge base (NULL above) and
-- their todo do not know yet: read them again, as migration 0016 does for statuses.
UPDATE sync_items SET etag = NULL WHERE instr(upper(ics), 'RELATED-TO') > 0;
UPDATE sync_links SET sync_token = NULL, seen = NULL
WHERE list_id IN (SELECT list_id FROM sync_items WHERE etag IS NULL);

-- Undo and redo entries are changesets of the row as it was (sixteen columns): they cannot apply
-- to rows of seventeen. The history before this upgrade is dropped, not misapplied.
DELETE FROM todo_history;
DELETE FROM todo_redo;
