import SQLite
import TodoStore

/// The sync tables of one database (migration 0005), read and written through its repository's
/// connection: the remote, the progress, the items.
///
/// Threading: as the repository (one thread, queue or actor at a time). Methods do not open
/// transactions of their own except where they say so: the engine groups them.
public struct SyncState {
    public let repository: TodoRepository
    var connection: Connection { repository.connection }

    public init(repository: TodoRepository) { self.repository = repository }

    // MARK: The remote

    /// The remote set up for this database, if any.
    public func remote() throws(TodoStoreError) -> SyncRemote? {
        try TodoStoreError.wrap { () throws(SQLiteError) -> SyncRemote? in
            let statement = try connection.internalCachedStatement(
                "SELECT url, user, password_command, ca_file, list_id FROM sync_remote WHERE id = 1")
            var remote: SyncRemote?
            try statement.forEachRow {
                remote = SyncRemote(
                    url: $0.string(0), user: $0.optionalString(1), passwordCommand: $0.optionalString(2),
                    caFile: $0.optionalString(3), listID: $0.int64(4))
            }
            return remote
        }
    }

    /// The list the remote holds and the remote's URL, when one is set up: what `todo lists`
    /// says, and what it will not remove.
    public static func linkedList(of repository: TodoRepository) throws(TodoStoreError) -> (list: Int64, url: String)? {
        try SyncState(repository: repository).remote().map { ($0.listID, $0.url) }
    }

    /// The list the remote holds (the first list when none is set up: then nothing syncs).
    public func linkedListID() throws(TodoStoreError) -> Int64 {
        try TodoStoreError.wrap { () throws(SQLiteError) -> Int64 in
            try connection.internalCachedStatement("SELECT list_id FROM sync_remote WHERE id = 1").scalarInt64()
                ?? TodoList.firstID
        }
    }

    /// The list the remote holds, as an SQL expression: every query of the local side of a sync
    /// reads its todos and no others (the other lists stay on this device).
    static let linkedList = "(SELECT list_id FROM sync_remote WHERE id = 1)"

    /// Whether the todo `id` (an SQL expression) exists in the list the remote holds, in SQL: a
    /// lookup by primary key, so a million todos cost nothing to a sync that reads a few.
    static func inLinkedList(_ id: String) -> String {
        "EXISTS (SELECT 1 FROM todos WHERE todos.id = \(id) AND todos.list_id = \(linkedList))"
    }

    /// Sets the remote, forgetting any sync state of a previous one (its items and token) in
    /// the same transaction. UIDs stay: the same collection set up again matches its todos.
    public func setRemote(_ remote: SyncRemote) throws(TodoStoreError) {
        try write { () throws(SQLiteError) in
            try connection.execute("DELETE FROM sync_items")
            try connection.execute("DELETE FROM sync_sent")
            try connection.execute("DELETE FROM sync_gone")
            try connection.internalCachedStatement(
                """
                INSERT INTO sync_remote (id, url, user, password_command, ca_file, list_id) VALUES (1, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET url = excluded.url, user = excluded.user, password_command = excluded.password_command,
                    ca_file = excluded.ca_file, list_id = excluded.list_id, sync_token = NULL, last_sync = NULL, feed_seq = 0
                """
            ).execute([remote.url, remote.user, remote.passwordCommand, remote.caFile, remote.listID])
        }
    }

    /// Forgets the remote and its sync state (`todo sync forget`); todos and their UIDs stay.
    public func forget() throws(TodoStoreError) {
        try write { () throws(SQLiteError) in try forgetSQL() }
    }

    private func forgetSQL() throws(SQLiteError) {
        try connection.execute("DELETE FROM sync_items")
        try connection.execute("DELETE FROM sync_sent")
        try connection.execute("DELETE FROM sync_gone")
        try connection.execute("DELETE FROM sync_remote")
        // UIDs of todos deleted here were kept only to send the deletion: nothing to send to now.
        try connection.execute("DELETE FROM todo_uids WHERE todo_id NOT IN (SELECT id FROM todos)")
    }

    /// What ``link(_:relinking:)`` did.
    public enum LinkOutcome: Sendable, Equatable {
        /// The remote is stored: there was none, or it was the same collection
        /// (``SyncRemote/isSameCollection(as:)``).
        case linked
        /// The database was linked to `previous`, another collection: its sync state was
        /// forgotten as ``forget()`` forgets it, and the remote is stored.
        case relinked(previous: SyncRemote)
        /// The database is linked to `current`, another collection, and `relinking` was not
        /// asked for: nothing was stored. The next sync after a re-link would send the
        /// `todos` of the list it holds to the new collection.
        case refused(current: SyncRemote, todos: Int)
    }

    /// Links the database to `remote` (`todo sync setup`), in one transaction. A database never
    /// set up, or set up with the same collection, is linked (``setRemote(_:)``). One linked to
    /// another collection (another URL, or another user) is re-linked only when `relinking`:
    /// else the next sync would send every todo here to a collection the user may have meant to
    /// add beside the first, so nothing changes and the outcome says what would have been sent.
    public func link(_ remote: SyncRemote, relinking: Bool) throws(TodoStoreError) -> LinkOutcome {
        try repository.writeTransaction(mapError: TodoStoreError.sqlite) { () throws(TodoStoreError) -> LinkOutcome in
            guard let current = try self.remote(), !current.isSameCollection(as: remote) else {
                try setRemote(remote)
                return .linked
            }
            guard relinking else {
                var list = TodoFetchRequest()
                list.lists = [remote.listID]
                return .refused(current: current, todos: try repository.count(list))
            }
            try TodoStoreError.wrap { () throws(SQLiteError) in try forgetSQL() }
            try setRemote(remote)
            return .relinked(previous: current)
        }
    }

    public func progress() throws(TodoStoreError) -> SyncProgress {
        try TodoStoreError.wrap { () throws(SQLiteError) -> SyncProgress in
            let statement = try connection.internalCachedStatement(
                "SELECT sync_token, last_sync, feed_seq FROM sync_remote WHERE id = 1")
            var progress = SyncProgress(syncToken: nil, lastSync: nil, feedSeq: 0)
            try statement.forEachRow {
                progress = SyncProgress(
                    syncToken: $0.optionalString(0), lastSync: $0.optionalString(1), feedSeq: $0.int64(2))
            }
            return progress
        }
    }

    func setToken(_ token: String?) throws(TodoStoreError) {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            try connection.internalCachedStatement("UPDATE sync_remote SET sync_token = ? WHERE id = 1").execute([token]
            )
        }
    }

    func setFinished(at lastSync: String, feedSeq: Int64?) throws(TodoStoreError) {
        try TodoStoreError.wrap { () throws(SQLiteError) in try setFinishedSQL(at: lastSync, feedSeq: feedSeq) }
    }

    private func setFinishedSQL(at lastSync: String, feedSeq: Int64?) throws(SQLiteError) {
        if let feedSeq {
            try connection.internalCachedStatement("UPDATE sync_remote SET last_sync = ?, feed_seq = ? WHERE id = 1")
                .execute([lastSync, feedSeq])
        } else {
            try connection.internalCachedStatement("UPDATE sync_remote SET last_sync = ? WHERE id = 1").execute([
                lastSync
            ])
        }
    }

    // MARK: Items

    /// Every item, by UID.
    func items() throws(TodoStoreError) -> [String: SyncItem] {
        try TodoStoreError.wrap { () throws(SQLiteError) in try itemsSQL() }
    }

    private func itemsSQL() throws(SQLiteError) -> [String: SyncItem] {
        let statement = try connection.internalCachedStatement("SELECT \(Self.itemColumns) FROM sync_items")
        var items: [String: SyncItem] = [:]
        try statement.forEachRow { row in
            let item = Self.item(from: row)
            items[item.uid] = item
        }
        return items
    }

    func item(uid: String) throws(TodoStoreError) -> SyncItem? {
        try TodoStoreError.wrap { () throws(SQLiteError) in try item(where: "uid", is: uid) }
    }

    func item(href: String) throws(TodoStoreError) -> SyncItem? {
        try TodoStoreError.wrap { () throws(SQLiteError) in try item(where: "href", is: href) }
    }

    /// The item whose `column` (a unique one: uid or href) holds `value`.
    private func item(where column: String, is value: String) throws(SQLiteError) -> SyncItem? {
        let statement = try connection.internalCachedStatement(
            "SELECT \(Self.itemColumns) FROM sync_items WHERE \(column) = ?")
        try statement.bind([value])
        var item: SyncItem?
        try statement.forEachRow { item = Self.item(from: $0) }
        return item
    }

    func save(_ item: SyncItem) throws(TodoStoreError) {
        try TodoStoreError.wrap { () throws(SQLiteError) in try saveSQL(item) }
    }

    private func saveSQL(_ item: SyncItem) throws(SQLiteError) {
        // An href taken by another UID (an object whose UID another app changed) is that
        // object's no more: its old row goes.
        try connection.internalCachedStatement("DELETE FROM sync_items WHERE href = ? AND uid <> ?").execute([
            item.href, item.uid
        ])
        let statement = try connection.internalCachedStatement(Self.saveItem)
        try statement.reset()
        try statement.bind(item.uid, at: 1)
        try statement.bind(item.href, at: 2)
        try statement.bind(item.etag, at: 3)
        try statement.bind(item.text, at: 4)
        try TodoColumns.bind(item.base, to: statement, from: 5)
        while try statement.step() {}
        try statement.reset()
    }

    /// The upsert of an item: its place and text, then the base fields in ``fieldColumns``' order.
    private static let saveItem = """
        INSERT INTO sync_items (uid, href, etag, ics, \(fieldColumns.joined(separator: ", ")))
        VALUES (\(Array(repeating: "?", count: 4 + fieldColumns.count).joined(separator: ", ")))
        ON CONFLICT (uid) DO UPDATE SET href = excluded.href, etag = excluded.etag, ics = excluded.ics,
            \(fieldColumns.map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
        """

    /// Forgets the item of `uid`: its object is gone, or was deleted. The todo's UID stays, even
    /// when the todo is gone here: `todo undo` may bring the row back (ids are never reused),
    /// and it must come back as the same object on every device, not as a new one. A UID whose
    /// todo is gone and that has no item is free (``TodoUIDs/isKnown(_:)``).
    func removeItem(uid: String) throws(TodoStoreError) {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            try connection.internalCachedStatement("DELETE FROM sync_items WHERE uid = ?").execute([uid])
        }
    }

    // MARK: Writes sent, answers not recorded (migration 0009)

    /// Records that the object `text` is about to be sent for `uid` at `href` (a create or an
    /// update), in the transaction that plans the write: until its answer is recorded
    /// (``removeSent(uid:)``), the server may hold it without this database knowing.
    func recordSent(uid: String, href: String, text: String) throws(TodoStoreError) {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            try connection.internalCachedStatement(
                "INSERT OR REPLACE INTO sync_sent (uid, href, ics) VALUES (?, ?, ?)"
            ).execute([uid, href, text])
        }
    }

    /// The text last sent for `uid` whose answer was not recorded, if any.
    func sentText(uid: String) throws(TodoStoreError) -> String? {
        try TodoStoreError.wrap { () throws(SQLiteError) -> String? in
            let statement = try connection.internalCachedStatement("SELECT ics FROM sync_sent WHERE uid = ?")
            try statement.bind([uid])
            var text: String?
            try statement.forEachRow { text = $0.string(0) }
            return text
        }
    }

    /// The hrefs of the writes sent whose answer was not recorded.
    func sentHrefs() throws(TodoStoreError) -> Set<String> {
        try TodoStoreError.wrap { () throws(SQLiteError) -> Set<String> in
            var hrefs: Set<String> = []
            try connection.internalCachedStatement("SELECT href FROM sync_sent").forEachRow {
                hrefs.insert($0.string(0))
            }
            return hrefs
        }
    }

    /// The write sent to `href` whose answer was not recorded, if any: its UID and text.
    func sent(href: String) throws(TodoStoreError) -> (uid: String, text: String)? {
        try TodoStoreError.wrap { () throws(SQLiteError) -> (uid: String, text: String)? in
            let statement = try connection.internalCachedStatement("SELECT uid, ics FROM sync_sent WHERE href = ?")
            try statement.bind([href])
            var sent: (uid: String, text: String)?
            try statement.forEachRow { sent = ($0.string(0), $0.string(1)) }
            return sent
        }
    }

    /// The write sent for `uid` has its answer recorded, or the server's object was taken in.
    func removeSent(uid: String) throws(TodoStoreError) {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            try connection.internalCachedStatement("DELETE FROM sync_sent WHERE uid = ?").execute([uid])
        }
    }

    // MARK: Objects deleted there whose todo may come back (migration 0009)

    /// Keeps the last synced text of `uid`'s object, deleted on the server while its todo may
    /// come back here: edited here (the edit beats the delete), or deleted here too (`todo undo`
    /// of the `rm`). The object is made again from it (``goneText(uid:)``), with everything
    /// another app wrote in it. At most the last ``goneKept`` are kept.
    func recordGone(uid: String, text: String) throws(TodoStoreError) {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            try connection.internalCachedStatement("INSERT OR REPLACE INTO sync_gone (uid, ics) VALUES (?, ?)")
                .execute([uid, text])
            try connection.internalCachedStatement(
                "DELETE FROM sync_gone WHERE rowid <= (SELECT max(rowid) FROM sync_gone) - \(Self.goneKept)"
            ).execute()
        }
    }

    /// How many texts of deleted objects ``recordGone(uid:text:)`` keeps.
    static let goneKept = 1_000

    /// The last synced text of `uid`'s object if the server deleted it while it could come back
    /// here.
    func goneText(uid: String) throws(TodoStoreError) -> String? {
        try TodoStoreError.wrap { () throws(SQLiteError) -> String? in
            let statement = try connection.internalCachedStatement("SELECT ics FROM sync_gone WHERE uid = ?")
            try statement.bind([uid])
            var text: String?
            try statement.forEachRow { text = $0.string(0) }
            return text
        }
    }

    /// The object of `uid` is on the server again (written from here, or come back).
    func removeGone(uid: String) throws(TodoStoreError) {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            try connection.internalCachedStatement("DELETE FROM sync_gone WHERE uid = ?").execute([uid])
        }
    }

    static let itemColumns = itemColumns(prefix: "")

    /// The columns of `sync_items` that hold the base fields, named as in `todos`.
    static let fieldColumns = TodoColumns.fields

    /// The columns ``item(from:at:)`` reads, in its order, each with `prefix` (a table alias).
    static func itemColumns(prefix: String) -> String {
        (["uid", "href", "etag", "ics"] + fieldColumns).map { prefix + $0 }.joined(separator: ", ")
    }

    /// The item on a row that selected ``itemColumns`` from `column` on.
    static func item(from row: Row, at column: Int32 = 0) -> SyncItem {
        SyncItem(
            uid: row.string(column), href: row.string(column + 1), etag: row.optionalString(column + 2),
            text: row.string(column + 3), base: TodoColumns.fields(from: row, at: column + 4))
    }

    func write<Result>(_ body: () throws(SQLiteError) -> Result) throws(TodoStoreError) -> Result {
        try repository.writeTransaction(mapError: TodoStoreError.sqlite) { () throws(TodoStoreError) -> Result in
            try TodoStoreError.wrap(body)
        }
    }
}
