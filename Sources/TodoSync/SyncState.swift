import SQLite
import TodoStore

/// The sync tables of one database (migration 0005), read and written through its repository's
/// connection: the remote, the progress, the items.
///
/// Threading: as the repository (one thread, queue or actor at a time). Methods do not open
/// transactions of their own except where they say so: the engine groups them.
public struct SyncState {
    public let repository: TodoRepository
    /// The list whose link this state reads and writes (its progress, items and unanswered
    /// writes), or `nil` for the remote's own list (``SyncRemote/listID``): a database that
    /// syncs one list never names it.
    public let list: Int64?
    var connection: Connection { repository.connection }

    public init(repository: TodoRepository, list: Int64? = nil) {
        self.repository = repository
        self.list = list
    }

    /// ``list`` as an SQL expression (an integer, or the remote's list): part of the text of
    /// the statements, so each link's are prepared once and cached.
    var listSQL: String { list.map { "\($0)" } ?? "(SELECT list_id FROM sync_remote WHERE id = 1)" }

    // MARK: The remote

    /// The remote set up for this database, if any.
    public func remote() throws(TodoStoreError) -> SyncRemote? {
        try TodoStoreError.wrap { () throws(SQLiteError) -> SyncRemote? in
            let statement = try connection.internalCachedStatement(
                "SELECT url, user, password_command, ca_file, list_id, home, follows_all FROM sync_remote WHERE id = 1")
            var remote: SyncRemote?
            try statement.forEachRow {
                remote = SyncRemote(
                    url: $0.string(0), user: $0.optionalString(1), passwordCommand: $0.optionalString(2),
                    caFile: $0.optionalString(3), listID: $0.int64(4), home: $0.optionalString(5),
                    followsAll: $0.int64(6) == 1)
            }
            return remote
        }
    }

    /// The link of each list that syncs, or did until its collection was gone, by list: what
    /// `todo lists` says, and which lists it will not remove.
    public static func linkedLists(of repository: TodoRepository) throws(TodoStoreError) -> [Int64: SyncLink] {
        Dictionary(try SyncState(repository: repository).links().map { ($0.list, $0) }) { first, _ in first }
    }

    /// The list this state syncs (``list``, else the remote's; the first list when none is set
    /// up: then nothing syncs).
    public func linkedListID() throws(TodoStoreError) -> Int64 {
        if let list { return list }
        return try TodoStoreError.wrap { () throws(SQLiteError) -> Int64 in
            try connection.internalCachedStatement("SELECT list_id FROM sync_remote WHERE id = 1").scalarInt64()
                ?? TodoList.firstID
        }
    }

    /// Whether the todo `id` (an SQL expression) exists in the list this state syncs, in SQL: a
    /// lookup by primary key, so a million todos cost nothing to a sync that reads a few. Every
    /// query of the local side of a sync reads that list's todos and no others (the other lists
    /// stay on this device, or sync with their own collections).
    func inLinkedList(_ id: String) -> String {
        "EXISTS (SELECT 1 FROM todos WHERE todos.id = \(id) AND todos.list_id = \(listSQL))"
    }

    /// Every link: each synced list and its collection, the remote's own list first; those whose
    /// collection is gone too (``SyncLink/gone``).
    public func links() throws(TodoStoreError) -> [SyncLink] {
        try TodoStoreError.wrap { () throws(SQLiteError) -> [SyncLink] in
            var links: [SyncLink] = []
            try connection.internalCachedStatement(
                """
                SELECT list_id, url, state = 'gone' FROM sync_links
                ORDER BY list_id <> coalesce((SELECT list_id FROM sync_remote WHERE id = 1), 0), list_id
                """
            ).forEachRow { links.append(SyncLink(list: $0.int64(0), url: $0.string(1), gone: $0.int64(2) == 1)) }
            return links
        }
    }

    /// Links the list `list` to the collection at `url` of the remote's account, beside the
    /// links there are (`todo sync setup` of another collection of the same account): its todos
    /// are sent there at the next sync. In one transaction.
    public func addLink(list: Int64, url: String) throws(TodoStoreError) {
        try write { () throws(SQLiteError) in
            try connection.execute("INSERT INTO sync_links (list_id, url) VALUES (?, ?)", [list, url])
            try connection.execute("DELETE FROM sync_unlinked WHERE url = ?", [url])
            try connection.execute("DELETE FROM sync_local WHERE list_id = ?", [list])
        }
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
                INSERT INTO sync_remote (id, url, user, password_command, ca_file, list_id, home, follows_all)
                VALUES (1, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET url = excluded.url, user = excluded.user, password_command = excluded.password_command,
                    ca_file = excluded.ca_file, list_id = excluded.list_id, home = excluded.home,
                    follows_all = excluded.follows_all, sync_token = NULL, last_sync = NULL, feed_seq = 0
                """
            ).execute([
                remote.url, remote.user, remote.passwordCommand, remote.caFile, remote.listID, remote.home,
                Int64(remote.followsAll ? 1 : 0)
            ])
            // The remote's own link anew; the account's other links stay, their positions reset
            // with their items (their next sync matches their todos by UID, as this one's does).
            try connection.execute("DELETE FROM sync_links WHERE list_id = ? OR url = ?", [remote.listID, remote.url])
            try connection.execute("DELETE FROM sync_unlinked WHERE url = ?", [remote.url])
            try connection.execute(
                "UPDATE sync_links SET sync_token = NULL, last_sync = NULL, feed_seq = 0, seen = NULL")
            try connection.execute("INSERT INTO sync_links (list_id, url) VALUES (?, ?)", [remote.listID, remote.url])
            try connection.execute("DELETE FROM sync_local WHERE list_id = ?", [remote.listID])
        }
    }

    /// Forgets the remote and its sync state (`todo sync forget`); todos and their UIDs stay.
    public func forget() throws(TodoStoreError) {
        try write { () throws(SQLiteError) in try forgetSQL() }
    }

    /// Forgets the link of the list `list` (`todo sync forget LIST`): its collection's objects
    /// and unanswered writes, in one transaction; the list's todos stay here and keep their
    /// UIDs, and the other lists sync on. Forgetting the remote's own list makes another link
    /// the remote's; forgetting the only one forgets the remote (``forget()``). Returns the
    /// collection's URL, or `nil` when the list does not sync (nothing changes then).
    public func forgetLink(list: Int64) throws(TodoStoreError) -> String? {
        try repository.writeTransaction(mapError: TodoStoreError.sqlite) { () throws(TodoStoreError) -> String? in
            let links = try self.links()
            guard let link = links.first(where: { $0.list == list }) else { return nil }
            guard let other = links.first(where: { $0.list != list }) else {
                try TodoStoreError.wrap { () throws(SQLiteError) in try forgetSQL() }
                return link.url
            }
            try TodoStoreError.wrap { () throws(SQLiteError) in
                try connection.execute("DELETE FROM sync_items WHERE list_id = ?", [list])
                try connection.execute("DELETE FROM sync_sent WHERE list_id = ?", [list])
                try connection.execute("DELETE FROM sync_links WHERE list_id = ?", [list])
                // Left alone from now on: not linked again, nor mentioned, by a sync of an
                // account that follows every collection; nor is the list (if it is still here)
                // given a collection anew. A list whose collection was gone is an ordinary list
                // again: such an account gives it a new collection.
                try connection.execute("INSERT OR IGNORE INTO sync_unlinked (url) VALUES (?)", [link.url])
                if !link.gone {
                    try connection.execute(
                        "INSERT OR IGNORE INTO sync_local (list_id) SELECT id FROM lists WHERE id = ?", [list])
                }
                try connection.execute(
                    "UPDATE sync_remote SET url = ?, list_id = ? WHERE id = 1 AND list_id = ?",
                    [other.url, other.list, list])
            }
            return link.url
        }
    }

    private func forgetSQL() throws(SQLiteError) {
        try connection.execute("DELETE FROM sync_items")
        try connection.execute("DELETE FROM sync_sent")
        try connection.execute("DELETE FROM sync_gone")
        try connection.execute("DELETE FROM sync_remote")
        try connection.execute("DELETE FROM sync_links")
        try connection.execute("DELETE FROM sync_unlinked")
        try connection.execute("DELETE FROM sync_local")
        // UIDs of todos deleted here were kept only to send the deletion: nothing to send to now.
        try connection.execute("DELETE FROM todo_uids WHERE todo_id NOT IN (SELECT id FROM todos)")
    }

    /// What ``link(_:relinking:listNamed:)`` did.
    public enum LinkOutcome: Sendable, Equatable {
        /// The remote is stored: there was none, or it was the same collection
        /// (``SyncRemote/isSameCollection(as:)``).
        case linked
        /// The collection is one more of the account's: the list `list` syncs with it, beside
        /// the lists that synced before.
        case added(list: Int64)
        /// The database was linked to `previous`, another collection: its sync state was
        /// forgotten as ``forget()`` forgets it, and the remote is stored.
        case relinked(previous: SyncRemote)
        /// The database is linked to `current`, another collection, and `relinking` was not
        /// asked for: nothing was stored. The next sync after a re-link would send the
        /// `todos` of the list it holds to the new collection.
        case refused(current: SyncRemote, todos: Int)
    }

    /// Links the database to `remote` (`todo sync setup`), in one transaction. A database never
    /// set up, or set up with the same collection, is linked (``setRemote(_:)``). Another
    /// collection of the same account (the same server and user), for a list that does not sync
    /// yet, is one more link (``addLink(list:url:)``): that is how a list is added, and when
    /// `listNamed` is given, the list is the one of that name (made if there is none) rather
    /// than `remote.listID`. Anything else (another account, or a list or a collection that
    /// syncs already, elsewhere) is re-linked only when `relinking`: else the next sync would
    /// send a list's todos to a collection the user may not have meant, so nothing changes and
    /// the outcome says what would have been sent.
    public func link(_ remote: SyncRemote, relinking: Bool, listNamed: String? = nil) throws(TodoStoreError)
        -> LinkOutcome
    {
        try repository.writeTransaction(mapError: TodoStoreError.sqlite) { () throws(TodoStoreError) -> LinkOutcome in
            var remote = remote
            let named = try listNamed.flatMap { (name) throws(TodoStoreError) in try repository.list(named: name) }
            guard let current = try self.remote() else {
                // The first link: the list named, made if there is none.
                if let named {
                    remote.listID = named.id
                } else if let listNamed {
                    remote.listID = try repository.createList(named: listNamed).id
                }
                try setRemote(remote)
                return .linked
            }
            guard !current.isSameCollection(as: remote) else {
                try setRemote(remote)
                return .linked
            }
            let links = try self.links()
            let sameAccount = current.user == remote.user && Self.origin(current.url) == Self.origin(remote.url)
            // A list whose collection is gone, linked to a collection of the account that holds no
            // other list (or to its own, back): its sync state begins anew, its todos matched by UID.
            let list = named?.id ?? remote.listID
            if sameAccount, links.contains(where: { $0.list == list && $0.gone }),
                !links.contains(where: { $0.url == remote.url && $0.list != list })
            {
                try TodoStoreError.wrap { () throws(SQLiteError) in
                    try connection.execute("DELETE FROM sync_items WHERE list_id = ?", [list])
                    try connection.execute("DELETE FROM sync_sent WHERE list_id = ?", [list])
                    try connection.execute("DELETE FROM sync_unlinked WHERE url = ?", [remote.url])
                    try connection.execute("DELETE FROM sync_local WHERE list_id = ?", [list])
                    try connection.execute(
                        """
                        UPDATE sync_links SET url = ?, state = 'linked', sync_token = NULL, last_sync = NULL, feed_seq = 0,
                            seen = NULL, list_name_base = NULL, list_color_base = NULL, name_base = NULL, color_base = NULL
                        WHERE list_id = ?
                        """, [remote.url, list])
                    try connection.execute(
                        "UPDATE sync_remote SET url = ? WHERE id = 1 AND list_id = ?", [remote.url, list])
                }
                return .added(list: list)
            }
            // One of the account's other links, set up again: as it is.
            if sameAccount, links.contains(where: { $0.url == remote.url && $0.list == (named?.id ?? remote.listID) }) {
                return .linked
            }
            if !relinking, sameAccount,
                !links.contains(where: { $0.url == remote.url })
            {
                if let named {
                    remote.listID = named.id
                } else if let listNamed {
                    remote.listID = try repository.createList(named: listNamed).id
                }
                if !links.contains(where: { $0.list == remote.listID }) {
                    try addLink(list: remote.listID, url: remote.url)
                    return .added(list: remote.listID)
                }
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

    /// `scheme://host[:port]` of `url`: two collections of one account share it.
    static func origin(_ url: String) -> String {
        let parts = url.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false)
        return parts.prefix(3).joined(separator: "/")
    }

    public func progress() throws(TodoStoreError) -> SyncProgress {
        try TodoStoreError.wrap { () throws(SQLiteError) -> SyncProgress in
            let statement = try connection.internalCachedStatement(
                "SELECT sync_token, last_sync, feed_seq FROM sync_links WHERE list_id = \(listSQL)")
            var progress = SyncProgress(syncToken: nil, lastSync: nil, feedSeq: 0)
            try statement.forEachRow {
                progress = SyncProgress(
                    syncToken: $0.optionalString(0), lastSync: $0.optionalString(1), feedSeq: $0.int64(2))
            }
            return progress
        }
    }

    /// Stores `token` as the collection's state the items here stand for, if the token stored
    /// is still `expected` (the one this sync started from); otherwise (another sync of this
    /// database stored one meanwhile) none, so that the next sync lists everything. Either way
    /// the state the list was last in step with (`seen`, AccountSync's idle lists) is forgotten
    /// until the sync ends (``SyncAccount``): the items change now. A token is
    /// a state of the collection, not a moment: Xandikos's is the id of the collection's git
    /// tree, Radicale's names a stored listing, and either answers "changes since" by comparing
    /// that state with the current one. An object written here after the state the token names,
    /// then put back there as it was (deleted again, a phone's edit undone), is no change
    /// between the two: a token that does not match the items here would hide it for good.
    func setToken(_ token: String?, replacing expected: String?) throws(TodoStoreError) {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            try connection.internalCachedStatement(
                """
                UPDATE sync_links SET sync_token = CASE WHEN sync_token IS ? THEN ? END, seen = NULL
                WHERE list_id = \(listSQL)
                """
            ).execute([expected, token])
        }
    }

    /// Forgets the token, and the state the list was last in step with: the items here no
    /// longer stand for the state either names (this sync is about to write, or took in only
    /// part of a listing). The next sync lists everything, unless this one stores a token for
    /// the state it leaves (``setToken(_:replacing:)``).
    func clearToken() throws(TodoStoreError) {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            try connection.internalCachedStatement(
                "UPDATE sync_links SET sync_token = NULL, seen = NULL WHERE list_id = \(listSQL)"
            ).execute()
        }
    }

    func setFinished(at lastSync: String, feedSeq: Int64?) throws(TodoStoreError) {
        try TodoStoreError.wrap { () throws(SQLiteError) in try setFinishedSQL(at: lastSync, feedSeq: feedSeq) }
    }

    private func setFinishedSQL(at lastSync: String, feedSeq: Int64?) throws(SQLiteError) {
        if let feedSeq {
            try connection.internalCachedStatement(
                "UPDATE sync_links SET last_sync = ?, feed_seq = ? WHERE list_id = \(listSQL)"
            ).execute([lastSync, feedSeq])
        } else {
            try connection.internalCachedStatement("UPDATE sync_links SET last_sync = ? WHERE list_id = \(listSQL)")
                .execute([lastSync])
        }
    }

    // MARK: Items

    /// Every item, by UID.
    func items() throws(TodoStoreError) -> [String: SyncItem] {
        try TodoStoreError.wrap { () throws(SQLiteError) in try itemsSQL() }
    }

    private func itemsSQL() throws(SQLiteError) -> [String: SyncItem] {
        let statement = try connection.internalCachedStatement(
            "SELECT \(Self.itemColumns) FROM sync_items WHERE list_id = \(listSQL)")
        var items: [String: SyncItem] = [:]
        try statement.forEachRow { row in
            let item = Self.item(from: row)
            items[item.uid] = item
        }
        return items
    }

    /// The item of `uid` in this list's collection.
    func item(uid: String) throws(TodoStoreError) -> SyncItem? {
        try TodoStoreError.wrap { () throws(SQLiteError) in try item(where: "uid", is: uid) }
    }

    /// The item of `uid` in whichever list's collection holds it (a UID is in one at a time).
    func anyItem(uid: String) throws(TodoStoreError) -> SyncItem? {
        try TodoStoreError.wrap { () throws(SQLiteError) in try item(where: "uid", is: uid, inThisList: false) }
    }

    /// The item of `uid` in another list's collection, with that list: a UID is in one
    /// collection at a time, so one found there and here is an object another app moved.
    func itemElsewhere(uid: String) throws(TodoStoreError) -> (item: SyncItem, list: Int64)? {
        try TodoStoreError.wrap { () throws(SQLiteError) -> (item: SyncItem, list: Int64)? in
            let statement = try connection.internalCachedStatement(
                "SELECT \(Self.itemColumns), list_id FROM sync_items WHERE uid = ? AND list_id <> \(listSQL)")
            try statement.bind([uid])
            var found: (item: SyncItem, list: Int64)?
            try statement.forEachRow { found = (Self.item(from: $0), $0.int64(Self.itemColumnCount)) }
            return found
        }
    }

    func item(href: String) throws(TodoStoreError) -> SyncItem? {
        try TodoStoreError.wrap { () throws(SQLiteError) in try item(where: "href", is: href) }
    }

    /// The item whose `column` (a unique one: uid or href) holds `value`, in this list's
    /// collection (or, not `inThisList`, in any).
    private func item(where column: String, is value: String, inThisList: Bool = true) throws(SQLiteError)
        -> SyncItem?
    {
        let statement = try connection.internalCachedStatement(
            "SELECT \(Self.itemColumns) FROM sync_items WHERE \(column) = ?"
                + (inThisList ? " AND list_id = \(listSQL)" : ""))
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
        try statement.bind(item.parentUID, at: Int32(5 + Self.fieldColumns.count))
        try statement.bind(Self.storedUIDs(item.dependsOnUIDs), at: Int32(6 + Self.fieldColumns.count))
        try statement.bind(try linkedListSQLValue(), at: Int32(7 + Self.fieldColumns.count))
        while try statement.step() {}
        try statement.reset()
    }

    /// The upsert of an item: its place and text, then the base fields in ``fieldColumns``' order.
    private static let saveItem = """
        INSERT INTO sync_items (uid, href, etag, ics, \(fieldColumns.joined(separator: ", ")), parent_uid, depends_uids,
            list_id)
        VALUES (\(Array(repeating: "?", count: 7 + fieldColumns.count).joined(separator: ", ")))
        ON CONFLICT (uid) DO UPDATE SET href = excluded.href, etag = excluded.etag, ics = excluded.ics,
            \(fieldColumns.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")), parent_uid = excluded.parent_uid,
            depends_uids = excluded.depends_uids, list_id = excluded.list_id
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
                "INSERT OR REPLACE INTO sync_sent (uid, href, ics, list_id) VALUES (?, ?, ?, \(listSQL))"
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
            try connection.internalCachedStatement("SELECT href FROM sync_sent WHERE list_id = \(listSQL)").forEachRow {
                hrefs.insert($0.string(0))
            }
            return hrefs
        }
    }

    /// The write sent to `href` whose answer was not recorded, if any: its UID and text.
    func sent(href: String) throws(TodoStoreError) -> (uid: String, text: String)? {
        try TodoStoreError.wrap { () throws(SQLiteError) -> (uid: String, text: String)? in
            let statement = try connection.internalCachedStatement(
                "SELECT uid, ics FROM sync_sent WHERE href = ? AND list_id = \(listSQL)")
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
        (["uid", "href", "etag", "ics"] + fieldColumns + ["parent_uid", "depends_uids"]).map { prefix + $0 }
            .joined(separator: ", ")
    }

    /// How many columns ``itemColumns`` names.
    static let itemColumnCount = Int32(6 + fieldColumns.count)

    /// The item on a row that selected ``itemColumns`` from `column` on.
    static func item(from row: Row, at column: Int32 = 0) -> SyncItem {
        SyncItem(
            uid: row.string(column), href: row.string(column + 1), etag: row.optionalString(column + 2),
            text: row.string(column + 3), base: TodoColumns.fields(from: row, at: column + 4),
            parentUID: row.optionalString(column + itemColumnCount - 2),
            dependsOnUIDs: (row.optionalString(column + itemColumnCount - 1) ?? "").split(separator: "\n").map(
                String.init))
    }

    /// `depends_uids` as stored (migration 0019): the UIDs one a line, NULL for none.
    static func storedUIDs(_ uids: [String]) -> String? { uids.isEmpty ? nil : uids.joined(separator: "\n") }

    /// ``linkedListID()`` for a statement run in an SQLite-throwing body.
    private func linkedListSQLValue() throws(SQLiteError) -> Int64 {
        if let list { return list }
        return try connection.internalCachedStatement("SELECT list_id FROM sync_remote WHERE id = 1").scalarInt64()
            ?? TodoList.firstID
    }

    func write<Result>(_ body: () throws(SQLiteError) -> Result) throws(TodoStoreError) -> Result {
        try repository.writeTransaction(mapError: TodoStoreError.sqlite) { () throws(TodoStoreError) -> Result in
            try TodoStoreError.wrap(body)
        }
    }
}
