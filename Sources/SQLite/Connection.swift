import CSQLite

/// One open connection to an SQLite database file.
///
/// Threading: a connection is not `Sendable`. Own it from one actor, queue or thread; it is
/// opened with `SQLITE_OPEN_NOMUTEX` because that ownership makes SQLite's own mutex redundant.
///
/// Opening is a series of small steps (flags, busy timeout, foreign keys, a read that proves
/// the file is a database); if any step fails the handle is closed before the error is
/// thrown, so a failed open leaves nothing behind and writes nothing to the file.
public final class Connection {
    /// How a connection opens its file.
    public enum Mode: Sendable {
        /// Read only; the file must exist.
        case readOnly
        /// Read and write; the file must exist.
        case readWrite
        /// Read and write; a missing file is created.
        case readWriteCreate
    }

    /// Settings applied while opening.
    public struct Options: Sendable {
        /// How to open the file.
        public var mode: Mode = .readWriteCreate
        /// How long a statement waits for another connection's lock before failing with `SQLITE_BUSY`.
        public var busyTimeoutMilliseconds: Int32 = 5_000
        /// Whether `PRAGMA foreign_keys` is on.
        public var foreignKeys = true
        /// The name of a registered VFS to open the file through (`nil`: SQLite's default).
        /// Tests use one that simulates power loss.
        public var vfs: String?

        /// The defaults: create if missing, 5 s busy timeout, foreign keys on.
        public init() {}
    }

    /// The C connection handle, for the rare call the wrapper does not cover.
    public let handle: OpaquePointer
    /// The path this connection opened.
    public let path: String
    /// Statements an app prepared through ``cachedStatement(_:)``.
    private var publicStatementCache: [String: Statement] = [:]
    /// The libraries' own statements (``internalCachedStatement(_:)``), kept apart so that an
    /// app's statement and a library statement with the same SQL never share one handle (as
    /// GRDB keeps two caches).
    private var internalStatementCache: [String: Statement] = [:]
    /// How long statements wait for another connection's lock, in milliseconds.
    let busyTimeoutMilliseconds: Int32
    /// What this connection and its statements share: the commit observer's state, open
    /// savepoints, schema changes, statements to reset before writes. The C hooks hold an
    /// unretained pointer to it; the connection and its statements keep it alive.
    let commitHooks = ConnectionHooks()

    /// Opens the database at `path`.
    ///
    /// - Throws: ``SQLiteError``; `isNotADatabase` when the file exists but is not an SQLite
    ///   database (it is not modified).
    public init(path: String, options: Options = Options()) throws(SQLiteError) {
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        switch options.mode {
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .readWriteCreate: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        }
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, flags, options.vfs)
        guard code == SQLITE_OK, let handle else {
            let error = SQLiteError(handle: handle, code: code, sql: nil)
            sqlite3_close_v2(handle)
            throw error
        }
        self.handle = handle
        self.path = path
        busyTimeoutMilliseconds = options.busyTimeoutMilliseconds
        do {
            try setBusyTimeout(options.busyTimeoutMilliseconds)
            try execute(options.foreignKeys ? "PRAGMA foreign_keys = ON" : "PRAGMA foreign_keys = OFF")
            try validateIsDatabase()
        } catch {
            publicStatementCache.removeAll()
            internalStatementCache.removeAll()
            sqlite3_close_v2(handle)
            throw error
        }
    }

    deinit {
        publicStatementCache.removeAll()
        internalStatementCache.removeAll()
        // The hooks point at commitHooks, which outlives the handle only because close comes first.
        sqlite3_close_v2(handle)
    }

    /// Switches out of WAL mode at once, without waiting for locks: the log is checkpointed
    /// into this connection's file and the `-wal` and `-shm` files are deleted. Best effort:
    /// when another connection still uses the file, or a statement is running, nothing changes.
    ///
    /// SQLite deletes those two files by name (the path's, plus `-wal` and `-shm`), whichever
    /// file they belong to now: call it only when they are this connection's own.
    ///
    /// For a file that was replaced (renamed over) while open: SQLite names those two files
    /// after the path, so they now sit beside the new file while belonging to the old one. A
    /// new connection to the path must not find them: it would read the old file's log as its
    /// own, and in the same process POSIX locks cannot keep the two connections apart.
    public func leaveWriteAheadLogModeNow() {
        sqlite3_busy_timeout(handle, 0)
        defer { sqlite3_busy_timeout(handle, busyTimeoutMilliseconds) }
        try? execute("PRAGMA journal_mode = DELETE")
    }

    /// Makes closing this connection leave the `-wal` and `-shm` files at its path alone
    /// (SQLite's persistent-WAL setting): the last connection to a WAL database to close
    /// checkpoints it and deletes both files by name. For a connection whose file is no longer
    /// the one at its path (deleted, or replaced), whose companion files at the path may now be
    /// another file's, in use by another process. SQLite's unix VFS already skips that
    /// checkpoint when the file was moved or deleted (`SQLITE_READONLY_DBMOVED`); this holds
    /// whatever the VFS (``Options/vfs``). Its own log stays where it is (an unlinked file, or
    /// one ``leaveWriteAheadLogModeNow()`` already removed).
    public func keepWriteAheadLogFilesOnClose() {
        var persist: Int32 = 1
        _ = sqlite3_file_control(handle, "main", SQLITE_FCNTL_PERSIST_WAL, &persist)
    }

    private func setBusyTimeout(_ milliseconds: Int32) throws(SQLiteError) {
        try check(sqlite3_busy_timeout(handle, milliseconds), handle)
    }

    /// Reads the file header, which fails with `SQLITE_NOTADB` on a file that is not a database.
    ///
    /// SQLite opens lazily; without this read a foreign file would only be noticed by the
    /// first write, which must never happen to a file that is not ours.
    private func validateIsDatabase() throws(SQLiteError) {
        _ = try pragmaInt64("schema_version")
    }

    // MARK: Running SQL

    /// Runs one or more `;`-separated statements without parameters, discarding rows.
    ///
    /// For migrations and pragmas. A failure reports the statement that failed, not the script.
    public func execute(_ sql: String) throws(SQLiteError) {
        var utf8 = Array(sql.utf8CString)
        try utf8.withUnsafeMutableBufferPointer { (buffer) throws(SQLiteError) in
            guard var cursor = UnsafePointer(buffer.baseAddress) else { return }
            while true {
                // Skip the white space between statements, so an error quotes the statement itself.
                while cursor.pointee == 0x20 || (0x09...0x0D).contains(cursor.pointee) { cursor += 1 }
                if cursor.pointee == 0 { return }
                var statement: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let code = sqlite3_prepare_v2(handle, cursor, -1, &statement, &tail)
                guard code == SQLITE_OK else {
                    throw SQLiteError(handle: handle, code: code, sql: Self.firstStatement(at: cursor))
                }
                defer { sqlite3_finalize(statement) }
                if let statement {
                    let traits = StatementTraits(statement: statement)
                    if traits.startsWrite, commitHooks.hasYieldingReaders {
                        commitHooks.resetYieldingReaders(except: statement)
                    }
                    let mark = commitHooks.mark()
                    var result = sqlite3_step(statement)
                    while result == SQLITE_ROW { result = sqlite3_step(statement) }
                    guard result == SQLITE_DONE else {
                        commitHooks.discard(since: mark)
                        throw SQLiteError(handle: handle, code: result, sql: String(cString: sqlite3_sql(statement)))
                    }
                    commitHooks.statementFinished(traits)
                    commitHooks.deliver()
                }
                guard let tail, tail != cursor else { return }
                cursor = tail
            }
        }
    }

    /// Runs one statement with `arguments` bound, to completion. The statement comes from the
    /// libraries' cache: it is never left half-stepped, so sharing it is harmless.
    public func execute(_ sql: String, _ arguments: [any SQLiteBindable]) throws(SQLiteError) {
        try internalCachedStatement(sql).execute(arguments)
    }

    /// Prepares a statement that is not cached (for SQL that runs once).
    public func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        try Statement(database: handle, sql: sql, hooks: commitHooks)
    }

    /// Returns a prepared statement for `sql`, preparing it on first use and reusing it after.
    ///
    /// Cached statements live as long as the connection's schema: both caches are emptied when
    /// a statement through this connection changes the schema (CREATE, DROP, ALTER) and when
    /// SQLite had to prepare a statement again because another connection did, as GRDB does,
    /// so no cached statement outlives the schema it was compiled for. (SQLite also prepares a
    /// statement again when a new binding may change its plan, a `LIKE ?` on an indexed
    /// column: the caches are emptied then too, which costs prepares, never a wrong result.)
    /// A statement taken from the cache before stays valid (SQLite recompiles it on its next
    /// step); it is just no longer handed out. The statement comes back reset. A
    /// cached statement that is still being stepped (a loop over its rows is under way, say a
    /// `forEach` whose body reads the same query) is never handed out again: the caller gets a
    /// new, uncached statement instead, so the outer loop keeps its place.
    ///
    /// This cache is the app's; the libraries built on this connection use their own, so a
    /// statement an app holds is never reset by a library call.
    public func cachedStatement(_ sql: String) throws(SQLiteError) -> Statement {
        emptyCachesIfTheSchemaChanged()
        return try Self.statement(sql, from: &publicStatementCache, database: handle, hooks: commitHooks)
    }

    /// ``cachedStatement(_:)`` for the libraries of this package (the todo store, the
    /// observation layer), from a cache apart from the app's.
    package func internalCachedStatement(_ sql: String) throws(SQLiteError) -> Statement {
        emptyCachesIfTheSchemaChanged()
        return try Self.statement(sql, from: &internalStatementCache, database: handle, hooks: commitHooks)
    }

    /// Empties both statement caches after a schema change (see ``cachedStatement(_:)``).
    /// Statements in use keep running: the caches only drop their references.
    private func emptyCachesIfTheSchemaChanged() {
        guard commitHooks.schemaMayHaveChanged else { return }
        commitHooks.schemaMayHaveChanged = false
        publicStatementCache.removeAll()
        internalStatementCache.removeAll()
    }

    private static func statement(
        _ sql: String, from cache: inout [String: Statement],
        database: OpaquePointer, hooks: ConnectionHooks
    ) throws(SQLiteError) -> Statement {
        if let statement = cache[sql] {
            // Busy: an outer caller is between two steps of it. Resetting it would restart
            // that caller's loop, so this caller gets a statement of its own.
            if statement.isBusy { return try Statement(database: database, sql: sql, hooks: hooks) }
            try statement.reset()
            return statement
        }
        let statement = try Statement(database: database, sql: sql, hooks: hooks)
        cache[sql] = statement
        return statement
    }

    /// Reads an integer pragma such as `user_version` or `data_version`.
    public func pragmaInt64(_ name: String) throws(SQLiteError) -> Int64 {
        try internalCachedStatement("PRAGMA \(name)").scalarInt64() ?? 0
    }

    /// The first statement of the script at `cursor` (up to and including its `;`), for error
    /// messages: SQLite does not say where a statement that failed to prepare ends.
    private static func firstStatement(at cursor: UnsafePointer<CChar>) -> String {
        let script = String(cString: cursor)
        guard let end = script.firstIndex(of: ";") else { return script }
        return String(script[...end])
    }

    // MARK: State

    /// The rowid of the most recent successful INSERT on this connection.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }
    /// True while a transaction is open (SQLite is not in autocommit mode).
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }
}
