import SQLite

/// A fetch read in slices: the rows of one `SELECT`, handed out a few thousand at a time.
///
/// Why: reading 100,000 todos at once blocks an interactive caller for ~100 ms. One statement
/// stepped across slices keeps a single read snapshot (SQLite holds it until the statement is
/// done), so the concatenated slices equal one ``TodoRepository/fetch(_:)`` at the moment the
/// first row was read, whatever other connections commit meanwhile.
///
/// Not thread-safe: use it on the repository's thread, and finish or drop it before writing
/// through the same connection (an open statement would otherwise keep its snapshot).
public final class TodoFetchCursor {
    private var statement: Statement?

    init(statement: Statement) {
        self.statement = statement
    }

    /// True once every row was read.
    public var isFinished: Bool { statement == nil }

    /// Appends up to `limit` more todos to `todos`, in the request's order. Returns whether
    /// the result is now complete.
    @discardableResult
    public func read(upTo limit: Int, into todos: inout [Todo]) throws(TodoStoreError) -> Bool {
        guard let statement else { return true }
        // A failed step leaves the statement reset; the cursor is then finished, not restarted.
        var count = 0
        var done = true
        defer { if done { self.statement = nil } }
        try TodoStoreError.wrap { () throws(SQLiteError) in
            while count < limit, try statement.step() {
                todos.append(TodoColumns.todo(from: statement.row))
                count += 1
            }
        }
        done = count < limit
        return isFinished
    }
}

extension TodoRepository {
    /// A cursor over the todos `request` selects, for reading them in slices; nothing is read
    /// until its first ``TodoFetchCursor/read(upTo:into:)``.
    public func cursor(_ request: TodoFetchRequest) throws(TodoStoreError) -> TodoFetchCursor {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            // Its own statement, not the cached one: a ``fetch(_:)`` meanwhile must not reset it.
            let statement = try connection.prepare(request.sql)
            try statement.bind(request.arguments)
            return TodoFetchCursor(statement: statement)
        }
    }
}
