-- Several lists on one account (issue 35). sync_remote stays the account: who logs in and how
-- (user, password command, CA file), and the first list's collection. Every list that syncs has a
-- link here: its collection, with its own sync token, last sync and change-feed position. The one
-- link of a database set up before is copied here; sync_remote's own token, last sync and feed
-- position are no longer read.
CREATE TABLE sync_links (
    list_id    INTEGER PRIMARY KEY,               -- the list (lists.id) the collection holds
    url        TEXT    NOT NULL UNIQUE,           -- the collection, ending with '/'
    sync_token TEXT,
    last_sync  TEXT,
    feed_seq   INTEGER NOT NULL DEFAULT 0
);
INSERT INTO sync_links (list_id, url, sync_token, last_sync, feed_seq)
    SELECT list_id, url, sync_token, last_sync, feed_seq FROM sync_remote;

-- The list whose collection each synced object is in, and each write whose answer was not
-- recorded went to: a sync of one collection reads its own, and an object's UID found in
-- another list's collection is a move made by another app.
ALTER TABLE sync_items ADD COLUMN list_id INTEGER NOT NULL DEFAULT 1;
UPDATE sync_items SET list_id = coalesce((SELECT list_id FROM sync_remote WHERE id = 1), 1);
ALTER TABLE sync_sent ADD COLUMN list_id INTEGER NOT NULL DEFAULT 1;
UPDATE sync_sent SET list_id = coalesce((SELECT list_id FROM sync_remote WHERE id = 1), 1);
CREATE INDEX sync_items_by_list ON sync_items (list_id);
