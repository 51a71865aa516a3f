import SQLite
import TodoStore

/// A change made here since the last sync, by any program: what the next sync sends.
public enum LocalChange: Sendable, Equatable {
    /// A todo the collection does not have yet (never synced, or its object was deleted there
    /// while it was edited here). `uid` is nil until it is given one.
    case created(Todo, uid: String?)
    /// A synced todo whose fields, place in the tree (`ParentLink`) or links to the todos it
    /// waits for (`DependencyLinks`) differ from the last synced ones.
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
        try localChangesAndReorders(since: feedSeq).changes
    }

    /// A synced todo whose fields mean the same as the last synced ones (nothing to send) but
    /// whose tags are written in another order: an untag and tag again of the same word, or
    /// the sqlite3 shell. A reorder is no change to send (``TodoTags/means(theSameAs:)``), and
    /// the object keeps its CATEGORIES as they are; so that every device shows the tags in the
    /// same order (docs/sync.md), the todo takes the order of its last synced version.
    struct Reorder {
        var todo: Todo
        var syncedTags: TodoTags
    }

    /// ``localChanges(since:)``, and the reorders among the todos compared.
    func localChangesAndReorders(since feedSeq: Int64) throws(TodoStoreError) -> (
        changes: [LocalChange], reorders: [Reorder]
    ) {
        let read =
            feedSeq > 0 ? try repository.changedTodos(since: TodoFeedPosition(seq: feedSeq), limit: 100_000) : nil
        var found = Found()
        try TodoStoreError.wrap { () throws(SQLiteError) in
            if case .changed(let ids, _)? = read {
                try changes(ofTodos: ids.sorted(), into: &found)
            } else {
                try allChanges(into: &found)
            }
        }
        // A todo with links to compare, whose fields and parent are as synced: changed when its
        // links are not (DependencyLinks), else a reorder of its tags at most.
        for (todo, item) in found.linked {
            if try dependencyLinks(of: todo.id, base: item.dependsOnUIDs).differ(fromBase: item.dependsOnUIDs) {
                found.changes.append(.changed(todo, item: item))
            } else if todo.tags != item.base.tags {
                found.reorders.append(Reorder(todo: todo, syncedTags: item.base.tags))
            }
        }
        return (found.changes, found.reorders)
    }

    /// What the rows compared show.
    private struct Found {
        var changes: [LocalChange] = []
        var reorders: [Reorder] = []
        /// Todos unchanged but for their links, maybe: read after the rows (it takes reads).
        var linked: [(Todo, SyncItem)] = []

        /// Takes in a row of ``SyncState/rowColumns``.
        mutating func take(_ row: Row) {
            let todo = TodoColumns.todo(from: row)
            let uidColumn = Int32(TodoColumns.count)
            let uid = row.optionalString(uidColumn)
            guard !row.isNull(uidColumn + 1) else {
                changes.append(.created(todo, uid: uid))
                return
            }
            let item = SyncState.item(from: row, at: uidColumn + 1)
            let fields = todo.fields
            let parentColumn = uidColumn + 1 + SyncState.itemColumnCount
            let parent = ParentLink.of(
                parentID: todo.parentID, parentList: row.isNull(parentColumn) ? nil : row.int64(parentColumn),
                parentUID: row.optionalString(parentColumn + 1), todoList: todo.listID, base: item.parentUID,
                baseIsKnown: row.int64(parentColumn + 2) == 1)
            if !fields.means(theSameAs: item.base) || parent.differs(fromBase: item.parentUID) {
                changes.append(.changed(todo, item: item))
            } else if row.int64(parentColumn + 3) == 1 {
                linked.append((todo, item))
            } else if fields.tags != item.base.tags {
                reorders.append(Reorder(todo: todo, syncedTags: item.base.tags))
            }
        }
    }

    /// How many changes wait to be sent (`todo sync status`).
    public func pendingCount() throws(TodoStoreError) -> Int {
        try localChanges(since: try progress().feedSeq).count
    }

    /// The todo, its UID, its item, what ``ParentLink`` needs (its parent's list and UID, and
    /// whether the parent last synced was ever a todo here), and whether it has links to compare
    /// (``DependencyLinks``: it waits for a todo here, or waited for one when last synced).
    private static let rowColumns =
        TodoColumns.list(qualifiedBy: "t") + ", u.uid, " + itemColumns(prefix: "s.")
        + ", p.list_id, pu.uid, EXISTS (SELECT 1 FROM todo_uids bu WHERE bu.uid = s.parent_uid), "
        + "EXISTS (SELECT 1 FROM dependencies d WHERE d.todo_id = t.id) OR coalesce(s.depends_uids, '') <> ''"

    /// The joins ``rowColumns`` reads from, after `FROM todos t`.
    private var rowJoins: String {
        """
        LEFT JOIN todo_uids u ON u.todo_id = t.id LEFT JOIN sync_items s ON s.uid = u.uid AND s.list_id = \(listSQL)
        LEFT JOIN todos p ON p.id = t.parent_id LEFT JOIN todo_uids pu ON pu.todo_id = t.parent_id
        """
    }

    /// Whether the todo on the row (`u`: its UID) was moved here from another synced list whose
    /// collection still holds its object, in SQL. Such a todo is sent once that collection's
    /// sync has deleted it there (``SyncAccount`` syncs every list's collection, then sends
    /// again): servers that keep a UID unique per account (Cyrus, iCloud) refuse it in a second
    /// collection, and a sync killed in between leaves it in one list, never two.
    private var movingIn: String {
        "EXISTS (SELECT 1 FROM sync_items o WHERE o.uid = u.uid AND o.list_id <> \(listSQL))"
    }

    private func allChanges(into found: inout Found) throws(SQLiteError) {
        let statement = try connection.internalCachedStatement(
            """
            SELECT \(Self.rowColumns) FROM todos t \(rowJoins)
            WHERE t.list_id = \(listSQL) AND NOT \(movingIn)
            AND (s.uid IS NULL OR t.parent_id IS NOT NULL OR s.parent_uid IS NOT NULL
                OR coalesce(s.depends_uids, '') <> '' OR EXISTS (SELECT 1 FROM dependencies d WHERE d.todo_id = t.id)
                OR \(Self.fieldColumns.map { "t.\($0) IS NOT s.\($0)" }.joined(separator: " OR ")))
            ORDER BY t.id
            """)
        try statement.forEachRow { found.take($0) }
        let deleted = try connection.internalCachedStatement(
            """
            SELECT \(Self.itemColumns(prefix: "s.")) FROM todo_uids u
            JOIN sync_items s ON s.uid = u.uid AND s.list_id = \(listSQL) WHERE NOT \(inLinkedList("u.todo_id"))
            ORDER BY u.todo_id
            """)
        try deleted.forEachRow { found.changes.append(.deleted(item: Self.item(from: $0, at: 0))) }
    }

    private func changes(ofTodos ids: [Int64], into found: inout Found) throws(SQLiteError) {
        let presentStatement = try connection.internalCachedStatement(
            """
            SELECT \(Self.rowColumns) FROM todos t \(rowJoins)
            WHERE t.id = ? AND t.list_id = \(listSQL) AND NOT \(movingIn)
            """)
        let gone = try connection.internalCachedStatement(
            """
            SELECT \(Self.itemColumns(prefix: "s.")) FROM todo_uids u
            JOIN sync_items s ON s.uid = u.uid AND s.list_id = \(listSQL)
            WHERE u.todo_id = ? AND NOT \(inLinkedList("u.todo_id"))
            """)
        for id in ids {
            try presentStatement.reset()
            try presentStatement.bind([id])
            var present = false
            try presentStatement.forEachRow { row in
                present = true
                found.take(row)
            }
            if present { continue }
            try gone.reset()
            try gone.bind([id])
            try gone.forEachRow { found.changes.append(.deleted(item: Self.item(from: $0, at: 0))) }
        }
    }
}
