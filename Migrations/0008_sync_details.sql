-- The base of the three-way merge (sync_items) gets issue 26's fields, as `todo sync` now maps
-- them to the VTODO: priority (PRIORITY), tags (CATEGORIES), note (DESCRIPTION), created
-- (CREATED), completed (COMPLETED). Rows from before hold the defaults: a value another app
-- wrote there meanwhile counts as its change, and comes in at the next sync.
ALTER TABLE sync_items ADD COLUMN priority INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sync_items ADD COLUMN tags TEXT NOT NULL DEFAULT '';
ALTER TABLE sync_items ADD COLUMN note TEXT;
ALTER TABLE sync_items ADD COLUMN created TEXT;
ALTER TABLE sync_items ADD COLUMN completed TEXT;
