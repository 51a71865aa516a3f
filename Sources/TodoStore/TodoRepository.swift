import SQLite

/// The todo list stored in one SQLite file: add, read, change and delete todos.
///
/// Threading: a repository owns its ``Connection`` and, like it, is not `Sendable`: use it
/// from one actor, queue or thread. Every method is atomic: it either applies whole or throws
/// and changes nothing. Methods that take several ids are all or nothing.
public final class TodoRepository {
    /// The connection, for transactions that span several calls and for observation hooks.
    public let connection: Connection

    /// Opens (creating if needed) the todo database at `path` and brings its schema up to date.
    ///
    /// Steps: create missing folders (0700) and the file (0600); open; refuse a file that is
    /// not a database, belongs to another application, or was written by a newer `todo`, all
    /// before anything is written; switch to WAL with `synchronous = FULL` (a commit that
    /// returned survives power loss); run pending migrations.
    ///
    /// - Throws: ``TodoStoreError``.
    public convenience init(path: String, migrator: Migrator = Migrator()) throws(TodoStoreError) {
        try DatabaseFile.prepare(path)
        let connection: Connection
        do {
            var options = Connection.Options()
            options.mode = .readWrite
            connection = try Connection(path: path, options: options)
        } catch where error.isNotADatabase {
            throw .notADatabase(path: path)
        } catch {
            throw .sqlite(error)
        }
        try Self.verifyOwnership(of: connection, migrator: migrator)
        try TodoStoreError.wrap {
            try connection.setJournalMode(.wal)
            try connection.execute("PRAGMA synchronous = FULL")
        }
        try migrator.migrate(connection)
        try self.init(migratedConnection: connection)
    }

    /// Wraps a connection whose schema is already up to date, and registers the SQL function
    /// that ``TodoFetchRequest/search`` uses.
    public init(migratedConnection connection: Connection) throws(TodoStoreError) {
        self.connection = connection
        try TodoStoreError.wrap { try TodoSearch.register(on: connection) }
    }

    /// The `application_id` migration 0001 writes: "todo" in ASCII. A file with another
    /// non-zero id belongs to another application.
    public static let applicationID: Int64 = 0x746F_646F

    /// The facts that tell a todo database from another application's one.
    public struct FileIdentity: Sendable, Equatable {
        /// `PRAGMA user_version`: the newest migration applied (0 for none).
        public let schemaVersion: Int
        /// `PRAGMA application_id`.
        public let applicationID: Int64
        /// How many tables, indexes, views and triggers the file has.
        public let schemaObjects: Int64

        /// True when the file is another application's: a foreign application id, or objects
        /// without any todo schema version.
        public var belongsToAnotherApplication: Bool {
            (applicationID != 0 && applicationID != TodoRepository.applicationID) || (schemaVersion == 0 && schemaObjects > 0)
        }

        /// Reads the three facts in one read transaction: read separately, a process could see
        /// version 0 and then the tables another `todo` was creating in the same file, and take
        /// that file for a foreign database.
        public static func read(from connection: Connection) throws(SQLiteError) -> FileIdentity {
            do {
                return try connection.transaction(.deferred) {
                    FileIdentity(schemaVersion: Int(try connection.pragmaInt64("user_version")),
                                 applicationID: try connection.pragmaInt64("application_id"),
                                 schemaObjects: try connection.cachedStatement("SELECT count(*) FROM sqlite_schema").scalarInt64() ?? 0)
                }
            } catch let error as SQLiteError {
                throw error
            } catch {
                preconditionFailure("Only SQLite errors are thrown here: \(error)")
            }
        }
    }

    /// Refuses a database that another application made, and one from a newer `todo`.
    private static func verifyOwnership(of connection: Connection, migrator: Migrator) throws(TodoStoreError) {
        let identity = try TodoStoreError.wrap { try FileIdentity.read(from: connection) }
        if identity.belongsToAnotherApplication { throw .foreignDatabase(path: connection.path) }
        let version = identity.schemaVersion
        if version > migrator.latestVersion {
            throw .newerSchema(found: version, supported: migrator.latestVersion)
        }
    }

    // MARK: Reading

    private static let columns = "id, name, deadline, done"

    @inline(__always)
    static func todo(from row: Row) -> Todo {
        Todo(id: row.int64(0),
             name: row.string(1),
             deadline: row.isNull(2) ? nil : row.withUTF8(2) { CalendarDate(iso: $0) },
             isDone: row.bool(3))
    }

    /// The todo with `id`, or `nil` when there is none.
    public func todo(id: Int64) throws(TodoStoreError) -> Todo? {
        try TodoStoreError.wrap {
            let statement = try connection.cachedStatement("SELECT \(Self.columns) FROM todos WHERE id = ?")
            try statement.bind([id])
            var found: Todo?
            try statement.forEachRow { found = Self.todo(from: $0) }
            return found
        }
    }

    /// The todos with `ids`, in that order (duplicates once).
    ///
    /// - Throws: ``TodoStoreError/notFound(ids:)`` naming every missing id.
    public func todos(ids: [Int64]) throws(TodoStoreError) -> [Todo] {
        var seen = Set<Int64>()
        var found: [Todo] = []
        var missing: [Int64] = []
        for id in ids where seen.insert(id).inserted {
            if let todo = try todo(id: id) { found.append(todo) } else { missing.append(id) }
        }
        if !missing.isEmpty { throw .notFound(ids: missing) }
        return found
    }

    /// Calls `body` with each todo the request selects, in order, streaming from SQLite.
    ///
    /// Memory stays constant whatever the list's size; prefer it to ``fetch(_:)`` for output.
    public func forEach(_ request: TodoFetchRequest = TodoFetchRequest(),
                        _ body: (Todo) -> Void) throws(TodoStoreError) {
        try TodoStoreError.wrap {
            let statement = try connection.cachedStatement(request.sql)
            try statement.bind(request.arguments)
            try statement.forEachRow { body(Self.todo(from: $0)) }
        }
    }

    /// The todos the request selects, in order.
    public func fetch(_ request: TodoFetchRequest = TodoFetchRequest()) throws(TodoStoreError) -> [Todo] {
        var todos: [Todo] = []
        try forEach(request) { todos.append($0) }
        return todos
    }

    /// The todos among `ids` that the request's filter and search select, keyed by id; ids of
    /// deleted or unselected todos are absent. The request's order, limit and offset are ignored.
    ///
    /// For patching fetched results after a small change: one primary-key look-up per id.
    public func fetch(_ request: TodoFetchRequest, ids: some Sequence<Int64>) throws(TodoStoreError) -> [Int64: Todo] {
        try TodoStoreError.wrap {
            let statement = try connection.cachedStatement(request.sqlForOneID)
            let folded = request.search.map(TodoSearch.fold)
            var found: [Int64: Todo] = [:]
            for id in ids {
                if let folded { try statement.bind([id, folded]) } else { try statement.bind([id]) }
                try statement.forEachRow { found[id] = Self.todo(from: $0) }
            }
            return found
        }
    }

    /// The number of todos matching the request's filter (its order, limit and offset ignored).
    public func count(_ filter: TodoFetchRequest.DoneFilter = .all) throws(TodoStoreError) -> Int {
        let sql = switch filter {
        case .all: "SELECT count(*) FROM todos"
        case .done: "SELECT count(*) FROM todos WHERE done = 1"
        case .undone: "SELECT count(*) FROM todos WHERE done = 0"
        }
        return try TodoStoreError.wrap { Int(try connection.cachedStatement(sql).scalarInt64() ?? 0) }
    }

    /// The largest id in use (0 for an empty list): bounds every id a list will show.
    public func maxID() throws(TodoStoreError) -> Int64 {
        try TodoStoreError.wrap { try connection.cachedStatement("SELECT max(id) FROM todos").scalarInt64() ?? 0 }
    }

    // MARK: Writing

    /// Adds a todo and returns it with its new id.
    ///
    /// - Throws: ``TodoStoreError/emptyName`` for a name of only white space, or an SQLite error.
    @discardableResult
    public func add(name: String, deadline: CalendarDate? = nil, isDone: Bool = false) throws(TodoStoreError) -> Todo {
        guard name.contains(where: { !$0.isWhitespace }) else { throw .emptyName }
        return try TodoStoreError.wrap {
            let statement = try connection.cachedStatement("INSERT INTO todos (name, deadline, done) VALUES (?, ?, ?)")
            try statement.bind(name, at: 1)
            try statement.bind(deadline, at: 2)
            try statement.bind(isDone, at: 3)
            try statement.step()
            return Todo(id: connection.lastInsertRowID, name: name, deadline: deadline, isDone: isDone)
        }
    }

    /// Renames the todo `id` and returns it.
    public func rename(id: Int64, to name: String) throws(TodoStoreError) -> Todo {
        guard name.contains(where: { !$0.isWhitespace }) else { throw .emptyName }
        return try updateOne(id: id, set: "name = ?", name)
    }

    /// Sets (or, with `nil`, clears) the deadline of the todo `id` and returns it.
    public func setDeadline(_ deadline: CalendarDate?, id: Int64) throws(TodoStoreError) -> Todo {
        try updateOne(id: id, set: "deadline = ?", deadline)
    }

    /// Marks every todo in `ids` done (or not done) and returns them; all or nothing.
    ///
    /// - Throws: ``TodoStoreError/notFound(ids:)`` naming every missing id; nothing changes then.
    public func setDone(_ isDone: Bool, ids: [Int64]) throws(TodoStoreError) -> [Todo] {
        try changeEach(ids, sql: "UPDATE todos SET done = ? WHERE id = ? RETURNING \(Self.columns)") {
            try $0.bind(isDone, at: 1)
            try $0.bind($1, at: 2)
        }
    }

    /// Deletes every todo in `ids` and returns what was deleted; all or nothing.
    ///
    /// - Throws: ``TodoStoreError/notFound(ids:)`` naming every missing id; nothing changes then.
    @discardableResult
    public func delete(ids: [Int64]) throws(TodoStoreError) -> [Todo] {
        try changeEach(ids, sql: "DELETE FROM todos WHERE id = ? RETURNING \(Self.columns)") {
            try $0.bind($1, at: 1)
        }
    }

    private func updateOne(id: Int64, set assignment: String, _ value: some SQLiteBindable) throws(TodoStoreError) -> Todo {
        try changeEach([id], sql: "UPDATE todos SET \(assignment) WHERE id = ? RETURNING \(Self.columns)") {
            try $0.bind(value, at: 1)
            try $0.bind($1, at: 2)
        }[0]
    }

    /// Runs a one-row `... RETURNING` statement per id inside one transaction.
    ///
    /// Ids are de-duplicated (first occurrence wins the order). If any id matches no row the
    /// transaction rolls back and the error lists every missing id.
    private func changeEach(_ ids: [Int64], sql: String,
                            bind: (Statement, Int64) throws -> Void) throws(TodoStoreError) -> [Todo] {
        var seen = Set<Int64>()
        let unique = ids.filter { seen.insert($0).inserted }
        return try TodoStoreError.wrap {
            try connection.transaction(.immediate) {
                let statement = try connection.cachedStatement(sql)
                var changed: [Todo] = []
                var missing: [Int64] = []
                for id in unique {
                    try statement.reset()
                    try bind(statement, id)
                    var found = false
                    try statement.forEachRow { changed.append(Self.todo(from: $0)); found = true }
                    if !found { missing.append(id) }
                }
                if !missing.isEmpty { throw TodoStoreError.notFound(ids: missing) }
                return changed
            }
        }
    }
}
