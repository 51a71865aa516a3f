import SQLite

/// A command that `undo` reverted.
public struct UndoneCommand: Sendable, Equatable {
    /// The command's name as it was recorded ("add", "rm", "import"...).
    public let command: String
    /// How many more commands can still be undone.
    public let remaining: Int
}

extension TodoRepository {
    /// How many commands are kept for undo.
    public static let undoDepth = 100

    /// Runs `body` in one write transaction and records its changes to `todos` so that
    /// ``undo()`` can revert them. Nothing is recorded when `body` changed nothing.
    ///
    /// Uses SQLite's session extension: the changeset of the transaction is inverted and stored
    /// in `todo_history` inside the same transaction, so a command and its undo entry commit
    /// together or not at all.
    public func recordingUndo<Result>(_ command: String, _ body: () throws -> Result) throws(TodoStoreError) -> Result {
        try TodoStoreError.wrap {
            try connection.transaction(.immediate) {
                let session = try Session(connection: connection, table: "todos")
                let result = try body()
                let inverse = try session.changeset().inverted()
                if !inverse.isEmpty {
                    try connection.execute("INSERT INTO todo_history (command, changeset) VALUES (?, ?)", [command, inverse])
                    try connection.execute("DELETE FROM todo_history WHERE id <= (SELECT max(id) FROM todo_history) - ?",
                                           [Self.undoDepth])
                }
                return result
            }
        }
    }

    /// Reverts the newest recorded command, all or nothing, and forgets it.
    ///
    /// - Throws: ``TodoStoreError/nothingToUndo`` when the history is empty;
    ///   ``TodoStoreError/undoConflict(command:ids:)`` when another program changed those todos
    ///   since (nothing is changed then, and the entry is kept).
    public func undo() throws(TodoStoreError) -> UndoneCommand {
        try TodoStoreError.wrap {
            try connection.transaction(.immediate) {
                let newest = try connection.cachedStatement(
                    "SELECT id, command, changeset FROM todo_history ORDER BY id DESC LIMIT 1")
                var entry: (id: Int64, command: String, changeset: Changeset)?
                try newest.forEachRow { entry = ($0.int64(0), $0.string(1), Changeset(bytes: $0.blob(2))) }
                guard let entry else { throw TodoStoreError.nothingToUndo }
                do {
                    try connection.apply(entry.changeset)
                } catch let conflict as ChangesetConflict {
                    throw TodoStoreError.undoConflict(command: entry.command, ids: conflict.rowIDs)
                }
                try connection.execute("DELETE FROM todo_history WHERE id = ?", [entry.id])
                let remaining = try connection.cachedStatement("SELECT count(*) FROM todo_history").scalarInt64() ?? 0
                return UndoneCommand(command: entry.command, remaining: Int(remaining))
            }
        }
    }
}
