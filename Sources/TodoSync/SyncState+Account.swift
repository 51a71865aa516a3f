import SQLite
import TodoStore

/// The account's side of the sync tables (migration 0015): each link's state and merge bases,
/// and the collections of the home that hold no list.
extension SyncState {
    // MARK: The account

    /// Records the account's calendar home (`nil` keeps the one known) and whether it follows
    /// every collection (``SyncRemote/home``, ``SyncRemote/followsAll``).
    public func setAccount(home: String?, followsAll: Bool) throws(TodoStoreError) {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            try connection.internalCachedStatement(
                "UPDATE sync_remote SET home = coalesce(?, home), follows_all = ? WHERE id = 1"
            ).execute([home, Int64(followsAll ? 1 : 0)])
        }
    }

    // MARK: One link

    /// Marks this list's link gone (its collection is missing from the account) or linked again.
    func setGone(_ gone: Bool) throws(TodoStoreError) {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            try connection.internalCachedStatement(
                "UPDATE sync_links SET state = ?, seen = NULL WHERE list_id = \(listSQL)"
            )
            .execute([gone ? "gone" : "linked"])
        }
    }

    /// The collection's state (``HomeCollection/state``) as the home listed it before the last
    /// sync that took in everything it listed: the same state again, with nothing to send here,
    /// is nothing to do.
    func seen() throws(TodoStoreError) -> String? {
        try TodoStoreError.wrap { () throws(SQLiteError) -> String? in
            var seen: String?
            try connection.internalCachedStatement("SELECT seen FROM sync_links WHERE list_id = \(listSQL)")
                .forEachRow { seen = $0.optionalString(0) }
            return seen
        }
    }

    func setSeen(_ seen: String?) throws(TodoStoreError) {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            try connection.internalCachedStatement("UPDATE sync_links SET seen = ? WHERE list_id = \(listSQL)")
                .execute([seen])
        }
    }

    /// The bases of the merge of this list's name and colour with its collection's.
    public func bases() throws(TodoStoreError) -> ListBases {
        try TodoStoreError.wrap { () throws(SQLiteError) -> ListBases in
            var bases = ListBases()
            try connection.internalCachedStatement(
                "SELECT list_name_base, list_color_base, name_base, color_base FROM sync_links WHERE list_id = \(listSQL)"
            ).forEachRow {
                bases = ListBases(
                    listName: $0.optionalString(0), listColor: $0.optionalString(1), name: $0.optionalString(2),
                    color: $0.optionalString(3))
            }
            return bases
        }
    }

    func setBases(_ bases: ListBases) throws(TodoStoreError) {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            try connection.internalCachedStatement(
                """
                UPDATE sync_links SET list_name_base = ?, list_color_base = ?, name_base = ?, color_base = ?
                WHERE list_id = \(listSQL)
                """
            ).execute([bases.listName, bases.listColor, bases.name, bases.color])
        }
    }

    /// Whether this list has anything to send (``localChanges(since:)``), a todo moved into it
    /// whose object another list's collection still holds (sent once that one deleted it), or a
    /// write whose answer was not recorded. Before a first sync, or when the feed no longer
    /// reaches back to the list's last sync: yes. Costs the feed's entries since then (what a
    /// sync applied here is among them, and is no change), not the list.
    func hasLocalWork() throws(TodoStoreError) -> Bool {
        let progress = try progress()
        guard progress.lastSync != nil else { return true }
        let read = try repository.changedTodos(since: TodoFeedPosition(seq: progress.feedSeq), limit: 100_000)
        guard case .changed(let ids, _) = read else { return true }
        let unanswered = try TodoStoreError.wrap { () throws(SQLiteError) -> Bool in
            try connection.internalCachedStatement("SELECT EXISTS (SELECT 1 FROM sync_sent WHERE list_id = \(listSQL))")
                .scalarInt64() == 1
        }
        guard !unanswered, !ids.isEmpty else { return unanswered }
        if try !localChanges(since: progress.feedSeq).isEmpty { return true }
        return try TodoStoreError.wrap { () throws(SQLiteError) -> Bool in
            let movingIn = try connection.internalCachedStatement(
                """
                SELECT EXISTS (SELECT 1 FROM todos t JOIN todo_uids u ON u.todo_id = t.id
                    JOIN sync_items o ON o.uid = u.uid AND o.list_id <> \(listSQL)
                    WHERE t.id = ? AND t.list_id = \(listSQL))
                """)
            for id in ids where try movingIn.scalarInt64([id]) == 1 { return true }
            return false
        }
    }

    // MARK: The account's other collections

    /// The URLs of the account's collections that hold todos and no list, known already: left out
    /// at setup, forgotten, or mentioned once.
    func unlinked() throws(TodoStoreError) -> Set<String> {
        try TodoStoreError.wrap { () throws(SQLiteError) -> Set<String> in
            var urls = Set<String>()
            try connection.internalCachedStatement("SELECT url FROM sync_unlinked").forEachRow {
                urls.insert($0.string(0))
            }
            return urls
        }
    }

    /// Records `urls` as the account's collections that hold no list (replacing the record).
    func setUnlinked(_ urls: Set<String>) throws(TodoStoreError) {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            try connection.execute("DELETE FROM sync_unlinked")
            let insert = try connection.internalCachedStatement("INSERT OR IGNORE INTO sync_unlinked (url) VALUES (?)")
            for url in urls.sorted() { try insert.execute([url]) }
        }
    }

    /// The lists that stay on this device though the account follows every collection (their
    /// link forgotten on purpose).
    func localLists() throws(TodoStoreError) -> Set<Int64> {
        try TodoStoreError.wrap { () throws(SQLiteError) -> Set<Int64> in
            var lists = Set<Int64>()
            try connection.internalCachedStatement("SELECT list_id FROM sync_local").forEachRow {
                lists.insert($0.int64(0))
            }
            return lists
        }
    }

    /// Keeps the list `list` on this device: a sync of an account that follows every collection
    /// does not give it one.
    func keepLocal(_ list: Int64) throws(TodoStoreError) {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            try connection.internalCachedStatement("INSERT OR IGNORE INTO sync_local (list_id) VALUES (?)").execute([
                list
            ])
        }
    }

    /// Records `url` as a collection of the account that holds no list: a sync neither links
    /// it nor mentions it (`todo sync forget LIST` on an account that follows every collection).
    public func addUnlinked(_ url: String) throws(TodoStoreError) {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            try connection.internalCachedStatement("INSERT OR IGNORE INTO sync_unlinked (url) VALUES (?)").execute([
                url
            ])
        }
    }
}
