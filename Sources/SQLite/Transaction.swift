import CSQLite

/// How a top-level transaction acquires its locks.
public enum TransactionKind: String, Sendable {
    /// Locks on first read or write. Can fail with `SQLITE_BUSY` mid-way if it later writes.
    case deferred = "DEFERRED"
    /// Takes the write lock at BEGIN, waiting out the busy timeout: the default for writes,
    /// because a write transaction that starts can then always finish.
    case immediate = "IMMEDIATE"
    /// Like immediate; in WAL mode it is the same.
    case exclusive = "EXCLUSIVE"
}

/// SQLite's journal modes that this project uses.
public enum JournalMode: String, Sendable {
    case delete, wal
}

extension Connection {
    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    ///
    /// At top level it opens a `BEGIN <kind>` transaction; nested inside another transaction it
    /// becomes a savepoint, so helpers that need atomicity compose. A failed COMMIT (full
    /// disk, I/O error) rolls back and throws: nothing is ever half applied.
    ///
    /// Errors: whatever `body` throws comes back unchanged, after the rollback; SQLite's own
    /// failures (BEGIN, COMMIT) as ``SQLiteError``.
    public func transaction<Result>(
        _ kind: TransactionKind = .immediate,
        _ body: () throws -> Result
    ) throws -> Result {
        try transaction(kind, mapError: { $0 }, body)
    }

    /// ``transaction(_:_:)`` with typed errors: `body` throws `Failure`, and SQLite's own
    /// failures become a `Failure` through `mapError`. For libraries whose calls throw one type.
    public func transaction<Result, Failure: Error>(
        _ kind: TransactionKind = .immediate, mapError: (SQLiteError) -> Failure,
        _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        if isInTransaction { return try savepoint(mapError: mapError, body) }
        do { try execute("BEGIN \(kind.rawValue) TRANSACTION", []) } catch { throw mapError(error) }
        let result: Result
        do {
            result = try body()
        } catch {
            rollbackIgnoringErrors()
            throw error
        }
        do {
            try execute("COMMIT TRANSACTION", [])
        } catch {
            rollbackIgnoringErrors()
            throw mapError(error)
        }
        return result
    }

    /// Runs `body` inside a savepoint: released when it returns, rolled back when it throws.
    ///
    /// Outside a transaction a savepoint starts a deferred one; prefer ``transaction(_:_:)``
    /// for writes so the write lock is taken at the start. Errors as in ``transaction(_:_:)``.
    public func savepoint<Result>(_ body: () throws -> Result) throws -> Result {
        try savepoint(mapError: { $0 }, body)
    }

    /// ``savepoint(_:)`` with typed errors, as ``transaction(_:mapError:_:)``.
    public func savepoint<Result, Failure: Error>(
        mapError: (SQLiteError) -> Failure, _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        do { try execute("SAVEPOINT todo_savepoint", []) } catch { throw mapError(error) }
        let result: Result
        do {
            result = try body()
        } catch {
            rollbackToSavepoint()
            throw error
        }
        do {
            try execute("RELEASE SAVEPOINT todo_savepoint", [])
        } catch {
            rollbackToSavepoint()
            throw mapError(error)
        }
        return result
    }

    private func rollbackToSavepoint() {
        if isInTransaction {
            try? execute("ROLLBACK TRANSACTION TO SAVEPOINT todo_savepoint", [])
            try? execute("RELEASE SAVEPOINT todo_savepoint", [])
        }
    }

    private func rollbackIgnoringErrors() {
        // SQLite may already have rolled back by itself (after SQLITE_FULL, for instance).
        if isInTransaction { try? execute("ROLLBACK TRANSACTION", []) }
    }

    /// Sets the journal mode and returns the mode SQLite reports afterwards.
    ///
    /// WAL lets readers run while one writer commits and is persistent: set once per file.
    /// Changing the mode needs an exclusive lock and SQLite calls no busy handler for it, so
    /// this waits out the busy timeout itself (another process may be creating the same file).
    @discardableResult
    public func setJournalMode(_ mode: JournalMode) throws(SQLiteError) -> String {
        let statement = try prepare("PRAGMA journal_mode = \(mode.rawValue)")
        let deadline = ContinuousClock.now + .milliseconds(Int(busyTimeoutMilliseconds))
        while true {
            do {
                guard try statement.step() else { return "" }
                let reported = Row(handle: statement.handle).string(0)
                try statement.reset()
                return reported
            } catch {
                guard error.isBusy, ContinuousClock.now < deadline else { throw error }
                sqlite3_sleep(10)
            }
        }
    }
}
