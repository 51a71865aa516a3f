import SQLite

/// Writing many todos at once, for an import: the rows of a whole file in few statements.
extension TodoRepository {
    /// The largest id a todo of this file ever had (0 for a file that never had one): ids are
    /// never reused (AUTOINCREMENT), so each id above it is free for good, for a todo brought from
    /// another file under the id it had there (`todo import` of `todo export`).
    public func highestIDEverGiven() throws(TodoStoreError) -> Int64 {
        let given = try TodoStoreError.wrap { () throws(SQLiteError) in
            try connection.internalCachedStatement("SELECT seq FROM sqlite_sequence WHERE name = 'todos'")
                .scalarInt64() ?? 0
        }
        return max(given, try maxID())
    }

    /// Runs `body`, a bulk write of many rows in one transaction (an import), with SQLite's
    /// temporary files in memory, and puts the setting back. Each statement that may need to be
    /// undone alone (an INSERT with triggers, an INSERT OR REPLACE) keeps the pages it changes
    /// in a statement journal; once those of one statement pass 64 KiB (a row and its five
    /// indexes can), SQLite moves that journal to a temporary file for the rest of the
    /// transaction, and then writes every following statement's pages to it: a fifth of an
    /// import's time. In memory the journal is emptied after each statement, so it stays small.
    /// Call it outside a transaction: the setting cannot change within one.
    public func withTemporaryFilesInMemory<Result, Failure: Error>(
        mapError: (TodoStoreError) -> Failure, _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let before: Int64
        do throws(TodoStoreError) {
            before = try TodoStoreError.wrap { () throws(SQLiteError) in
                let old = try connection.prepare("PRAGMA temp_store").scalarInt64() ?? 0
                try connection.execute("PRAGMA temp_store = MEMORY")
                return old
            }
        } catch {
            throw mapError(error)
        }
        defer { try? connection.execute("PRAGMA temp_store = \(before)") }
        return try body()
    }

    /// A todo for ``add(inBulk:now:)``: its fields, the id it is to have, and its list.
    public struct NewTodo: Sendable {
        public var fields: TodoFields
        /// An id no todo of the file has or ever had (above ``highestIDEverGiven()``): ids are
        /// never reused.
        public var id: Int64
        public var list: Int64

        public init(fields: TodoFields, id: Int64, list: Int64) {
            self.fields = fields
            self.id = id
            self.list = list
        }
    }

    /// Adds every todo of `todos` at the top level of its list, as
    /// ``add(_:nameCheck:now:id:list:parent:)`` adds one with ``NameCheck/asStored`` (the times
    /// `now` gives included), many rows to a statement: each statement of a transaction keeps
    /// the pages it changes in a journal of its own, so that it can be undone alone, and one
    /// statement a row copies a page of each index for every row. One transaction (the caller's,
    /// or its own); all or nothing.
    ///
    /// - Throws: ``TodoStoreError/noSuchList(_:)`` for a list that is not there; an SQLite
    ///   error for an id that is taken.
    public func add(inBulk todos: [NewTodo], now: UTCTimestamp? = .now()) throws(TodoStoreError) {
        guard !todos.isEmpty else { return }
        try writeTransaction { () throws(TodoStoreError) in
            for list in Set(todos.map(\.list)) where try self.list(id: list) == nil {
                throw .noSuchList("#\(list)")
            }
            try TodoStoreError.wrap { () throws(SQLiteError) in
                var start = 0
                while start < todos.count {
                    let rows = min(Self.bulkRows, todos.count - start)
                    // Every full statement is one cached statement; the last one, shorter, is
                    // prepared once.
                    let sql = Self.bulkInsert(rows: rows)
                    let statement =
                        rows == Self.bulkRows
                        ? try connection.internalCachedStatement(sql) : try connection.prepare(sql)
                    try statement.reset()
                    var parameter: Int32 = 1
                    for todo in todos[start..<start + rows] {
                        var fields = todo.fields
                        if let now {
                            fields.created = fields.created ?? now
                            fields.completed = fields.status == .completed ? (fields.completed ?? now) : nil
                        }
                        try statement.bind(todo.id, at: parameter)
                        try TodoColumns.bind(fields, to: statement, from: parameter + 1)
                        parameter += Int32(TodoColumns.fields.count) + 1
                        try statement.bind(todo.list, at: parameter)
                        parameter += 1
                    }
                    try statement.step()
                    start += rows
                }
            }
        }
    }

    /// The rows of one statement of ``add(inBulk:now:)``: 19 parameters a row, well under
    /// SQLite's limit of 32,766.
    static let bulkRows = 100

    /// `INSERT INTO todos (id, fields..., list_id, parent_id) VALUES (?, ..., NULL), ...` for `rows` rows.
    static func bulkInsert(rows: Int) -> String {
        let row = "(" + Array(repeating: "?", count: TodoColumns.fields.count + 2).joined(separator: ", ") + ", NULL)"
        return "INSERT INTO todos (id, \(TodoColumns.fields.joined(separator: ", ")), list_id, parent_id) VALUES "
            + Array(repeating: row, count: rows).joined(separator: ", ")
    }
}
