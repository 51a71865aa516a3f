import SQLite

/// Why a todo store operation failed. Every case is a value the caller can match and word.
public enum TodoStoreError: Error, Equatable, Sendable {
    /// No todo has these ids; nothing was changed.
    case notFound(ids: [Int64])
    /// A todo name must contain something other than white space.
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
    /// `undo` found no recorded command to revert.
    case nothingToUndo
    /// `undo` would overwrite changes another program made since to the todos `ids`; nothing
    /// was changed and the command stays in the history.
    case undoConflict(command: String, ids: [Int64])
    /// SQLite reported an error: busy past the timeout, full disk, I/O error, constraint...
    case sqlite(SQLiteError)

    /// Runs `body`, turning any ``SQLiteError`` into ``sqlite(_:)`` and passing store errors on.
    ///
    /// For code above the store that uses its connection directly.
    public static func wrap<Result>(_ body: () throws -> Result) throws(TodoStoreError) -> Result {
        do {
            return try body()
        } catch let error as TodoStoreError {
            throw error
        } catch let error as SQLiteError {
            throw .sqlite(error)
        } catch {
            // Only the two error types above are thrown below this layer.
            preconditionFailure("Unexpected error type: \(error)")
        }
    }
}
