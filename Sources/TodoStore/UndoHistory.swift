import SQLite

/// A command that `undo` reverted (or `redo` re-applied, or `undo --skip` forgot).
public struct UndoneCommand: Sendable, Equatable {
    /// The command's name as it was recorded ("add", "rm", "import"...).
    public let command: String
    /// How many more commands can still be undone (for redo: redone).
    public let remaining: Int

    /// Creates the value; the store makes them, apps compare against them.
    public init(command: String, remaining: Int) {
        self.command = command
        self.remaining = remaining
    }
}

/// A todo as it was before and after an undo or a redo: nil before for one it brought back or
/// added, nil after for one it deleted.
public struct TodoChange: Sendable, Equatable {
    public let before: Todo?
    public let after: Todo?

    public init(before: Todo?, after: Todo?) {
        self.before = before
        self.after = after
    }
}

extension TodoRepository {
    /// How many commands are kept for undo unless ``undoDepth`` says otherwise: taskwarrior
    /// keeps every change, and a thousand steps is weeks of a person's work. A step costs what
    /// it changed (a session changeset of those rows alone), and forgetting the oldest costs
    /// the steps forgotten (see `push`), so the depth bounds the file, not a command's time.
    public static let defaultUndoDepth = 1000

    /// The tables a step records: the dependencies, the todos, then the lists. In that order a
    /// step that moves a list's todos out (or deletes them) and then deletes the list applies both
    /// ways: forwards the todos go first, as `lists_keep_nonempty` needs; undone they come back
    /// first, and the list after them. The links come before the todos for the same reason the
    /// other way round: redone, a deletion removes a todo's links before the todo, whose delete
    /// trigger (migration 0019) then finds none left to remove behind the changeset's back; undone,
    /// the links come back before their todos, which no check of theirs needs.
    static let recordedTables = ["dependencies", "todos", "lists"]

    /// The column count of each recorded table but `todos`: what a stored step is checked against.
    static let otherRecordedTables = ["lists": TodoList.columnCount, "dependencies": 2]

    /// Runs `body` in one write transaction and records its changes to `todos` and `lists` so that
    /// ``undo()`` can revert them. Nothing is recorded when `body` changed nothing.
    ///
    /// Uses SQLite's session extension: the changeset of the transaction is inverted and stored
    /// in `todo_history` inside the same transaction, so a command and its undo entry commit
    /// together or not at all.
    ///
    /// Errors: whatever `body` throws comes back unchanged, after everything it did was rolled
    /// back; the store's own failures as `Failure`, made by `mapStoreError`. Commit
    /// notifications are held until the call returns.
    public func recordingUndo<Result, Failure: Error>(
        _ command: String, mapStoreError: (TodoStoreError) -> Failure,
        _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try connection.deferringCommitNotifications { () throws(Failure) in
            try connection.transaction(.immediate, mapError: { mapStoreError(.sqlite($0)) }) { () throws(Failure) in
                let session: Session
                do throws(SQLiteError) {
                    session = try Session(connection: connection, tables: Self.recordedTables)
                } catch {
                    throw mapStoreError(.sqlite(error))
                }
                let result = try body()
                do throws(SQLiteError) {
                    try record(command, inverse: try session.changeset().inverted())
                } catch {
                    throw mapStoreError(.sqlite(error))
                }
                return result
            }
        }
    }

    /// ``recordingUndo(_:mapStoreError:_:)`` for bodies that throw store errors only.
    public func recordingUndo<Result>(
        _ command: String,
        _ body: () throws(TodoStoreError) -> Result
    ) throws(TodoStoreError) -> Result {
        try recordingUndo(command, mapStoreError: { $0 }, body)
    }

    /// ``recordingUndo(_:mapStoreError:_:)`` for bodies that throw anything: an app's own
    /// error comes back unchanged, the store's as ``TodoStoreError``.
    public func recordingUndo<Result>(_ command: String, _ body: () throws -> Result) throws -> Result {
        try recordingUndo(command, mapStoreError: { $0 as any Error }, body)
    }

    /// Stores one command's inverse changeset, keeping the newest ``undoDepth``. A new change
    /// ends what could be redone.
    private func record(_ command: String, inverse: Changeset) throws(SQLiteError) {
        guard !inverse.isEmpty else { return }
        try push(command, inverse, onto: .undo)
        try connection.execute("DELETE FROM todo_redo", [])
    }

    /// The two stacks: `todo_history` (undo) and `todo_redo`.
    enum Stack {
        case undo, redo
        var table: String { self == .undo ? "todo_history" : "todo_redo" }
        /// Forgets the steps up to an id: a range of the rowid (see `push`).
        var trimSQL: String { "DELETE FROM \(table) WHERE id <= ?" }
    }

    /// Puts a step on top of `stack` and forgets the steps more than ``undoDepth`` below it.
    ///
    /// A step's id is one more than the newest one's: steps leave a stack only from its top
    /// (undo, redo, `skipUndo`), from its bottom (here) or all at once (`todo_redo` on a new
    /// change), so the ids of a stack are contiguous and the oldest step to keep is the new
    /// id minus the depth. Forgetting is then one range of the rowid: O(log n + steps
    /// forgotten), one step per command once the history is full, whatever the depth. (A
    /// history written before ids were kept contiguous may have gaps: it keeps a few steps
    /// fewer until they are forgotten.)
    private func push(_ command: String, _ changeset: Changeset, onto stack: Stack) throws(SQLiteError) {
        let newest = try connection.internalCachedStatement("SELECT max(id) FROM \(stack.table)").scalarInt64() ?? 0
        try connection.execute(
            "INSERT INTO \(stack.table) (id, command, changeset) VALUES (?, ?, ?)", [newest + 1, command, changeset])
        try connection.execute(stack.trimSQL, [newest + 1 - Int64(max(undoDepth, 1))])
    }

    /// The newest entry of `stack`, if any.
    private func newest(of stack: Stack) throws(SQLiteError) -> (id: Int64, command: String, changeset: Changeset)? {
        let statement = try connection.internalCachedStatement(
            "SELECT id, command, changeset FROM \(stack.table) ORDER BY id DESC LIMIT 1")
        var entry: (id: Int64, command: String, changeset: Changeset)?
        try statement.forEachRow { entry = ($0.int64(0), $0.string(1), Changeset(bytes: $0.blob(2))) }
        return entry
    }

    private func count(of stack: Stack) throws(SQLiteError) -> Int {
        Int(try connection.internalCachedStatement("SELECT count(*) FROM \(stack.table)").scalarInt64() ?? 0)
    }

    /// Moves the newest entry of `from` to `to`: applies its changeset all or nothing, records
    /// what that changed (inverted) on `to`, forgets the entry. The heart of undo and redo.
    private func replay(from: Stack, to: Stack) throws(TodoStoreError) -> (UndoneCommand, [TodoChange]) {
        try writeTransaction { () throws(TodoStoreError) in
            guard let entry = try TodoStoreError.wrap({ () throws(SQLiteError) in try newest(of: from) }) else {
                throw from == .undo ? .nothingToUndo : .nothingToRedo
            }
            let damaged = TodoStoreError.damagedHistory(command: entry.command)
            guard
                let ids = entry.changeset.rowIDs(
                    table: "todos", columnCount: TodoColumns.count, others: Self.otherRecordedTables)
            else {
                throw damaged
            }
            // Read in this transaction, so they are exactly the rows the step changes.
            var before: [Todo?] = []
            for id in ids { before.append(try todo(id: id)) }
            let session = try TodoStoreError.wrap { () throws(SQLiteError) in
                try Session(connection: connection, tables: Self.recordedTables)
            }
            let conflict: ChangesetConflict?
            do throws(SQLiteError) {
                conflict = try connection.apply(entry.changeset)
            } catch  where error.isMalformedChangeset {
                throw damaged
            } catch {
                throw .sqlite(error)
            }
            if let conflict {
                // A link's first column is the todo that waits: the todo its conflict is about.
                var ids = conflict.rowIDs(of: "todos")
                for id in conflict.rowIDs(of: "dependencies") where !ids.contains(id) { ids.append(id) }
                throw from == .undo
                    ? .undoConflict(command: entry.command, ids: ids)
                    : .redoConflict(command: entry.command, ids: ids)
            }
            let reverse = try TodoStoreError.wrap { () throws(SQLiteError) in try session.changeset().inverted() }
            // Applying a whole, conflict-free changeset changes rows; one that changed nothing
            // was not a real step, and is reported as damaged rather than as undone.
            guard !reverse.isEmpty else { throw damaged }
            var changes: [TodoChange] = []
            for (id, old) in zip(ids, before) { changes.append(TodoChange(before: old, after: try todo(id: id))) }
            return try TodoStoreError.wrap { () throws(SQLiteError) in
                try push(entry.command, reverse, onto: to)
                try connection.execute("DELETE FROM \(from.table) WHERE id = ?", [entry.id])
                return (UndoneCommand(command: entry.command, remaining: try count(of: from)), changes)
            }
        }
    }

    /// Reverts the newest recorded command, all or nothing, and moves it to the redo stack.
    ///
    /// - Throws: ``TodoStoreError/nothingToUndo`` when the history is empty;
    ///   ``TodoStoreError/undoConflict(command:ids:)`` when another program changed those todos
    ///   since (nothing is changed then, and the entry is kept: ``skipUndo(force:)`` forgets it);
    ///   ``TodoStoreError/damagedHistory(command:)`` when the entry cannot be a step.
    public func undo() throws(TodoStoreError) -> UndoneCommand {
        try replay(from: .undo, to: .redo).0
    }

    /// ``undo()``, also returning each todo it changed as it was before and after.
    public func undoReportingChanges() throws(TodoStoreError) -> (command: UndoneCommand, changes: [TodoChange]) {
        try replay(from: .undo, to: .redo)
    }

    /// ``redo()``, also returning each todo it changed as it was before and after.
    public func redoReportingChanges() throws(TodoStoreError) -> (command: UndoneCommand, changes: [TodoChange]) {
        try replay(from: .redo, to: .undo)
    }

    /// Re-applies the newest undone command, until a new change is recorded.
    ///
    /// - Throws: ``TodoStoreError/nothingToRedo``; ``TodoStoreError/redoConflict(command:ids:)``
    ///   when another program changed those todos since (nothing is changed then).
    public func redo() throws(TodoStoreError) -> UndoneCommand {
        try replay(from: .redo, to: .undo).0
    }

    /// Forgets the newest recorded command without changing any todo, so that older ones can be
    /// undone past one that cannot (a conflict, a damaged entry). Not itself undoable.
    ///
    /// A step that `undo` would revert cleanly is kept unless `force` says to drop it anyway:
    /// skipping is for a stuck step, and a step skipped by mistake is lost.
    ///
    /// - Throws: ``TodoStoreError/nothingToUndo`` when the history is empty;
    ///   ``TodoStoreError/undoNotStuck(command:)`` when the step would undo cleanly and `force`
    ///   is false (nothing is changed then).
    public func skipUndo(force: Bool = false) throws(TodoStoreError) -> UndoneCommand {
        try writeTransaction { () throws(TodoStoreError) in
            guard let entry = try TodoStoreError.wrap({ () throws(SQLiteError) in try newest(of: .undo) }) else {
                throw .nothingToUndo
            }
            if !force, try wouldApply(entry.changeset) { throw .undoNotStuck(command: entry.command) }
            return try TodoStoreError.wrap { () throws(SQLiteError) in
                try connection.execute("DELETE FROM todo_history WHERE id = ?", [entry.id])
                return UndoneCommand(command: entry.command, remaining: try count(of: .undo))
            }
        }
    }

    /// Whether `changeset` applies now without a conflict: applied inside a savepoint that is
    /// then rolled back, so no todo changes (and commit observers hear of nothing).
    private func wouldApply(_ changeset: Changeset) throws(TodoStoreError) -> Bool {
        guard changeset.isWellFormed(table: "todos", columnCount: TodoColumns.count, others: Self.otherRecordedTables)
        else { return false }
        return try TodoStoreError.wrap { () throws(SQLiteError) -> Bool in
            try connection.execute("SAVEPOINT todo_skip_probe")
            defer {
                try? connection.execute("ROLLBACK TO todo_skip_probe")
                try? connection.execute("RELEASE todo_skip_probe")
            }
            do throws(SQLiteError) {
                return try connection.apply(changeset) == nil
            } catch  where error.isMalformedChangeset {
                return false
            }
        }
    }
}
