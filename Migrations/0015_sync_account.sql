-- The account behind the synced lists (issue 35): its calendar home, listed at every sync (one
-- PROPFIND) to find the collections that appeared, were renamed or recoloured, or are gone, and
-- which collections changed at all: a list whose collection did not change and that has nothing
-- to send needs no request of its own.
--
-- home: the calendar home's URL (ending with '/'), found at setup; NULL for a database set up
-- before, or a server that names none: each linked collection is then read at each sync, as before.
-- follows_all: 1 when setup linked every collection of the account (no --only): one that appears
-- later is linked too, and a list made here gets a collection once it holds a todo; else a
-- collection that appears is mentioned once, and the lists not linked stay on this device.
ALTER TABLE sync_remote ADD COLUMN home TEXT;
ALTER TABLE sync_remote ADD COLUMN follows_all INTEGER NOT NULL DEFAULT 0 CHECK (follows_all IN (0, 1));

-- state: 'gone' once the collection is missing from the home's listing (or answers 404). That
-- deletes nothing: the list and its todos stay, the link is no longer synced, and the list is not
-- made again on the server until the user links it again.
-- seen: the collection's sync token (or 'ctag:' and its getctag) in the home's listing before a
-- sync that took in everything it listed and wrote nothing: the same value at the next listing,
-- with nothing to send here, means there is nothing to do for this list. Forgotten whenever the
-- objects recorded here change (SyncState.setToken).
-- The bases of the merge of the list's name and colour with the collection's displayname and
-- calendar-color, as of the last sync, one per side: a list may be linked to a collection of
-- another name (setup --to, a link made before), and neither is renamed for that. NULL
-- list_name_base: not yet compared (the next sync takes both sides as they are).
ALTER TABLE sync_links ADD COLUMN state TEXT NOT NULL DEFAULT 'linked' CHECK (state IN ('linked', 'gone'));
ALTER TABLE sync_links ADD COLUMN seen TEXT;
ALTER TABLE sync_links ADD COLUMN list_name_base TEXT;
ALTER TABLE sync_links ADD COLUMN list_color_base TEXT;
ALTER TABLE sync_links ADD COLUMN name_base TEXT;
ALTER TABLE sync_links ADD COLUMN color_base TEXT;

-- The account's collections that hold todos but no list, by URL: left out at setup (--only),
-- forgotten ('todo sync forget LIST'), or mentioned once when they appeared. Not linked by a sync
-- and not mentioned again.
CREATE TABLE sync_unlinked (
    url TEXT PRIMARY KEY
);

-- Lists that stay on this device though the account follows every collection: their link was
-- forgotten on purpose ('todo sync forget LIST'). Any other list without a link, once it holds a
-- todo, gets a collection of its own at the next sync of such an account.
CREATE TABLE sync_local (
    list_id INTEGER PRIMARY KEY
);
