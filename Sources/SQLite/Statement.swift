import CSQLite

/// A prepared SQL statement: bind parameters, step through rows, read typed columns.
///
/// A statement belongs to the ``Connection`` that prepared it and shares its thread
/// confinement: use it only where the connection is used. Reading columns is only valid
/// while the statement sits on a row (between a `step()` that returned `true` and the
/// next `step()` or `reset()`).
public final class Statement {
    /// The C statement handle, for the rare call the wrapper does not cover.
    public let handle: OpaquePointer
    /// The SQL text this statement was prepared from.
    public let sql: String
    private let database: OpaquePointer
    private let hooks: ConnectionHooks
    /// What it does besides reading rows (savepoints, schema changes, writes).
    private let traits: StatementTraits
    /// How many times SQLite prepared it again (a schema change, or a new binding that may
    /// change its plan) when it was last checked.
    private var reprepares: Int32 = 0

    init(database: OpaquePointer, sql: String, hooks: ConnectionHooks) throws(SQLiteError) {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(database, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw SQLiteError(handle: database, code: code == SQLITE_OK ? SQLITE_MISUSE : code, sql: sql)
        }
        self.handle = statement
        self.sql = sql
        self.database = database
        self.hooks = hooks
        traits = StatementTraits(statement: statement)
    }

    deinit { sqlite3_finalize(handle) }

    /// Throws the connection's current error, tagged with this statement's SQL, unless `code` is OK.
    @inline(__always)
    func check(_ code: Int32) throws(SQLiteError) {
        guard code == SQLITE_OK else { throw SQLiteError(handle: database, code: code, sql: sql) }
    }

    /// The number of `?` parameters the SQL declares.
    public var parameterCount: Int32 { sqlite3_bind_parameter_count(handle) }

    /// Resets the statement and binds `values` to its parameters, in order.
    ///
    /// - Precondition: `values.count` equals ``parameterCount`` (a programming error otherwise).
    public func bind(_ values: [any SQLiteBindable]) throws(SQLiteError) {
        precondition(
            values.count == Int(parameterCount),
            "Statement expects \(parameterCount) arguments, got \(values.count): \(sql)")
        try reset()
        for (offset, value) in values.enumerated() {
            try value.bind(to: self, at: Int32(offset + 1))
        }
    }

    /// Binds one value to the 1-based parameter `index` without boxing it.
    @inline(__always)
    public func bind<Value: SQLiteBindable>(_ value: Value, at index: Int32) throws(SQLiteError) {
        try value.bind(to: self, at: index)
    }

    /// Binds UTF-8 bytes as TEXT (SQLite copies them before returning).
    public func bindText(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int32) throws(SQLiteError) {
        try check(
            sqlite3_bind_text64(
                handle, index, bytes.baseAddress, UInt64(bytes.count),
                csqlite_transient(), UInt8(SQLITE_UTF8)))
    }

    /// True between a `step()` that returned a row and the statement's end or reset: a caller is
    /// reading its rows (`sqlite3_stmt_busy`).
    public var isBusy: Bool { sqlite3_stmt_busy(handle) != 0 }

    /// Resets the statement so it can run again; bindings are kept.
    public func reset() throws(SQLiteError) {
        // sqlite3_reset repeats the last step's error; that error was already reported by step().
        _ = sqlite3_reset(handle)
        ended()
    }

    /// After a run ends (done or reset): notes a recompilation (the schema changed, or a new
    /// binding may change the plan) for the connection's caches, which then empty themselves,
    /// and announces a write that committed (a write left unfinished in autocommit mode commits
    /// at its reset).
    private func ended() {
        let count = sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_REPREPARE, 0)
        if count != reprepares {
            reprepares = count
            hooks.schemaMayHaveChanged = true
        }
        hooks.deliver()
    }

    /// Resets this statement whenever its connection is about to write, if it is between two
    /// steps then, and calls `onReset` after the reset; for a statement read in slices across
    /// other work (a sliced fetch). A statement between two steps keeps a read transaction
    /// open, and a write on a connection whose read snapshot is older than another
    /// connection's commit fails with `SQLITE_BUSY_SNAPSHOT`: the reset lets the write start
    /// from the newest snapshot. "About to write": the first step of a statement that is not
    /// read-only, or of BEGIN or SAVEPOINT.
    ///
    /// `onReset` runs on the connection's thread, inside the writing call, before the write: it
    /// may note that the statement must be started again, and must not use the connection.
    /// The registration lasts as long as the statement.
    package func resetBeforeWrites(_ onReset: @escaping () -> Void) {
        hooks.resetBeforeWrites(self, onReset: onReset)
    }

    /// Advances to the next row. Returns `true` on a row, `false` when the statement is done.
    ///
    /// Errors (busy past the timeout, constraint, full disk) throw and leave the statement
    /// reset, so it can be reused.
    @discardableResult
    public func step() throws(SQLiteError) -> Bool {
        if traits.startsWrite, hooks.hasYieldingReaders, sqlite3_stmt_busy(handle) == 0 {
            hooks.resetYieldingReaders(except: handle)
        }
        let mark = hooks.mark()
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE:
            hooks.statementFinished(traits)
            ended()
            return false
        case let code:
            // A COMMIT that failed after the commit hook ran (full disk, I/O error) committed
            // nothing: forget what the hook queued.
            hooks.discard(since: mark)
            let error = SQLiteError(handle: database, code: code, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Runs the statement to completion with `values` bound, discarding any rows.
    public func execute(_ values: [any SQLiteBindable] = []) throws(SQLiteError) {
        try bind(values)
        while try step() {}
        try reset()
    }

    /// The current row. Only valid after ``step()`` returned `true`, until the next step or reset.
    public var row: Row { Row(handle: handle) }

    /// Calls `body` for every row, in order, and leaves the statement reset. Typed: for bodies
    /// that cannot fail. The ``Row`` is only valid inside the call.
    public func forEachRow(_ body: (Row) -> Void) throws(SQLiteError) {
        defer {
            _ = sqlite3_reset(handle)
            ended()
        }
        while try step() { body(Row(handle: handle)) }
    }

    /// Calls `body` for every row, in order. The ``Row`` is only valid inside the call.
    /// An error `body` throws ends the loop and comes back unchanged.
    ///
    /// Rows are streamed from SQLite: memory stays constant whatever the result size.
    public func forEachRow(_ body: (Row) throws -> Void) throws {
        defer {
            _ = sqlite3_reset(handle)
            // A write's autocommit ends at the reset when a body stops the loop early.
            ended()
        }
        while try step() { try body(Row(handle: handle)) }
    }

    /// The first column of the first row, or `nil` when there is no row or it is NULL.
    public func scalarInt64(_ values: [any SQLiteBindable] = []) throws(SQLiteError) -> Int64? {
        try bind(values)
        defer {
            _ = sqlite3_reset(handle)
            ended()
        }
        guard try step() else { return nil }
        let row = Row(handle: handle)
        return row.isNull(0) ? nil : row.int64(0)
    }
}

/// The current row of a stepping ``Statement``: typed column reads by 0-based index.
///
/// A row is a view, not a copy: it is only valid until the statement steps or resets.
public struct Row {
    let handle: OpaquePointer

    /// True when the column holds SQL NULL.
    @inline(__always)
    public func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    /// True when the column holds an integer (its storage class, not what it converts to).
    @inline(__always)
    public func isInteger(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_INTEGER }

    /// The column as a 64-bit integer (SQLite's conversion rules apply; NULL reads as 0).
    @inline(__always)
    public func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    /// The column as a Double (NULL reads as 0).
    @inline(__always)
    public func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

    /// The column as a Bool: any non-zero integer is `true`.
    @inline(__always)
    public func bool(_ column: Int32) -> Bool { sqlite3_column_int64(handle, column) != 0 }

    /// The column as text (NULL reads as the empty string). Invalid UTF-8 is repaired.
    @inline(__always)
    public func string(_ column: Int32) -> String {
        withUTF8(column) { String(decoding: $0, as: UTF8.self) }
    }

    /// The column as text, or `nil` when it is NULL.
    @inline(__always)
    public func optionalString(_ column: Int32) -> String? {
        isNull(column) ? nil : string(column)
    }

    /// The column exactly as stored (storage class and bytes), to bind back where SQLite must
    /// compare it as it compares the stored value: the last key of a keyset pagination.
    public func storedValue(_ column: Int32) -> StoredValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: return StoredValue(storage: .integer(int64(column)))
        case SQLITE_FLOAT: return StoredValue(storage: .real(double(column)))
        case SQLITE_TEXT: return StoredValue(storage: .text(withUTF8(column) { Array($0) }))
        case SQLITE_BLOB: return StoredValue(storage: .blob(blob(column)))
        default: return StoredValue(storage: .null)
        }
    }

    /// The column as bytes (a BLOB; text gives its UTF-8 bytes; NULL gives none).
    public func blob(_ column: Int32) -> [UInt8] {
        let bytes = sqlite3_column_blob(handle, column)
        let count = Int(sqlite3_column_bytes(handle, column))
        guard let bytes, count > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    /// Calls `body` with the column's UTF-8 bytes, without copying them into a String.
    ///
    /// The buffer is only valid inside `body`. NULL gives an empty buffer.
    @inline(__always)
    public func withUTF8<Result>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows
        -> Result
    {
        // Text first, then its length: sqlite3_column_bytes after sqlite3_column_text is the
        // order the documentation recommends, so no conversion invalidates the pointer.
        let text = sqlite3_column_text(handle, column)
        let count = Int(sqlite3_column_bytes(handle, column))
        return try body(UnsafeBufferPointer(start: text, count: text == nil ? 0 : count))
    }
}
