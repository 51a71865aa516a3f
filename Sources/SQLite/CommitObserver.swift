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

/// What a connection and its statements share: the commit hooks' state, the savepoints open,
/// whether the schema may have changed, and the statements to reset before a write.
///
/// Three SQLite hooks cooperate, as in GRDB's TransactionObserver:
/// - the update hook records which rows change while the transaction is open;
/// - the rollback hook forgets them: a rolled-back change is never published;
/// - the commit hook queues the transaction as it commits. It runs inside `sqlite3_step`, where
///   SQLite forbids using the connection, and before the commit is durable, so it only queues:
///   the statement that committed delivers the queue once `sqlite3_step` has returned success,
///   and drops what it queued when the step failed (a COMMIT that hit a full disk).
/// SQLite calls no hook for `ROLLBACK TO`, so the statements report the savepoints they open,
/// release and roll back to (``statementFinished(_:)``): rolling back to a savepoint puts the
/// recorded changes back as they were when it began, and a transaction whose changes were all
/// rolled back is not announced when its `RELEASE` or `COMMIT` ends it.
/// The commit hook works in every journal mode (WAL and rollback journals alike), and leaves
/// SQLite's automatic WAL checkpoint alone.
///
/// Delivery is never re-entrant and can be deferred: ``deferDepth`` > 0 (inside a library call
/// such as `TodoRepository.add`) holds commits until the outermost call returns, and a commit
/// made by an observer while it is being told about another one is delivered after it, in
/// order. So an observer always sees whole calls, one notification at a time.
final class ConnectionHooks {
    var handlers: [(token: CommitObserverToken, handler: (CommittedTransaction) -> Void)] = []
    var pendingTables: Set<String> = []
    /// Rowids per table in the open transaction; a table is dropped (unknown) past the limit.
    var pendingRowIDs: [String: Set<Int64>] = [:]
    var committed: [CommittedTransaction] = []
    /// The connection's handle, for reading its change counter in the hooks.
    var database: OpaquePointer?
    /// True while the three hooks are installed (some observer is registered).
    var isObserving = false
    /// How many deferring calls are under way (``Connection/deferringCommitNotifications(_:)``).
    var deferDepth = 0
    /// True while ``deliver()`` is calling handlers.
    var isDelivering = false
    /// The savepoints open in the current transaction, innermost last, each with the changes
    /// recorded when it began (kept while observing only).
    private var savepoints: [(name: String, tables: Set<String>, rowIDs: [String: Set<Int64>], changes: Int64)] = []
    /// Set when a statement changed the schema, or SQLite had to prepare one again (another
    /// connection changed the schema, or a new binding may change the plan); the connection
    /// then empties its statement caches.
    var schemaMayHaveChanged = false
    /// Statements read across other work, reset before this connection writes
    /// (``Statement/resetBeforeWrites(_:)``), with what to tell their owners.
    private var yieldingReaders: [(statement: WeakStatement, onReset: () -> Void)] = []

    struct WeakStatement { weak var statement: Statement? }

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

    /// `sqlite3_total_changes64` when the last transaction ended, less the changes rolled back
    /// to a savepoint since: a commit whose count did not move past it changed no row
    /// (`BEGIN IMMEDIATE; COMMIT`, or every change rolled back) and is not announced.
    var totalChangesAtLastEnd: Int64 = 0

    /// The commit hook's work: the open transaction's changes become a queued commit.
    func committing(_ database: OpaquePointer?) {
        let total = sqlite3_total_changes64(database)
        defer {
            totalChangesAtLastEnd = total
            forgetPending()
        }
        // No row seen and none counted: nothing changed. No row seen but some counted: the
        // truncate optimisation of an unqualified DELETE, announced as "unknown tables".
        if pendingTables.isEmpty && total == totalChangesAtLastEnd { return }
        committed.append(CommittedTransaction(tables: pendingTables, rowIDs: pendingRowIDs))
    }

    /// The rollback hook's work, and a reset when observing starts or stops.
    func forgetPending(_ database: OpaquePointer? = nil) {
        if let database { totalChangesAtLastEnd = sqlite3_total_changes64(database) }
        pendingTables.removeAll()
        pendingRowIDs.removeAll()
        savepoints.removeAll()
    }

    /// Bookkeeping after a statement ran to its end successfully: a schema change, and the
    /// savepoint it opened, released or rolled back to (names as SQLite matches them: the
    /// innermost savepoint of that name).
    func statementFinished(_ traits: StatementTraits) {
        if traits.changesSchema { schemaMayHaveChanged = true }
        guard let savepoint = traits.savepoint, isObserving, let database else { return }
        let total = sqlite3_total_changes64(database)
        switch savepoint {
        case .begin(let name):
            savepoints.append((name, pendingTables, pendingRowIDs, total - totalChangesAtLastEnd))
        case .rollback(let name):
            // The savepoint stays open; the ones inside it are gone.
            guard let index = savepoints.lastIndex(where: { $0.name == name }) else { return }
            let saved = savepoints[index]
            savepoints.removeSubrange((index + 1)...)
            pendingTables = saved.tables
            pendingRowIDs = saved.rowIDs
            totalChangesAtLastEnd = total - saved.changes
        case .release(let name):
            // Its changes stay, now part of the enclosing savepoint or transaction. (When the
            // release committed, the commit hook already emptied the list.)
            guard let index = savepoints.lastIndex(where: { $0.name == name }) else { return }
            savepoints.removeSubrange(index...)
        }
    }

    /// Where the queue ends now; see ``discard(since:)``.
    @inline(__always)
    func mark() -> Int { committed.count }

    /// Drops commits queued since `mark`: the step that queued them failed, so they did not commit.
    func discard(since mark: Int) {
        if committed.count > mark { committed.removeSubrange(mark...) }
    }

    /// Announces queued commits, oldest first, unless delivery is deferred or already under way
    /// further up the stack (which then delivers these too, once its handler returns).
    @inline(__always)
    func deliver() {
        guard !committed.isEmpty, deferDepth == 0, !isDelivering else { return }
        isDelivering = true
        defer { isDelivering = false }
        while !committed.isEmpty {
            let transaction = committed.removeFirst()
            // A copy: a handler may add or remove observers.
            for entry in handlers { entry.handler(transaction) }
        }
    }

    // MARK: Statements read across other work

    /// True when some statement asked to be reset before writes.
    var hasYieldingReaders: Bool { !yieldingReaders.isEmpty }

    /// Resets `statement` whenever this connection is about to write, and calls `onReset` then.
    func resetBeforeWrites(_ statement: Statement, onReset: @escaping () -> Void) {
        yieldingReaders.removeAll { $0.statement.statement == nil || $0.statement.statement === statement }
        yieldingReaders.append((WeakStatement(statement: statement), onReset))
    }

    /// Resets every registered statement that is between two steps, except `writer` (the
    /// statement about to write), and tells its owner. Forgets statements that are gone.
    func resetYieldingReaders(except writer: OpaquePointer) {
        yieldingReaders.removeAll { $0.statement.statement == nil }
        for entry in yieldingReaders {
            guard let statement = entry.statement.statement, statement.handle != writer,
                sqlite3_stmt_busy(statement.handle) != 0
            else { continue }
            sqlite3_reset(statement.handle)
            entry.onReset()
        }
    }
}

/// Identifies one commit observer, for ``Connection/removeCommitObserver(_:)``.
public final class CommitObserverToken: Sendable {
    init() {}
}

extension Connection {
    /// Calls `handler` after every write transaction this connection commits, with the tables
    /// it changed; never for a transaction that rolled back, nor for one whose every change was
    /// rolled back to a savepoint (a transaction partly rolled back is announced with the
    /// changes that stayed). Savepoints are followed in the SQL this connection runs through
    /// ``Statement`` and ``execute(_:)``; SQL run on ``handle`` with the C API is not seen.
    /// Returns a token for removing it.
    ///
    /// The handler runs on the connection's thread, after the statement that committed (COMMIT,
    /// or a write in autocommit mode) has finished, or, inside
    /// ``deferringCommitNotifications(_:)``, when the outermost such call returns. It may read
    /// and write through this connection: a commit it makes is announced after it returns,
    /// never from inside it. Works in every journal mode.
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
        commitHooks.isObserving = false
        sqlite3_update_hook(handle, nil, nil)
        sqlite3_rollback_hook(handle, nil, nil)
        sqlite3_commit_hook(handle, nil, nil)
        commitHooks.forgetPending()
        commitHooks.committed.removeAll()
    }

    private func installHooks() {
        commitHooks.database = handle
        commitHooks.isObserving = true
        commitHooks.forgetPending(handle)
        let context = Unmanaged.passUnretained(commitHooks).toOpaque()
        sqlite3_update_hook(
            handle,
            { context, _, _, table, rowID in
                guard let context, let table else { return }
                let hooks = Unmanaged<ConnectionHooks>.fromOpaque(context).takeUnretainedValue()
                hooks.record(table: String(cString: table), rowID: rowID)
            }, context)
        sqlite3_rollback_hook(
            handle,
            { context in
                guard let context else { return }
                let hooks = Unmanaged<ConnectionHooks>.fromOpaque(context).takeUnretainedValue()
                hooks.forgetPending(hooks.database)
            }, context)
        sqlite3_commit_hook(
            handle,
            { context in
                guard let context else { return 0 }
                let hooks = Unmanaged<ConnectionHooks>.fromOpaque(context).takeUnretainedValue()
                hooks.committing(hooks.database)
                return 0  // 0: let the commit go ahead
            }, context)
    }

    /// Runs `body`, holding commit notifications until it returns (or, nested, until the
    /// outermost such call returns), then delivers them in order.
    ///
    /// Libraries wrap each public call in it, so an observer that writes is told about its own
    /// write after the caller's call has read its results, and never in the middle of it.
    public func deferringCommitNotifications<Result, Failure: Error>(
        _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        commitHooks.deferDepth += 1
        defer {
            commitHooks.deferDepth -= 1
            commitHooks.deliver()
        }
        return try body()
    }

    /// The value of `PRAGMA data_version`: it changes when another connection (in any
    /// process) commits, and only then. Cheap: no disk access when nothing changed.
    public func dataVersion() throws(SQLiteError) -> Int64 {
        try pragmaInt64("data_version")
    }
}
