import SQLite

/// A fetch read in slices: the todos of one request, handed out as many at a time as the caller
/// asks (a few thousand, say).
///
/// Why: reading a long list at once blocks an interactive caller for as long as the whole read
/// takes.
///
/// How: one statement is stepped across slices, so the whole read costs what one fetch costs
/// and, while nothing is written through this connection, every slice comes from the read
/// snapshot the first one started. A statement between two steps keeps that read transaction
/// open, and a write on a connection whose snapshot is older than another connection's commit
/// fails (`SQLITE_BUSY_SNAPSHOT`); so before anything is written through this connection the
/// statement is reset, and the next slice starts a new one after the last todo handed out, in
/// the request's order (keyset pagination; for orders without an index that statement sorts
/// the rest of the todos once). Writes through the repository therefore always work, whoever
/// else committed meanwhile.
///
/// After such a restart (``wasRestarted``) the slices come from more than one snapshot: a todo
/// changed between two of them may be missing, or handed out twice (as it was and as it is).
/// The change feed lists every such todo after ``startPosition``: re-read those to complete
/// the results, as `FetchedResultsController` does at the end of a sliced fetch. Every other
/// todo is handed out exactly once, in order.
///
/// Threading: not `Sendable`; use it where its repository is used, like the repository. An
/// error reading a slice ends the cursor (``isFinished``).
public final class TodoFetchCursor {
    private let connection: Connection
    private let request: TodoFetchRequest
    /// Where the change feed stood before the first todo was read: every change the slices may
    /// have missed, or read in two states, is listed after it.
    public let startPosition: TodoFeedPosition
    /// True once the reading was restarted after a write through this connection: the slices
    /// since come from a later snapshot than the ones before.
    public private(set) var wasRestarted = false
    /// True once every todo was handed out (or reading failed).
    public private(set) var isFinished = false
    /// The statement being stepped, or nil before the first slice and after a reset.
    private var statement: Statement?
    /// The todo the statement stands on, read one step ahead so that the slice handing out the
    /// last todo can say so; not handed out yet.
    private var lookahead: Todo?
    /// The ordering columns (as stored) of the last todo handed out, where a restart resumes.
    private var lastKey: [StoredValue]?
    /// How many todos were handed out, for the request's limit.
    private var handedOut = 0
    /// The columns read when the cursor reads key todos (``TodoKeyColumns``); nil: whole todos.
    private let keys: TodoKeyColumns?

    init(
        connection: Connection, request: TodoFetchRequest, startPosition: TodoFeedPosition,
        keys: TodoKeyColumns? = nil
    ) {
        self.connection = connection
        // A key read in name order must read the names it is ordered by.
        self.keys = keys.map { request.order == .name ? TodoKeyColumns(extra: $0.extra.union(.name)) : $0 }
        self.request = request
        self.startPosition = startPosition
    }

    /// The todo on the statement's row, whole or its key.
    @inline(__always)
    private func todo(from row: Row) -> Todo { keys?.todo(from: row) ?? TodoColumns.todo(from: row) }

    /// Appends up to `limit` more todos (at least one) to `todos`, in the request's order.
    /// Returns whether the results are now complete: true from the slice that hands out the
    /// last todo on.
    @discardableResult
    public func read(upTo limit: Int, into todos: inout [Todo]) throws(TodoStoreError) -> Bool {
        guard !isFinished else { return true }
        do {
            try TodoStoreError.wrap { () throws(SQLiteError) in try readSlice(upTo: max(limit, 1), into: &todos) }
        } catch {
            finish()
            throw error
        }
        return isFinished
    }

    private func readSlice(upTo limit: Int, into todos: inout [Todo]) throws(SQLiteError) {
        if statement == nil { try start() }
        guard let statement else { return }
        var count = 0
        if let lookahead {
            todos.append(lookahead)
            self.lookahead = nil
            count = 1
        }
        while count < limit {
            guard try statement.step() else {
                handedOut += count
                return finish()
            }
            todos.append(todo(from: statement.row))
            count += 1
        }
        handedOut += count
        // The statement stands on the last todo handed out: where a restart would resume.
        lastKey = request.order.keyColumns.map { statement.row.storedValue(keys?.position(of: $0) ?? $0) }
        if try statement.step() {
            lookahead = todo(from: statement.row)
        } else {
            finish()
        }
    }

    /// Starts the statement: the request's own the first time, the todos after the last one
    /// handed out after a reset.
    private func start() throws(SQLiteError) {
        let statement: Statement
        if let lastKey {
            var remaining = -1
            if let limit = request.limit {
                remaining = limit - handedOut
                guard remaining > 0 else { return finish() }
            }
            let (sql, arguments) = request.sql(
                after: lastKey, limit: remaining, selecting: keys?.list ?? TodoColumns.list)
            statement = try connection.prepare(sql)
            try statement.bind(arguments)
        } else {
            // Its own statement, not the cached one: a fetch meanwhile must not reset it.
            statement = try connection.prepare(keys.map { request.sql(selecting: $0.list) } ?? request.sql)
            try statement.bind(request.arguments)
        }
        statement.resetBeforeWrites { [weak self] in self?.statementWasReset() }
        self.statement = statement
    }

    /// Called before a write through the connection reset the statement: the todo read ahead
    /// is dropped (the next statement reads it again, as it is then).
    private func statementWasReset() {
        statement = nil
        lookahead = nil
        wasRestarted = true
    }

    private func finish() {
        isFinished = true
        statement = nil
        lookahead = nil
    }
}

extension TodoRepository {
    /// A cursor over the todos `request` selects, for reading them in slices; nothing but the
    /// change feed's position (``TodoFetchCursor/startPosition``) is read until its first
    /// ``TodoFetchCursor/read(upTo:into:)``.
    public func cursor(_ request: TodoFetchRequest) throws(TodoStoreError) -> TodoFetchCursor {
        TodoFetchCursor(connection: connection, request: request, startPosition: try feedPosition())
    }
}
