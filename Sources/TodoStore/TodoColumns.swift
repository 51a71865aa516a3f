import SQLite

/// The one description of how a todo is read from the `todos` table: the column list every
/// SELECT and RETURNING clause uses, and the decoder that reads those columns by position.
/// Keeping both here is what keeps them in step.
public enum TodoColumns {
    /// `id, name, deadline, done, priority, tags, note, created, completed`, in the order
    /// ``todo(from:)`` reads them.
    public static let list = (["id"] + fields).joined(separator: ", ")
    /// The columns of a todo's fields (``TodoFields``), in ``list``'s order after `id`: what an
    /// INSERT or an UPDATE of every field names, and what sync keeps as a merge base.
    public static let fields = ["name", "deadline", "done", "priority", "tags", "note", "created", "completed"]
    /// The columns the `todos` table has had since its first version (migration 0001): what a
    /// file of any version can be read for.
    public static let sinceFirstVersion = "id, name, deadline, done"
    /// How many columns ``list`` names (and the `todos` table has).
    public static let count = list.split(separator: ",").count

    /// ``list`` with each column qualified by `table` (`t.id, t.name, ...`), for a join.
    public static func list(qualifiedBy table: String) -> String {
        list.split(separator: ",").map { "\(table).\($0.trimmingPrefix(" "))" }.joined(separator: ", ")
    }

    /// The todo on the current row of a statement that selected ``list``.
    @inline(__always)
    public static func todo(from row: Row) -> Todo {
        Todo(
            id: row.int64(0),
            name: row.string(1),
            deadline: row.isNull(2) ? nil : row.withUTF8(2) { CalendarDate(iso: $0) },
            isDone: row.bool(3),
            priority: TodoPriority(rawValue: Int(row.int64(4))) ?? .none,
            tags: row.isNull(5) ? [] : TodoTags(storage: row.string(5)),
            note: row.isNull(6) ? nil : row.string(6),
            created: row.isNull(7) ? nil : row.withUTF8(7) { UTCTimestamp(iso: $0) },
            completed: row.isNull(8) ? nil : row.withUTF8(8) { UTCTimestamp(iso: $0) })
    }
}
