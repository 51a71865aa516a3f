-- Repeating todos (issue 34): the repeat rule and where its next date is counted from, on the
-- todo and on the merge base of sync (sync_items), and the log of completed occurrences.
--
-- repeat_rule: an iCalendar RRULE value exactly as written (`FREQ=MONTHLY`,
-- `FREQ=WEEKLY;BYDAY=MO,TH;COUNT=8`); NULL for a todo that does not repeat. The todo's deadline
-- is its current occurrence: what lists, filters and sorts already use. `todo done` moves it to
-- the next occurrence (and counts COUNT down) instead of marking the todo done.
ALTER TABLE todos ADD COLUMN repeat_rule TEXT;
-- repeat_from: 'due' (the next date follows the rule from the current one, as every CalDAV app
-- reads a rule) or 'done' (one interval after the day it was done: todo.txt's rec:3d, synced as
-- X-TODO-REPEAT-FROM:COMPLETION).
ALTER TABLE todos ADD COLUMN repeat_from TEXT NOT NULL DEFAULT 'due' CHECK (repeat_from IN ('due', 'done'));
ALTER TABLE sync_items ADD COLUMN repeat_rule TEXT;
ALTER TABLE sync_items ADD COLUMN repeat_from TEXT NOT NULL DEFAULT 'due';

-- One row per completed (or skipped) occurrence of a repeating todo: the occurrence's date,
-- when it was done, and how it was learnt ('here': todo done; 'skip': todo skip; 'series': the
-- whole series ended here; 'advance': another app moved the todo past it; 'override': another
-- app's RECURRENCE-ID component marked it done). `pending` marks what was done here and is not
-- yet on the server: the next sync applies it to the server's object, once per occurrence
-- (two devices completing the same occurrence advance it once). A log for `todo show` and for
-- sync, never the authority on the todo's state: its deadline and done flag are. No foreign
-- key: other programs delete todos without our code.
CREATE TABLE todo_completions (
    todo_id      INTEGER NOT NULL,
    occurrence   TEXT    NOT NULL,
    completed_at TEXT,
    source       TEXT    NOT NULL CHECK (source IN ('here', 'skip', 'series', 'advance', 'override')),
    pending      INTEGER NOT NULL DEFAULT 0 CHECK (pending IN (0, 1)),
    PRIMARY KEY (todo_id, occurrence)
);

-- Undo and redo entries are changesets of the row as it was (nine columns): they cannot apply
-- to rows of eleven. The history before this upgrade is dropped, not misapplied.
DELETE FROM todo_history;
DELETE FROM todo_redo;
