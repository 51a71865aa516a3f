import SQLite
import TodoStore

/// A change made here since the last sync, by any program: what the next sync sends.
public enum LocalChange: Sendable, Equatable {
    /// A todo the collection does not have yet (never synced, or its object was deleted there
    /// while it was edited here). `uid` is nil until it is given one.
    case created(Todo, uid: String?)
    /// A synced todo whose fields differ from the last synced ones.
    case changed(Todo, item: SyncItem)
    /// A synced todo that is gone here.
    case deleted(item: SyncItem)
}

extension SyncState {
    /// The local changes since the last sync, to the todos of the list the remote holds: a
    /// todo moved to another list is gone from the collection's point of view (its object is
    /// deleted there), and one moved in is new to it.
    ///
    /// Any program may write the file (another `todo`, the sqlite3 shell, Python), so changes
    /// are found in the file, never in this process's memory: a todo has changed when its
    /// fields differ from the last synced ones. The change feed (migration 0004) narrows the
    /// todos to compare to those written since the last complete sync (`feedSeq`): a sync with
    /// nothing to send reads a few rows, whatever the list's size. When the feed no longer
    /// reaches back that far, lists more than 100,000 changes, or before the first sync, every
    /// todo is compared.
    public func localChanges(since feedSeq: Int64) throws(TodoStoreError) -> [LocalChange] {
        let read =
            feedSeq > 0 ? try repository.changedTodos(since: TodoFeedPosition(seq: feedSeq), limit: 100_000) : nil
        return try TodoStoreError.wrap { () throws(SQLiteError) -> [LocalChange] in
            if case .changed(let ids, _)? = read {
                return try changes(ofTodos: ids.sorted())
            }
            return try allChanges()
        }
    }

    /// How many changes wait to be sent (`todo sync status`).
    public func pendingCount() throws(TodoStoreError) -> Int {
        try localChanges(since: try progress().feedSeq).count
    }

    private static let rowColumns = TodoColumns.list(qualifiedBy: "t") + ", u.uid, " + itemColumns(prefix: "s.")

    /// Whether the todo on the row (`u`: its UID) was moved here from another synced list whose
    /// collection still holds its object, in SQL. Such a todo is sent once that collection's
    /// sync has deleted it there (``SyncAccount`` syncs every list's collection, then sends
    /// again): servers that keep a UID unique per account (Cyrus, iCloud) refuse it in a second
    /// collection, and a sync killed in between leaves it in one list, never two.
    private var movingIn: String {
        "EXISTS (SELECT 1 FROM sync_items o WHERE o.uid = u.uid AND o.list_id <> \(listSQL))"
    }

    private func allChanges() throws(SQLiteError) -> [LocalChange] {
        var changes: [LocalChange] = []
        let statement = try connection.internalCachedStatement(
            """
            SELECT \(Self.rowColumns) FROM todos t
            LEFT JOIN todo_uids u ON u.todo_id = t.id LEFT JOIN sync_items s ON s.uid = u.uid AND s.list_id = \(listSQL)
            WHERE t.list_id = \(listSQL) AND NOT \(movingIn)
            AND (s.uid IS NULL OR \(Self.fieldColumns.map { "t.\($0) IS NOT s.\($0)" }.joined(separator: " OR ")))
            ORDER BY t.id
            """)
        try statement.forEachRow { if let change = Self.change(from: $0) { changes.append(change) } }
        let deleted = try connection.internalCachedStatement(
            """
            SELECT \(Self.itemColumns(prefix: "s.")) FROM todo_uids u
            JOIN sync_items s ON s.uid = u.uid AND s.list_id = \(listSQL) WHERE NOT \(inLinkedList("u.todo_id"))
            ORDER BY u.todo_id
            """)
        try deleted.forEachRow { changes.append(.deleted(item: Self.item(from: $0, at: 0))) }
        return changes
    }

    private func changes(ofTodos ids: [Int64]) throws(SQLiteError) -> [LocalChange] {
        var changes: [LocalChange] = []
        let present = try connection.internalCachedStatement(
            """
            SELECT \(Self.rowColumns) FROM todos t
            LEFT JOIN todo_uids u ON u.todo_id = t.id LEFT JOIN sync_items s ON s.uid = u.uid AND s.list_id = \(listSQL)
            WHERE t.id = ? AND t.list_id = \(listSQL) AND NOT \(movingIn)
            """)
        let gone = try connection.internalCachedStatement(
            """
            SELECT \(Self.itemColumns(prefix: "s.")) FROM todo_uids u
            JOIN sync_items s ON s.uid = u.uid AND s.list_id = \(listSQL)
            WHERE u.todo_id = ? AND NOT \(inLinkedList("u.todo_id"))
            """)
        for id in ids {
            try present.reset()
            try present.bind([id])
            var found = false
            try present.forEachRow { row in
                found = true
                if let change = Self.change(from: row) { changes.append(change) }
            }
            if found { continue }
            try gone.reset()
            try gone.bind([id])
            try gone.forEachRow { changes.append(.deleted(item: Self.item(from: $0, at: 0))) }
        }
        return changes
    }

    /// The change a row of ``rowColumns`` shows, if any.
    private static func change(from row: Row) -> LocalChange? {
        let todo = TodoColumns.todo(from: row)
        let uidColumn = Int32(TodoColumns.count)
        let uid = row.optionalString(uidColumn)
        guard !row.isNull(uidColumn + 1) else { return .created(todo, uid: uid) }
        let item = item(from: row, at: uidColumn + 1)
        let fields = todo.fields
        return fields.means(theSameAs: item.base) ? nil : .changed(todo, item: item)
    }
}
