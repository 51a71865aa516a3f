-- What lets a sync recover without loss from a fault or a conflict (issue 39).
--
-- Writes sent to the server whose answer has not been recorded: a row is written, in the same
-- transaction that plans the write, before the write is sent, and removed when its answer is
-- recorded. One left over means a sync stopped or lost its connection after sending: the
-- server may hold the object as it was sent. The next sync then takes an object equal to what
-- was sent as this device's own write landing (the base of the merge), not as a change made
-- there: a todo deleted or changed here meanwhile stays deleted or changed.
CREATE TABLE sync_sent (
    uid  TEXT PRIMARY KEY,
    href TEXT NOT NULL,
    ics  TEXT NOT NULL    -- the object's text as sent (a create or an update)
);

-- Objects deleted on the server while their todo was edited here (the edit wins, and the todo is
-- sent again): their last synced text, from which the object is made again with the edit in it,
-- so that what other apps wrote on it (alarms, X- properties, a repeat rule) is not lost. The
-- row goes once the object is written again, or comes back from the server.
CREATE TABLE sync_gone (
    uid TEXT PRIMARY KEY,
    ics TEXT NOT NULL
);
