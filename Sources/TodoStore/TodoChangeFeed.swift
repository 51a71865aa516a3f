import SQLite

/// A reader's place in the change feed (migration 0004): the `seq` of the last change it has
/// taken into account. Positions only grow; 0 is before every change.
public struct TodoFeedPosition: Sendable, Equatable, Comparable {
    public let seq: Int64

    public init(seq: Int64) { self.seq = seq }

    public static func < (lhs: TodoFeedPosition, rhs: TodoFeedPosition) -> Bool { lhs.seq < rhs.seq }
}

/// What changed after a position, by the feed.
public enum TodoFeedRead: Sendable, Equatable {
    /// These todo ids changed (were added, edited or deleted: read them to see which), and the
    /// feed now stands at `position`.
    case changed(ids: Set<Int64>, position: TodoFeedPosition)
    /// Too much to say in ids: more changes than the limit, or the feed no longer reaches back
    /// to the position (pruned, or emptied by hand). Read everything again; the feed stood at
    /// `position` before that read.
    case tooMuch(position: TodoFeedPosition)
}

extension TodoRepository {
    /// Where the feed stands now: take it *before* reading the todos it should cover, so a
    /// change committed in between is read again later rather than missed.
    public func feedPosition() throws(TodoStoreError) -> TodoFeedPosition {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            let seq = try connection.internalCachedStatement("SELECT seq FROM todo_changes ORDER BY seq DESC LIMIT 1")
                .scalarInt64()
            return TodoFeedPosition(seq: seq ?? 0)
        }
    }

    /// The lists' change feed's last entry (`list_changes`, migration 0013: a row of a list's
    /// id for every change to `lists`, written by triggers for every writer), 0 when it is
    /// empty. Only whether it moved matters: the lists are few, and read whole when it did.
    /// One B-tree seek.
    public func listFeedPosition() throws(TodoStoreError) -> Int64 {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            try connection.internalCachedStatement("SELECT seq FROM list_changes ORDER BY seq DESC LIMIT 1")
                .scalarInt64() ?? 0
        }
    }

    /// The todos changed after `position`, by anyone: this repository, another `todo`, the
    /// sqlite3 shell, any SQLite client (the feed is written by triggers). At most `limit` ids:
    /// past that, or when the feed was pruned past `position`, ``TodoFeedRead/tooMuch(position:)``.
    ///
    /// Complexity: O(k log n) for k changes, whatever the number of todos.
    public func changedTodos(since position: TodoFeedPosition, limit: Int) throws(TodoStoreError) -> TodoFeedRead {
        let read = try TodoStoreError.wrap { () throws(SQLiteError) -> TodoFeedRead? in
            let statement = try connection.internalCachedStatement(
                "SELECT seq, id FROM todo_changes WHERE seq > ? ORDER BY seq LIMIT ?")
            try statement.bind([position.seq, Int64(limit) + 1])
            var ids = Set<Int64>()
            var first: Int64?
            var last = position.seq
            var count = 0
            try statement.forEachRow { row in
                let seq = row.int64(0)
                if first == nil { first = seq }
                last = seq
                ids.insert(row.int64(1))
                count += 1
            }
            // Entries are numbered without gaps (AUTOINCREMENT; a rolled-back insert gives its
            // number back) except where pruning removed them: a first entry past position + 1
            // means some changes are no longer in the feed.
            if let first, first != position.seq + 1 { return nil }
            if count > limit { return nil }
            return .changed(ids: ids, position: TodoFeedPosition(seq: last))
        }
        if let read { return read }
        return .tooMuch(position: try feedPosition())
    }
}
