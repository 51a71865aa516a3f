-- Real statuses (issue 36): in progress and cancelled beside done, and how far along a todo is,
-- on the todo and on the merge base of sync (sync_items).
--
-- status: NULL for the two plain states `done` says (needs action when done = 0, completed when
-- done = 1); 'in-process' for a todo under way (done = 0: iCalendar's STATUS:IN-PROCESS,
-- taskwarrior's start); 'cancelled' for a todo dropped (done = 1: no longer pending, but never
-- completed, so it has no completed time of its own). done stays the flag every other program
-- reads and writes. A status that disagrees with done (another program's INSERT) reads as none:
-- done decides.
ALTER TABLE todos ADD COLUMN status TEXT;
-- percent: iCalendar's PERCENT-COMPLETE, a whole number 0 to 100; NULL for none. Any other value
-- reads as none. `todo done` makes it 100, and `todo undone` takes a 100 away.
ALTER TABLE todos ADD COLUMN percent INTEGER;
ALTER TABLE sync_items ADD COLUMN status TEXT;
ALTER TABLE sync_items ADD COLUMN percent INTEGER;

-- Another program's `UPDATE todos SET done = 1` still means completed, and `SET done = 0` means
-- needs action: when done changes and the status does not, the status ends. (No CHECK ties the
-- two columns: it would refuse such an UPDATE.)
CREATE TRIGGER todos_done_ends_status AFTER UPDATE OF done ON todos
WHEN new.done IS NOT old.done AND new.status IS old.status AND new.status IS NOT NULL
BEGIN
    UPDATE todos SET status = NULL WHERE id = new.id;
END;

-- An object synced before this version may say IN-PROCESS, CANCELLED or a PERCENT-COMPLETE that
-- its merge base (NULL above) and its todo do not know yet. Its ETag is forgotten, and so are its
-- list's sync token and the collection state last seen (migration 0015: a list whose collection
-- looks unchanged is not read), so that the next sync reads it again and the todo takes what it
-- says (a change made here meanwhile is merged with it, as ever) before anything is sent over it.
UPDATE sync_items SET etag = NULL
WHERE instr(upper(ics), 'IN-PROCESS') > 0 OR instr(upper(ics), 'CANCELLED') > 0
   OR instr(upper(ics), 'PERCENT-COMPLETE') > 0;
UPDATE sync_links SET sync_token = NULL, seen = NULL
WHERE list_id IN (SELECT list_id FROM sync_items WHERE etag IS NULL);

-- Undo and redo entries are changesets of the row as it was (fourteen columns): they cannot apply
-- to rows of sixteen. The history before this upgrade is dropped, not misapplied.
DELETE FROM todo_history;
DELETE FROM todo_redo;
