-- Priorities, tags, notes, and when a todo was created and completed (issue 26): five new
-- columns, each with a default, so `todos` keeps its documented columns and a plain
-- `INSERT INTO todos(name) VALUES ('x')` from any client still works (with no priority, no
-- tags, no note and no times).
--
-- priority: iCalendar's scale (RFC 5545 PRIORITY): 1 highest to 9 lowest, 0 none.
ALTER TABLE todos ADD COLUMN priority INTEGER NOT NULL DEFAULT 0 CHECK (priority BETWEEN 0 AND 9);
-- tags: words each written with the sigil it was typed with (`+work @phone`), separated by
-- one space, in the order they were given; '' for none. Two tags never share a case-folded word.
ALTER TABLE todos ADD COLUMN tags TEXT NOT NULL DEFAULT '';
-- note: free text of any number of lines; NULL for none.
ALTER TABLE todos ADD COLUMN note TEXT;
-- created, completed: UTC instants, 'YYYY-MM-DDTHH:MM:SSZ'; NULL when not known (a todo another
-- program inserted, or one from before this migration). `todo done` sets completed, `undone`
-- clears it.
ALTER TABLE todos ADD COLUMN created TEXT CHECK (created IS NULL OR
    created GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z');
ALTER TABLE todos ADD COLUMN completed TEXT CHECK (completed IS NULL OR
    completed GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z');

-- Undo and redo entries are changesets of the row as it was (four columns): they cannot apply
-- to rows of nine. The history before this upgrade is dropped, not misapplied.
DELETE FROM todo_history;
DELETE FROM todo_redo;
