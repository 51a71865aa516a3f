import SQLite

/// The one description of how a todo is read from the `todos` table: the column list every
/// SELECT and RETURNING clause uses, and the decoder that reads those columns by position.
/// Keeping both here is what keeps them in step.
public enum TodoColumns {
    /// `id, name, deadline, done`, in the order ``todo(from:)`` reads them.
    public static let list = "id, name, deadline, done"
    /// How many columns ``list`` names (and the `todos` table has).
    public static let count = list.split(separator: ",").count

    /// The todo on the current row of a statement that selected ``list``.
    @inline(__always)
    public static func todo(from row: Row) -> Todo {
        Todo(
            id: row.int64(0),
            name: row.string(1),
            deadline: row.isNull(2) ? nil : row.withUTF8(2) { CalendarDate(iso: $0) },
            isDone: row.bool(3))
    }
}
