import CSQLite

/// What one committed write transaction on a connection touched.
public struct CommittedTransaction: Sendable, Equatable {
    /// The tables the update hook saw changing. Empty when SQLite changed rows without calling
    /// the hook (the truncate optimisation of an unqualified `DELETE`): treat empty as "unknown,
    /// maybe everything".
    public let tables: Set<String>
    /// The rowids the update hook saw changing (inserted, updated or deleted), per table. A
    /// table of ``tables`` missing here changed too many rows to list (more than
    /// ``CommittedTransaction/rowIDLimit``): treat it as "unknown".
    public let rowIDs: [String: Set<Int64>]

    /// How many rowids per table a transaction lists before it gives up on listing them.
    /// Bounds the hook's memory on bulk writes; past it, observers refetch everything anyway.
    public static let rowIDLimit = 1024

    /// Creates a description of a commit. `rowIDs` defaults to "unknown" for every table.
    public init(tables: Set<String>, rowIDs: [String: Set<Int64>] = [:]) {
        self.tables = tables
        self.rowIDs = rowIDs
    }

    /// True when the transaction may have changed `table`.
    public func mayHaveChanged(_ table: String) -> Bool { tables.isEmpty || tables.contains(table) }

    /// The rowids of `table` the transaction changed: empty when it did not touch the table,
    /// `nil` when they are unknown (too many, or changed without the update hook).
    public func changedRowIDs(in table: String) -> Set<Int64>? {
        if tables.isEmpty { return nil }
        guard tables.contains(table) else { return [] }
        return rowIDs[table]
    }
}

/// The hook state of one connection: tables changed in the open transaction, and commits
/// waiting to be announced.
///
/// Three SQLite hooks cooperate, as in GRDB's TransactionObserver:
/// - the update hook records which tables change while the transaction is open;
/// - the rollback hook forgets them: a rolled-back change is never published;
/// - the WAL hook runs once a commit is durable and its locks are released. It is the only
///   post-commit hook SQLite has; registering it replaces SQLite's automatic checkpoint, so it
///   checkpoints the same way (passively, once the log passes 1,000 pages).
/// The WAL hook runs inside `sqlite3_step`, where SQLite forbids using the connection, so it
/// only queues the commit; ``Statement/step()`` delivers it once SQLite has returned.
final class CommitHooks {
    var handlers: [(token: CommitObserverToken, handler: (CommittedTransaction) -> Void)] = []
    var pendingTables: Set<String> = []
    /// Rowids per table in the open transaction; a table is dropped (unknown) past the limit.
    var pendingRowIDs: [String: Set<Int64>] = [:]
    var committed: [CommittedTransaction] = []

    /// Notes one changed row. A table's first change starts its list; a table whose list
    /// overflowed stays in `pendingTables` with no list ("unknown").
    func record(table: String, rowID: Int64) {
        if pendingTables.insert(table).inserted {
            pendingRowIDs[table] = [rowID]
            return
        }
        guard var rows = pendingRowIDs.removeValue(forKey: table) else { return }
        rows.insert(rowID)
        if rows.count <= CommittedTransaction.rowIDLimit { pendingRowIDs[table] = rows }
    }

    /// Announces queued commits. Called after every step that finished a statement.
    @inline(__always)
    func deliver() {
        guard !committed.isEmpty else { return }
        let transactions = committed
        committed.removeAll()
        for transaction in transactions {
            for entry in handlers { entry.handler(transaction) }
        }
    }
}

/// Identifies one commit observer, for ``Connection/removeCommitObserver(_:)``.
public final class CommitObserverToken: Sendable {
    init() {}
}

extension Connection {
    /// Calls `handler` after every write transaction this connection commits, with the tables
    /// it changed; never for a transaction that rolled back. Returns a token for removing it.
    ///
    /// The handler runs on the connection's thread, after the statement that committed (COMMIT,
    /// or a write in autocommit mode) has finished and before that call returns; it may read
    /// through this connection. Requires WAL mode (the todo store always uses it).
    @discardableResult
    public func addCommitObserver(_ handler: @escaping (CommittedTransaction) -> Void) -> CommitObserverToken {
        if commitHooks.handlers.isEmpty { installHooks() }
        let token = CommitObserverToken()
        commitHooks.handlers.append((token, handler))
        return token
    }

    /// Stops calling the observer registered with `token`. Unknown tokens are ignored.
    public func removeCommitObserver(_ token: CommitObserverToken) {
        commitHooks.handlers.removeAll { $0.token === token }
        if commitHooks.handlers.isEmpty { removeHooks() }
    }

    private func removeHooks() {
        sqlite3_update_hook(handle, nil, nil)
        sqlite3_rollback_hook(handle, nil, nil)
        sqlite3_wal_autocheckpoint(handle, 1000)  // restores SQLite's own WAL hook
        commitHooks.pendingTables.removeAll()
        commitHooks.pendingRowIDs.removeAll()
        commitHooks.committed.removeAll()
    }

    private func installHooks() {
        let context = Unmanaged.passUnretained(commitHooks).toOpaque()
        sqlite3_update_hook(handle, { context, _, _, table, rowID in
            guard let context, let table else { return }
            let hooks = Unmanaged<CommitHooks>.fromOpaque(context).takeUnretainedValue()
            hooks.record(table: String(cString: table), rowID: rowID)
        }, context)
        sqlite3_rollback_hook(handle, { context in
            guard let context else { return }
            let hooks = Unmanaged<CommitHooks>.fromOpaque(context).takeUnretainedValue()
            hooks.pendingTables.removeAll()
            hooks.pendingRowIDs.removeAll()
        }, context)
        sqlite3_wal_hook(handle, { context, database, schema, pages in
            if pages >= 1000 {
                sqlite3_wal_checkpoint_v2(database, schema, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
            }
            guard let context else { return SQLITE_OK }
            let hooks = Unmanaged<CommitHooks>.fromOpaque(context).takeUnretainedValue()
            hooks.committed.append(CommittedTransaction(tables: hooks.pendingTables, rowIDs: hooks.pendingRowIDs))
            hooks.pendingTables.removeAll()
            hooks.pendingRowIDs.removeAll()
            return SQLITE_OK
        }, context)
    }

    /// The value of `PRAGMA data_version`: it changes when another connection (in any
    /// process) commits, and only then. Cheap: no disk access when nothing changed.
    public func dataVersion() throws(SQLiteError) -> Int64 {
        try pragmaInt64("data_version")
    }
}
