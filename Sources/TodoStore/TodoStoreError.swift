import SQLite

/// Why a todo store operation failed. Every case is a value the caller can match and word.
public enum TodoStoreError: Error, Equatable, Sendable {
    /// No todo has these ids; nothing was changed.
    case notFound(ids: [Int64])
    /// A todo name must contain something other than white space and ASCII control characters
    /// (``Todo/isValidName(_:)``).
    case emptyName
    /// The file was written by a newer `todo` (schema `found`, this build knows `supported`).
    /// It was not modified.
    case newerSchema(found: Int, supported: Int)
    /// The file is an SQLite database that belongs to something else. It was not modified.
    case foreignDatabase(path: String)
    /// The file exists but is not an SQLite database. It was not modified.
    case notADatabase(path: String)
    /// A folder or file could not be created (`errno` from the system call).
    case cannotCreate(path: String, errno: Int32)
    /// The open database's file was deleted or moved away (see ``TodoRepository/fileState()``).
    case databaseMissing(path: String)
    /// `undo` found no recorded command to revert.
    case nothingToUndo
    /// `undo` would overwrite changes another program made since to the todos `ids`; nothing
    /// was changed and the command stays in the history.
    case undoConflict(command: String, ids: [Int64])
    /// `redo` found no undone command to re-apply (none, or a change was recorded since).
    case nothingToRedo
    /// `redo` would overwrite changes another program made since to the todos `ids`.
    case redoConflict(command: String, ids: [Int64])
    /// `undo --skip` was asked to forget a step (`command`) that would undo cleanly; nothing was
    /// changed (``TodoRepository/skipUndo(force:)`` with `force` drops it anyway).
    case undoNotStuck(command: String)
    /// The newest history entry (of `command`) is not a change that can be applied: empty or
    /// not a changeset. Nothing was changed; ``TodoRepository/skipUndo(force:)`` forgets it.
    case damagedHistory(command: String)
    /// No list has this name (or, written `#7`, this id).
    case noSuchList(String)
    /// A list has this name already (under case folding): the name as that list has it.
    case listExists(String)
    /// A list's name must hold something besides white space, no control character, and not
    /// start with `-` (``TodoList/isValidName(_:)``).
    case invalidListName(String)
    /// A colour is `#RRGGBB` (``TodoList/normalizedColor(_:)``).
    case invalidColor(String)
    /// The list still holds `count` todos; say what becomes of them. Nothing was changed.
    case listNotEmpty(String, count: Int)
    /// The default list cannot be removed until another list is the default. Nothing was changed.
    case defaultListRemoved(String)
    /// The todo `id` cannot go under `parent`: that is itself, or one of its own subtasks (the
    /// tree would have a loop). Nothing was changed.
    case subtaskCycle(id: Int64, parent: Int64)
    /// A subtask is in its parent's list: `parent` is in the list named here, not in the one
    /// the todo was to go to. Nothing was changed.
    case parentInAnotherList(parent: Int64, list: String)
    /// The todo `id` cannot wait for `waitsFor`: that is itself, or a todo that waits for it,
    /// directly or through others (nothing in the cycle could be done first). Migration 0019's
    /// triggers refuse it, from any program. Nothing was changed.
    case dependencyCycle(id: Int64, waitsFor: Int64)
    /// SQLite reported an error: busy past the timeout, full disk, I/O error, constraint...
    case sqlite(SQLiteError)

    /// Runs `body`, turning its ``SQLiteError`` into ``sqlite(_:)``. Typed, so no other error
    /// can reach it: the store's own code that talks to SQLite goes through here.
    package static func wrap<Result>(_ body: () throws(SQLiteError) -> Result) throws(TodoStoreError) -> Result {
        do {
            return try body()
        } catch {
            throw .sqlite(error)
        }
    }
}
