-- Due times and start dates (issue 34), on the todo and on the merge base of sync (sync_items).
--
-- due_time: the time of day the todo is due on its deadline, NULL for none (any time that day).
-- As the app that set it wrote it: '19:00' or '19:00:30' floating (on the reader's own clock),
-- '19:00 Europe/Berlin' on that zone's wall clock, or an instant '2026-11-27T18:00:00Z'. The
-- deadline column stays the date of that time on its own clock, which lists, filters and sorts
-- use; where it is shown, the time is converted to the zone in force then.
ALTER TABLE todos ADD COLUMN due_time TEXT;
-- start_date: the day the todo starts ('2026-12-01'), when that is before its deadline's day;
-- until then lists hide it. NULL for none.
ALTER TABLE todos ADD COLUMN start_date TEXT;
ALTER TABLE sync_items ADD COLUMN due_time TEXT;
ALTER TABLE sync_items ADD COLUMN start_date TEXT;
