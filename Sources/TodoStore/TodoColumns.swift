import SQLite

/// How a todo is read from and written to the `todos` table, derived from ``TodoField/all``:
/// the column list every SELECT and RETURNING clause uses, and the decoder that reads those
/// columns by position. Deriving both from the one table is what keeps them in step.
public enum TodoColumns {
    /// `id, name, deadline, done, ..., list_id, parent_id`: the id, the fields, the list and the
    /// parent, in the order ``todo(from:)`` reads them (the order of the table's columns).
    public static let list = all.joined(separator: ", ")
    /// ``list``'s columns.
    private static let all = ["id"] + fields + ["list_id", "parent_id"]
    /// ``list``'s columns by position.
    static var names: [String] { all }
    /// The columns of a todo's fields (``TodoField/all``), in ``list``'s order after `id`: what
    /// an INSERT or an UPDATE of every field names, and what sync keeps as a merge base.
    public static let fields = TodoField.all.map(\.name)
    /// The columns the `todos` table has had since its first version (migration 0001): what a
    /// file of any version can be read for.
    public static let sinceFirstVersion = "id, name, deadline, done"
    /// How many columns ``list`` names (and the `todos` table has).
    public static let count = all.count

    /// ``list`` with each column qualified by `table` (`t.id, t.name, ...`), for a join.
    public static func list(qualifiedBy table: String) -> String {
        all.map { "\(table).\($0)" }.joined(separator: ", ")
    }

    /// The todo on the current row of a statement that selected ``list``. A NULL list (a row
    /// another program wrote while a trigger had yet to place it) reads as the first list.
    @inline(__always)
    public static func todo(from row: Row) -> Todo {
        Todo(
            id: row.int64(0), fields(from: row, at: 1),
            listID: row.isNull(listColumn) ? TodoList.firstID : row.int64(listColumn),
            parentID: row.isNull(parentColumn) ? nil : row.int64(parentColumn))
    }

    /// The column of `list_id` in ``list``.
    static let listColumn = Int32(fields.count + 1)
    /// The column of `parent_id` in ``list``.
    static let parentColumn = Int32(fields.count + 2)

    /// The fields on the current row of a statement that selected ``fields`` from `column` on.
    ///
    /// A completed time is the time a todo was last marked done, while it is completed: one left
    /// in the column of a todo that is not (another program's `UPDATE todos SET done = 0`), or
    /// that is cancelled (never completed), is read as none, as an iCalendar COMPLETED is, so
    /// that every reader and every device agrees.
    @inline(__always)
    public static func fields(from row: Row, at column: Int32) -> TodoFields {
        var fields = TodoFields(name: "")
        // Each field's reader, borrowed from the buffer: iterating the table itself would copy a
        // TodoField per column per row, retaining and releasing each of its closures (a third
        // of `todo list`'s time at 100,000 todos).
        readers.withUnsafeBufferPointer { readers in
            for offset in readers.indices {
                readers[offset](row, column + Int32(offset), &fields)
            }
        }
        if fields.status != .completed { fields.completed = nil }
        return fields
    }

    /// ``TodoField/read(_:at:into:)`` of every field, in column order.
    private static let readers = TodoField.all.map(\.readValue)

    /// Binds every field of `fields` to the parameters `first`, `first + 1`... in ``fields``' order.
    public static func bind(_ fields: TodoFields, to statement: Statement, from first: Int32) throws(SQLiteError) {
        // Each field's binder, borrowed from the buffer, as ``fields(from:at:)`` reads: a copy of
        // each TodoField would retain and release its closures (an import binds every field of
        // thousands of rows).
        try binders.withUnsafeBufferPointer { (binders) throws(SQLiteError) in
            for offset in binders.indices {
                try binders[offset](fields, statement, first + Int32(offset))
            }
        }
    }

    /// ``TodoField/bind(_:to:at:)`` of every field, in column order.
    private static let binders = TodoField.all.map(\.bindValue)
}
