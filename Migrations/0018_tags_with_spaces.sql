-- Tags with spaces (issue 36, point 4): a category with a space (`Home Improvement`) is a tag,
-- stored in the tags column as `+"Home Improvement"` (TodoTags). The column needs no rewrite: a
-- value todo stored before reads as it did (the quoted reading needs a sigil, a `"`, a space and
-- a closing `"` with no `+` or `@` after a space: what tags written one after another never make).
--
-- An object synced before this version may hold such a category, which neither its todo nor its
-- merge base (sync_items) has as a tag yet. A change made here before the object is read again
-- would write the todo's tags over the object's tag categories, and the category would be gone
-- from the server. So the ETag of every object with categories is forgotten (SQL cannot tell a
-- value with a space from the next one in a folded, escaped list; reading again one without is
-- one more GET), and so are its list's sync token and the collection state last seen, as
-- migration 0016 does: the next sync reads it again and the todo takes the tag (a change made
-- here meanwhile is merged with it, as ever) before anything is sent over it.
UPDATE sync_items SET etag = NULL WHERE instr(upper(ics), 'CATEGORIES') > 0;
UPDATE sync_links SET sync_token = NULL, seen = NULL
WHERE list_id IN (SELECT list_id FROM sync_items WHERE etag IS NULL);
