import SQLite

/// The todo list stored in one SQLite file: add, read, change and delete todos.
///
/// Threading: a repository owns its `Connection` and, like it, is not `Sendable`: use it
/// from one actor, queue or thread. Every method is atomic: it either applies whole or throws
/// and changes nothing. Methods that take several ids are all or nothing.
public final class TodoRepository {
    /// The connection, for transactions that span several calls and for observation hooks.
    public let connection: Connection
    /// The file the connection opened, to tell when the path names another one (see ``fileState()``).
    private let openedFile: DatabaseFile.Identity?
    /// The `-wal` and `-shm` files beside it when it was opened, which this connection uses
    /// for as long as it is open: at the path they are still its own only while they are these
    /// (see ``reopened()``).
    private let openedCompanionFiles: [String: DatabaseFile.Identity]
    /// How this repository was opened, so ``reopened()`` opens the same way.
    private let migrator: Migrator
    private let vfs: String?
    /// How many commands are kept for undo (and for redo): each recorded step beyond it
    /// forgets the oldest. See ``defaultUndoDepth``.
    public var undoDepth = TodoRepository.defaultUndoDepth

    /// Opens (creating if needed) the todo database at `path` and brings its schema up to date.
    ///
    /// Steps: create missing folders (0700) and the file (0600); open; refuse a file that is
    /// not a database, belongs to another application, or was written by a newer `todo`, all
    /// before anything is written; switch to WAL with `synchronous = FULL` (a commit that
    /// returned survives power loss); run pending migrations.
    ///
    /// `vfs` names a registered SQLite VFS to open the file through (tests simulate power loss
    /// with one); `nil` is SQLite's default.
    ///
    /// - Throws: ``TodoStoreError``.
    public convenience init(path: String, migrator: Migrator = Migrator(), vfs: String? = nil) throws(TodoStoreError) {
        try DatabaseFile.prepare(path)
        let connection: Connection
        do {
            var options = Connection.Options()
            options.mode = .readWrite
            options.vfs = vfs
            connection = try Connection(path: path, options: options)
        } catch  where error.isNotADatabase {
            throw .notADatabase(path: path)
        } catch {
            throw .sqlite(error)
        }
        try Self.verifyOwnership(of: connection, migrator: migrator)
        try TodoStoreError.wrap { () throws(SQLiteError) in
            try connection.setJournalMode(.wal)
            try connection.execute("PRAGMA synchronous = FULL")
        }
        try migrator.migrate(connection)
        try self.init(migratedConnection: connection, migrator: migrator, vfs: vfs)
    }

    /// Wraps a connection whose schema is already up to date, and registers the SQL function
    /// that ``TodoFetchRequest/search`` uses.
    public convenience init(migratedConnection connection: Connection) throws(TodoStoreError) {
        try self.init(migratedConnection: connection, migrator: Migrator(), vfs: nil)
    }

    private init(migratedConnection connection: Connection, migrator: Migrator, vfs: String?) throws(TodoStoreError) {
        self.connection = connection
        self.openedFile = DatabaseFile.identity(of: connection.path)
        self.openedCompanionFiles = DatabaseFile.companionIdentities(of: connection.path)
        self.migrator = migrator
        self.vfs = vfs
        try TodoStoreError.wrap { () throws(SQLiteError) in try TodoSearch.register(on: connection) }
    }

    // MARK: The file

    /// Whether the path still names the file this repository opened.
    public enum FileState: Sendable, Equatable {
        /// It does (or the database is not a file, such as `:memory:`).
        case unchanged
        /// Another file is there now: the one opened was renamed over (editors and file-sync
        /// tools save that way) or deleted and recreated. This connection still reads the old
        /// one; ``reopened()`` opens the new one.
        case replaced
        /// Nothing is there: the file was deleted or moved away.
        case missing
    }

    /// Compares the file at `connection.path` with the one opened; one `stat`, no SQLite call.
    public func fileState() -> FileState {
        guard let openedFile else { return .unchanged }
        guard let current = DatabaseFile.identity(of: connection.path) else { return .missing }
        return current == openedFile ? .unchanged : .replaced
    }

    /// A new repository on the file now at this repository's path, opened as this one was
    /// (same migrator and VFS), with every check ``init(path:migrator:vfs:)`` makes.
    ///
    /// - Throws: ``TodoStoreError/databaseMissing(path:)`` when nothing is there (it is never
    ///   created again behind the user's back), or any error opening it can give.
    ///
    /// The `-wal` and `-shm` files at the path are looked at first (one `stat` each). When they
    /// are still the ones this repository's connection opened (the file was renamed over, and
    /// they sit beside the new file while belonging to the old one), this repository lets go
    /// of them (`Connection.leaveWriteAheadLogModeNow()`): the new file must not read the old
    /// one's log as its own. When they are not (the file was deleted and another program made
    /// a new one, whose log they are), they are left alone. Either way the old connection is
    /// set never to delete them when it closes (`Connection.keepWriteAheadLogFilesOnClose()`):
    /// no file of another file's connection is ever removed or truncated. Use this repository
    /// no more afterwards: writes through it would go to the old file.
    public func reopened() throws(TodoStoreError) -> TodoRepository {
        guard DatabaseFile.identity(of: connection.path) != nil else { throw .databaseMissing(path: connection.path) }
        let companions = DatabaseFile.companionIdentities(of: connection.path)
        if !companions.isEmpty, companions.allSatisfy({ openedCompanionFiles[$0.key] == $0.value }) {
            connection.leaveWriteAheadLogModeNow()
        }
        connection.keepWriteAheadLogFilesOnClose()
        let reopened = try TodoRepository(path: connection.path, migrator: migrator, vfs: vfs)
        reopened.undoDepth = undoDepth
        return reopened
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
            (applicationID != 0 && applicationID != TodoRepository.applicationID)
                || (schemaVersion == 0 && schemaObjects > 0)
        }

        /// Reads the three facts in one read transaction: read separately, a process could see
        /// version 0 and then the tables another `todo` was creating in the same file, and take
        /// that file for a foreign database.
        public static func read(from connection: Connection) throws(SQLiteError) -> FileIdentity {
            try connection.transaction(.deferred, mapError: { $0 }) { () throws(SQLiteError) in
                FileIdentity(
                    schemaVersion: Int(try connection.pragmaInt64("user_version")),
                    applicationID: try connection.pragmaInt64("application_id"),
                    schemaObjects: try connection.internalCachedStatement("SELECT count(*) FROM sqlite_schema")
                        .scalarInt64() ?? 0)
            }
        }
    }

    /// Refuses a database that another application made, and one from a newer `todo`.
    private static func verifyOwnership(of connection: Connection, migrator: Migrator) throws(TodoStoreError) {
        let identity = try TodoStoreError.wrap { () throws(SQLiteError) in try FileIdentity.read(from: connection) }
        if identity.belongsToAnotherApplication { throw .foreignDatabase(path: connection.path) }
        let version = identity.schemaVersion
        if version > migrator.latestVersion {
            throw .newerSchema(found: version, supported: migrator.latestVersion)
        }
    }

    // MARK: Reading
    //
    // Every public call that writes wraps its work in `deferringCommitNotifications`: commit
    // observers (a FetchedResultsController, an app's own) run after the call has its result,
    // never in the middle of it, so what they do (read, write, throw) cannot change what the
    // call returns. The reading calls below commit nothing themselves; a write a `forEach` body
    // makes is announced when that write's own call returns, between two rows.

    /// The todo with `id`, or `nil` when there is none.
    public func todo(id: Int64) throws(TodoStoreError) -> Todo? {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            let statement = try connection.internalCachedStatement("SELECT \(TodoColumns.list) FROM todos WHERE id = ?")
            try statement.bind([id])
            var found: Todo?
            try statement.forEachRow { found = TodoColumns.todo(from: $0) }
            return found
        }
    }

    /// The ids of the todos from `range.lowerBound` through `range.upperBound`, ascending: ids
    /// are never reused, so a range of ids has gaps where todos were deleted.
    public func ids(in range: ClosedRange<Int64>) throws(TodoStoreError) -> [Int64] {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            let statement = try connection.internalCachedStatement(
                "SELECT id FROM todos WHERE id BETWEEN ? AND ? ORDER BY id")
            try statement.bind([range.lowerBound, range.upperBound])
            var ids: [Int64] = []
            try statement.forEachRow { ids.append($0.int64(0)) }
            return ids
        }
    }

    /// The todos with `ids`, in that order (duplicates once).
    ///
    /// - Throws: ``TodoStoreError/notFound(ids:)`` naming every missing id.
    public func todos(ids: [Int64]) throws(TodoStoreError) -> [Todo] {
        try reading { () throws(TodoStoreError) in
            var seen = Set<Int64>()
            var found: [Todo] = []
            var missing: [Int64] = []
            for id in ids where seen.insert(id).inserted {
                if let todo = try todo(id: id) { found.append(todo) } else { missing.append(id) }
            }
            if !missing.isEmpty { throw .notFound(ids: missing) }
            return found
        }
    }

    /// Runs `body`, a read of many statements, in one deferred transaction when none is open:
    /// one snapshot, and one lock and one look at the log for all of them instead of one per
    /// statement (thousands of ids: a third of the time of their reads).
    func reading<Result>(_ body: () throws(TodoStoreError) -> Result) throws(TodoStoreError) -> Result {
        guard !connection.isInTransaction else { return try body() }
        return try connection.transaction(.deferred, mapError: TodoStoreError.sqlite, body)
    }

    /// Calls `body` with each todo the request selects, in order, streaming from SQLite.
    ///
    /// Memory stays constant whatever the list's size; prefer it to ``fetch(_:)`` for output.
    /// `body` may read through this repository, the same request included (it gets a statement
    /// of its own), and write: rows it changes may or may not be seen later in the same loop,
    /// as with any SQLite cursor.
    public func forEach(
        _ request: TodoFetchRequest = TodoFetchRequest(),
        _ body: (Todo) -> Void
    ) throws(TodoStoreError) {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            let statement = try connection.internalCachedStatement(request.sql)
            try statement.bind(request.arguments)
            try statement.forEachRow { body(TodoColumns.todo(from: $0)) }
        }
    }

    /// ``forEach(_:_:)`` with a body that can fail, run in one transaction: when `body` throws,
    /// the loop stops, everything the body wrote through this connection is rolled back, and
    /// the error comes back unchanged; when the loop ends, the body's writes commit together
    /// (commit observers hear of them once, after this call). The store's own failures come
    /// back as ``TodoStoreError``.
    ///
    /// The transaction is IMMEDIATE (a savepoint inside an open transaction): it takes the
    /// write lock for the whole loop, so a body's write never fails for a lock another
    /// connection took meanwhile, and other connections wait (their busy timeout) to write
    /// until the loop ends. To read without holding it, use ``forEach(_:_:)``.
    public func forEach(
        _ request: TodoFetchRequest = TodoFetchRequest(),
        throwing body: (Todo) throws -> Void
    ) throws {
        try connection.deferringCommitNotifications { () throws in
            try connection.transaction(.immediate, mapError: { TodoStoreError.sqlite($0) as any Error }) { () throws in
                let statement = try TodoStoreError.wrap { () throws(SQLiteError) in
                    let statement = try connection.internalCachedStatement(request.sql)
                    try statement.bind(request.arguments)
                    return statement
                }
                // The body's error, told apart from the loop's own SQLite errors.
                var failure: (any Error)?
                do {
                    try statement.forEachRow { row in
                        do {
                            try body(TodoColumns.todo(from: row))
                        } catch {
                            failure = error
                            throw error
                        }
                    }
                } catch {
                    if let failure { throw failure }
                    if let error = error as? SQLiteError { throw TodoStoreError.sqlite(error) }
                    throw error
                }
            }
        }
    }

    /// The todos the request selects, in order.
    public func fetch(_ request: TodoFetchRequest = TodoFetchRequest()) throws(TodoStoreError) -> [Todo] {
        var todos: [Todo] = []
        try forEach(request) { todos.append($0) }
        return todos
    }

    /// The todos among `ids` that the request's conditions (done filter, deadline bounds,
    /// searches, tags, priorities) select, keyed by id; ids of deleted or unselected todos are
    /// absent. The request's order, limit and offset are ignored.
    ///
    /// For patching fetched results after a small change: one primary-key look-up per id.
    public func fetch(_ request: TodoFetchRequest, ids: some Sequence<Int64>) throws(TodoStoreError) -> [Int64: Todo] {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            let statement = try connection.internalCachedStatement(request.sqlForOneID)
            let filterArguments = request.filterArguments
            var found: [Int64: Todo] = [:]
            for id in ids {
                try statement.bind([id] + filterArguments)
                try statement.forEachRow { found[id] = TodoColumns.todo(from: $0) }
            }
            return found
        }
    }

    /// The number of todos the request's conditions (done filter, deadline bounds, searches,
    /// tags, priorities) select, its order, limit and offset ignored: the same WHERE clause as
    /// ``fetch(_:)``.
    public func count(_ request: TodoFetchRequest) throws(TodoStoreError) -> Int {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            Int(try connection.internalCachedStatement(request.countSQL).scalarInt64(request.filterArguments) ?? 0)
        }
    }

    /// Whether any of the todos the request's conditions select has a time of day (its order,
    /// limit and offset ignored): whether a list of them needs a time column. Costs the todos
    /// that have a time, through their index, not a pass over the list.
    public func hasDueTimes(_ request: TodoFetchRequest) throws(TodoStoreError) -> Bool {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            try connection.internalCachedStatement(request.hasDueTimesSQL).scalarInt64(request.filterArguments) == 1
        }
    }

    /// The number of todos in `filter`.
    public func count(_ filter: TodoFetchRequest.DoneFilter = .all) throws(TodoStoreError) -> Int {
        try count(TodoFetchRequest(filter: filter))
    }

    /// The largest id in use (0 for an empty list): bounds every id a list will show.
    public func maxID() throws(TodoStoreError) -> Int64 {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            try connection.internalCachedStatement("SELECT max(id) FROM todos").scalarInt64() ?? 0
        }
    }

    /// The largest id among the todos the request selects, its limit and offset included (0
    /// when it selects none): what a list of them needs for its id column.
    public func maxID(_ request: TodoFetchRequest) throws(TodoStoreError) -> Int64 {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            let (sql, arguments) = request.maxIDSQL
            return try connection.internalCachedStatement(sql).scalarInt64(arguments) ?? 0
        }
    }

    // MARK: Writing

    /// Adds a todo and returns it with its new id.
    ///
    /// The id is read the moment the INSERT's step returns: commit observers are held until
    /// this call returns (`Connection.deferringCommitNotifications(_:)`), and SQLite
    /// restores `last_insert_rowid()` when a trigger's own inserts end, so no other code can
    /// have inserted in between. (A `RETURNING id` clause does the same but roughly halves the
    /// insert rate, scripts/bench's insert figure: SQLite buffers returned rows.) The other
    /// fields are the values bound, which SQLite stores as given.
    ///
    /// `nameCheck` is ``NameCheck/validated`` for a name a person gives; ``NameCheck/asStored``
    /// reproduces a todo exactly as it was stored, blank name included (an import of `todo`'s
    /// own export, which must give back every todo).
    ///
    /// - Throws: ``TodoStoreError/emptyName`` unless ``Todo/isValidName(_:)`` (when validated),
    ///   or an SQLite error.
    @discardableResult
    public func add(
        name: String, deadline: CalendarDate? = nil, isDone: Bool = false,
        nameCheck: NameCheck = .validated
    ) throws(TodoStoreError) -> Todo {
        try add(TodoFields(name: name, deadline: deadline, isDone: isDone), nameCheck: nameCheck)
    }

    /// Adds a todo with every field of `fields` and returns it, as
    /// ``add(name:deadline:isDone:nameCheck:)`` does. `created` defaults to `now` when it is
    /// `nil`, and so does `completed` for a todo added done (an import that knows the times
    /// passes them); a todo added undone has no completed time. With `now` `nil` the times are
    /// stored as given (a todo copied from a server that wrote none). Tags are valid by
    /// construction (``TodoTag``); a note is kept as written.
    ///
    /// The todo goes into the list `list`, or the default list when it is `nil`.
    ///
    /// - Throws: ``TodoStoreError/noSuchList(_:)`` when no list has the id `list`.
    ///
    /// With a `parent`, the todo is a subtask of that todo, in its list: `list` may be left out,
    /// or must be the parent's.
    ///
    /// - Throws: ``TodoStoreError/notFound(ids:)`` when no todo has the id `parent`;
    ///   ``TodoStoreError/parentInAnotherList(parent:list:)``.
    @discardableResult
    public func add(
        _ fields: TodoFields, nameCheck: NameCheck = .validated, now: UTCTimestamp? = .now(), list: Int64? = nil,
        parent: Int64? = nil
    ) throws(TodoStoreError) -> Todo {
        try add(fields, nameCheck: nameCheck, now: now, id: nil, list: list, parent: parent)
    }

    /// ``add(_:nameCheck:now:list:parent:)`` under `id` when one is given, which no todo may
    /// have: a deleted todo's, brought back as the same todo (ids are never reused for another one).
    @discardableResult
    public func add(
        _ fields: TodoFields, nameCheck: NameCheck = .validated, now: UTCTimestamp? = .now(), id: Int64?,
        list: Int64? = nil, parent: Int64? = nil
    ) throws(TodoStoreError) -> Todo {
        if nameCheck == .validated { try Todo.validateName(fields.name) }
        var fields = fields
        if let now {
            fields.created = fields.created ?? now
            fields.completed = fields.status == .completed ? (fields.completed ?? now) : nil
        }
        let stored = fields
        return try connection.deferringCommitNotifications { () throws(TodoStoreError) in
            let listID: Int64
            if let parent {
                guard let parentTodo = try todo(id: parent) else { throw .notFound(ids: [parent]) }
                if let list, list != parentTodo.listID {
                    throw .parentInAnotherList(
                        parent: parent, list: try self.list(id: parentTodo.listID)?.name ?? "#\(parentTodo.listID)")
                }
                listID = parentTodo.listID
            } else if let list {
                let exists = try TodoStoreError.wrap { () throws(SQLiteError) in
                    try connection.internalCachedStatement("SELECT 1 FROM lists WHERE id = ?").scalarInt64([list])
                        != nil
                }
                guard exists else { throw .noSuchList("#\(list)") }
                listID = list
            } else {
                listID = try defaultListID()
            }
            return try TodoStoreError.wrap { () throws(SQLiteError) in
                guard let id else {
                    let statement = try connection.internalCachedStatement(Self.insertEveryField)
                    try TodoColumns.bind(stored, to: statement, from: 1)
                    try statement.bind(listID, at: Int32(TodoColumns.fields.count + 1))
                    try statement.bind(parent, at: Int32(TodoColumns.fields.count + 2))
                    try statement.step()
                    return Todo(id: connection.lastInsertRowID, stored, listID: listID, parentID: parent)
                }
                let statement = try connection.internalCachedStatement(Self.insertEveryFieldWithID)
                try statement.bind(id, at: 1)
                try TodoColumns.bind(stored, to: statement, from: 2)
                try statement.bind(listID, at: Int32(TodoColumns.fields.count + 2))
                try statement.bind(parent, at: Int32(TodoColumns.fields.count + 3))
                try statement.step()
                return Todo(id: id, stored, listID: listID, parentID: parent)
            }
        }
    }

    /// Changes the todo `id` by `change` (given its fields as stored) in one transaction, writes
    /// every field back, and returns it. Marking it completed sets `completed` to `now` (unless
    /// `change` set another time); any other new status clears it. The name is checked when it
    /// changed (``Todo/isValidName(_:)``).
    ///
    /// `change` runs inside the write transaction: it must not touch the store.
    ///
    /// - Throws: ``TodoStoreError/notFound(ids:)``, ``TodoStoreError/emptyName``.
    @discardableResult
    public func update(id: Int64, now: UTCTimestamp = .now(), _ change: (inout TodoFields) -> Void)
        throws(TodoStoreError) -> Todo
    {
        try writeTransaction { () throws(TodoStoreError) in
            guard let todo = try todo(id: id) else { throw .notFound(ids: [id]) }
            var fields = todo.fields
            change(&fields)
            if fields.name != todo.name { try Todo.validateName(fields.name) }
            if fields.status != todo.status, fields.completed == todo.completed {
                fields.completed = fields.status == .completed ? now : nil
            }
            let changed = try changeEach([id], sql: Self.setEveryField) { (statement, id) throws(SQLiteError) in
                try TodoColumns.bind(fields, to: statement, from: 1)
                try statement.bind(id, at: Int32(TodoColumns.fields.count + 1))
            }
            guard let todo = changed.first else { throw .notFound(ids: [id]) }
            return todo
        }
    }

    /// How ``add(name:deadline:isDone:nameCheck:)`` checks a name.
    public enum NameCheck: Sendable {
        /// By ``Todo/isValidName(_:)``: a name a person typed.
        case validated
        /// Not at all: a todo reproduced as another program stored it.
        case asStored
    }

    /// Renames the todo `id` and returns it.
    ///
    /// - Throws: ``TodoStoreError/emptyName`` unless ``Todo/isValidName(_:)``; ``TodoStoreError/notFound(ids:)``.
    public func rename(id: Int64, to name: String) throws(TodoStoreError) -> Todo {
        try Todo.validateName(name)
        return try updateOne(id: id, set: "name = ?", name)
    }

    /// Sets (or, with `nil`, clears) the deadline of the todo `id` and returns it. What moves
    /// with a deadline moves too (``TodoFields/moveDeadline(to:)``).
    public func setDeadline(_ deadline: CalendarDate?, id: Int64) throws(TodoStoreError) -> Todo {
        try update(id: id) { $0.moveDeadline(to: deadline) }
    }

    /// Sets every field of the todo `id` at once, exactly as given: the name (another app's blank
    /// name included) and the times too. This is for copying a todo from elsewhere, such as a
    /// sync, not for typing one (``update(id:now:_:)`` is).
    @discardableResult
    public func replaceFields(id: Int64, with fields: TodoFields) throws(TodoStoreError) -> Todo {
        let changed = try changeEach([id], sql: Self.setEveryField) { (statement, id) throws(SQLiteError) in
            try TodoColumns.bind(fields, to: statement, from: 1)
            try statement.bind(id, at: Int32(TodoColumns.fields.count + 1))
        }
        guard let todo = changed.first else { throw .notFound(ids: [id]) }
        return todo
    }

    /// The INSERT of a todo with every field, bound by ``TodoColumns/bind(_:to:from:)``, its list
    /// and its parent.
    private static let insertEveryField =
        "INSERT INTO todos (\(TodoColumns.fields.joined(separator: ", ")), list_id, parent_id) VALUES ("
        + Array(repeating: "?", count: TodoColumns.fields.count + 2).joined(separator: ", ") + ")"

    /// ``insertEveryField`` with the id first.
    private static let insertEveryFieldWithID =
        "INSERT INTO todos (id, \(TodoColumns.fields.joined(separator: ", ")), list_id, parent_id) VALUES ("
        + Array(repeating: "?", count: TodoColumns.fields.count + 3).joined(separator: ", ") + ")"

    /// The UPDATE of every field of one todo, bound by ``TodoColumns/bind(_:to:from:)`` and then the id;
    /// it returns the row.
    private static let setEveryField =
        "UPDATE todos SET \(TodoColumns.fields.map { "\($0) = ?" }.joined(separator: ", ")) WHERE id = ? RETURNING \(TodoColumns.list)"

    /// Marks every todo in `ids` done (or not done) and returns them; all or nothing: completed
    /// (a cancelled one too) or needs action, as ``setStatus(_:ids:percent:now:)`` puts them.
    ///
    /// - Throws: ``TodoStoreError/notFound(ids:)`` naming every missing id; nothing changes then.
    ///
    /// A todo marked done gets `now` as its completed time (one already completed keeps its
    /// own) and 100 as its percent; one marked undone loses the time, and a percent of 100.
    public func setDone(_ isDone: Bool, ids: [Int64], now: UTCTimestamp = .now()) throws(TodoStoreError) -> [Todo] {
        try setStatus(isDone ? .completed : .needsAction, ids: ids, now: now)
    }

    /// Puts every todo in `ids` in `status` (``TodoFields/setStatus(_:percent:now:)``: the one
    /// rule of the completed time and the percent; `percent`, when given, is the new percent of
    /// a todo not completed) and returns them, in one transaction; all or nothing.
    ///
    /// - Throws: ``TodoStoreError/notFound(ids:)`` naming every missing id; nothing changes then.
    public func setStatus(_ status: TodoStatus, ids: [Int64], percent: Int? = nil, now: UTCTimestamp = .now())
        throws(TodoStoreError) -> [Todo]
    {
        try writeTransaction { () throws(TodoStoreError) in
            let todos = try todos(ids: ids)
            return try replaceFields(
                of: todos.map { todo in
                    var fields = todo.fields
                    fields.setStatus(status, percent: percent, now: now)
                    return (todo.id, fields)
                })
        }
    }

    /// ``replaceFields(id:with:)`` of each todo in `changes` (every field, exactly as given),
    /// returned in their order, in one transaction; all or nothing; the ids must be distinct.
    ///
    /// A statement changes up to `rowsPerUpdate` todos at once (an UPDATE from the rows of a
    /// VALUES list), in id order: inside a transaction each statement that may fail midway (the
    /// schema's triggers) first copies every page it touches to the statement journal, so
    /// thousands of one-row statements copied the same pages thousands of times, most of the
    /// time of a change of thousands of todos.
    ///
    /// For a change of many todos read in the caller's own transaction (`todo done` of
    /// thousands, which reads them to check them first): they are not read again.
    ///
    /// - Throws: ``TodoStoreError/notFound(ids:)`` naming every missing id.
    public func replaceFields(of changes: [(id: Int64, fields: TodoFields)]) throws(TodoStoreError) -> [Todo] {
        try writeTransaction { () throws(TodoStoreError) in
            var changed: [Int64: Todo] = [:]
            // In id order, a statement's rows share pages, and a page is copied by one statement.
            let sorted = changes.sorted { $0.id < $1.id }
            try TodoStoreError.wrap { () throws(SQLiteError) in
                var start = sorted.startIndex
                while start < sorted.endIndex {
                    let chunk = sorted[start..<min(start + Self.rowsPerUpdate, sorted.endIndex)]
                    let sql = Self.setEveryField(rows: chunk.count)
                    // The statements of a full chunk and of one todo (`todo done 3`) are kept; that of
                    // a last chunk of another length is not.
                    let statement =
                        chunk.count == Self.rowsPerUpdate || chunk.count == 1
                        ? try connection.internalCachedStatement(sql) : try connection.prepare(sql)
                    try statement.reset()
                    var index: Int32 = 1
                    for change in chunk {
                        try statement.bind(change.id, at: index)
                        try TodoColumns.bind(change.fields, to: statement, from: index + 1)
                        index += Int32(TodoColumns.fields.count + 1)
                    }
                    try statement.forEachRow { row in
                        let todo = TodoColumns.todo(from: row)
                        changed[todo.id] = todo
                    }
                    start = chunk.endIndex
                }
            }
            // Thrown inside the transaction, so the rows that were found roll back too.
            let missing = changes.map(\.id).filter { changed[$0] == nil }
            if !missing.isEmpty { throw .notFound(ids: missing) }
            return changes.compactMap { changed[$0.id] }
        }
    }

    /// How many todos one statement of ``replaceFields(of:)`` changes: 1,000 rows of 15 values
    /// each, below SQLite's limit of 32,766 values.
    static let rowsPerUpdate = 1000

    /// The UPDATE of every field of `rows` todos, bound row by row: the id, then the fields by
    /// ``TodoColumns/bind(_:to:from:)``; it returns the rows changed, in no order.
    static func setEveryField(rows: Int) -> String {
        let columns = TodoColumns.fields
        let row = "(" + Array(repeating: "?", count: columns.count + 1).joined(separator: ", ") + ")"
        return "WITH new (id, \(columns.joined(separator: ", "))) AS (VALUES "
            + Array(repeating: row, count: rows).joined(separator: ", ")
            + ") UPDATE todos SET \(columns.map { "\($0) = new.\($0)" }.joined(separator: ", "))"
            + " FROM new WHERE todos.id = new.id RETURNING \(TodoColumns.list(qualifiedBy: "todos"))"
    }

    /// Deletes every todo in `ids` and returns what was deleted; all or nothing.
    ///
    /// - Throws: ``TodoStoreError/notFound(ids:)`` naming every missing id; nothing changes then.
    @discardableResult
    public func delete(ids: [Int64]) throws(TodoStoreError) -> [Todo] {
        try changeEach(ids, sql: "DELETE FROM todos WHERE id = ? RETURNING \(TodoColumns.list)") {
            (statement, id) throws(SQLiteError) in
            try statement.bind(id, at: 1)
        }
    }

    private func updateOne(id: Int64, set assignment: String, _ value: some SQLiteBindable) throws(TodoStoreError)
        -> Todo
    {
        let changed = try changeEach(
            [id], sql: "UPDATE todos SET \(assignment) WHERE id = ? RETURNING \(TodoColumns.list)"
        ) {
            (statement, id) throws(SQLiteError) in
            try statement.bind(value, at: 1)
            try statement.bind(id, at: 2)
        }
        guard let todo = changed.first else { throw .notFound(ids: [id]) }
        return todo
    }

    /// Runs a one-row `... RETURNING` statement per id inside one transaction.
    ///
    /// Ids are de-duplicated (first occurrence wins the order). If any id matches no row the
    /// transaction rolls back and the error lists every missing id.
    func changeEach(
        _ ids: [Int64], sql: String,
        bind: (Statement, Int64) throws(SQLiteError) -> Void
    ) throws(TodoStoreError) -> [Todo] {
        var seen = Set<Int64>()
        let unique = ids.filter { seen.insert($0).inserted }
        return try writeTransaction { () throws(TodoStoreError) in
            let (changed, missing) = try TodoStoreError.wrap { () throws(SQLiteError) in
                let statement = try connection.internalCachedStatement(sql)
                var changed: [Todo] = []
                var missing: [Int64] = []
                for id in unique {
                    try statement.reset()
                    try bind(statement, id)
                    var found = false
                    try statement.forEachRow {
                        changed.append(TodoColumns.todo(from: $0))
                        found = true
                    }
                    if !found { missing.append(id) }
                }
                return (changed, missing)
            }
            // Thrown inside the transaction, so the rows that were found roll back too.
            if !missing.isEmpty { throw .notFound(ids: missing) }
            return changed
        }
    }

    /// Runs `body` in one IMMEDIATE transaction (a savepoint when one is open), with commit
    /// notifications held until it returns. The store's writes of more than one statement go
    /// through here (``add(name:deadline:isDone:nameCheck:)`` is one statement, in autocommit
    /// mode when no transaction is open).
    func writeTransaction<Result>(_ body: () throws(TodoStoreError) -> Result) throws(TodoStoreError) -> Result {
        try writeTransaction(mapError: TodoStoreError.sqlite, body)
    }

    /// ``writeTransaction(_:)`` for layers on the store with errors of their own (sync): the
    /// same transaction and notification rule, SQLite's failures mapped by `mapError`.
    package func writeTransaction<Result, Failure: Error>(
        mapError: (SQLiteError) -> Failure,
        _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try connection.deferringCommitNotifications { () throws(Failure) in
            try connection.transaction(.immediate, mapError: mapError, body)
        }
    }
}
