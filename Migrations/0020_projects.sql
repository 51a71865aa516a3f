-- Projects (issue 37, point 2): a todo's project, as taskwarrior users mean one, told apart from
-- its tags. The path as typed, names from the widest joined by dots (`Work.ClientA`); NULL for
-- none. A value that names no project (TodoProject: an empty name, a control character) reads
-- as none. The merge base of sync (sync_items) carries it too, as every field.
ALTER TABLE todos ADD COLUMN project TEXT;
ALTER TABLE sync_items ADD COLUMN project TEXT;

-- Undo and redo entries are changesets of the row as it was (seventeen columns): they cannot apply
-- to rows of eighteen. The history before this upgrade is dropped, not misapplied.
DELETE FROM todo_history;
DELETE FROM todo_redo;
