import SQLite

/// A read of todos that decodes only what places them: the fields a list's order, its
/// outline's groups and its subtask tree compare (the deadline, the done state and status, the
/// priority, the list and the parent), and, when asked (``Extra``), the name, the tags or the
/// project. The todos read are ``Todo`` values with every other field empty ("key todos"):
/// what a list of a million todos keeps in memory, reading each row it shows whole, by id.
///
/// Why: a whole todo (its name, tags and note) costs a few hundred bytes in memory, which at a
/// million todos is most of a screen's process; its key costs a few bytes (see
/// `FetchedResultsController.Rows.keys`). The columns and their decoding are ``TodoField/all``'s,
/// so a key todo compares, groups and nests exactly as the whole todo does.
public struct TodoKeyColumns: Hashable, Sendable {
    /// The fields a key todo carries besides those always read, for an order or a grouping that
    /// compares them.
    public struct Extra: OptionSet, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// The name (`.name` order).
        public static let name = Extra(rawValue: 1)
        /// The tags (grouping by tag).
        public static let tags = Extra(rawValue: 2)
        /// The project (grouping by project).
        public static let project = Extra(rawValue: 4)
    }

    /// The fields read besides those always read.
    public let extra: Extra
    /// The SELECT list: `id`, the fields read in the table's order, `list_id`, `parent_id`.
    let list: String
    /// Each field's reader with the column it reads, in ``list``'s order.
    private let readers: [(column: Int32, read: @Sendable (Row, Int32, inout TodoFields) -> Void)]
    private let listColumn: Int32
    /// The positions in ``list`` of the columns of ``TodoColumns/list`` it selects, by name.
    private let names: [String]

    /// The fields always read, by column name.
    private static let placing: Set<String> = ["deadline", "done", "priority", "status"]

    /// The columns for `extra`.
    public init(extra: Extra = []) {
        self.extra = extra
        var wanted = Self.placing
        if extra.contains(.name) { wanted.insert("name") }
        if extra.contains(.tags) { wanted.insert("tags") }
        if extra.contains(.project) { wanted.insert("project") }
        // In the table's order: a field's reader may read an earlier one's value (status, done).
        let fields = TodoField.all.filter { wanted.contains($0.name) }
        list = (["id"] + fields.map(\.name) + ["list_id", "parent_id"]).joined(separator: ", ")
        readers = fields.enumerated().map { (Int32($0.offset + 1), $0.element.readValue) }
        listColumn = Int32(fields.count + 1)
        names = ["id"] + fields.map(\.name) + ["list_id", "parent_id"]
    }

    /// Where the column at `position` of ``TodoColumns/list`` is in ``list`` (an ordering
    /// column, for a cursor's restart). Precondition: it is selected.
    func position(of position: Int32) -> Int32 {
        let name = TodoColumns.names[Int(position)]
        return Int32(names.firstIndex(of: name) ?? 0)
    }

    public static func == (lhs: TodoKeyColumns, rhs: TodoKeyColumns) -> Bool { lhs.extra == rhs.extra }
    public func hash(into hasher: inout Hasher) { hasher.combine(extra) }

    /// The key todo on the current row of a statement that selected ``list``.
    @inline(__always)
    func todo(from row: Row) -> Todo {
        var fields = TodoFields(name: "")
        readers.withUnsafeBufferPointer { readers in
            for reader in readers { reader.read(row, reader.column, &fields) }
        }
        if fields.status != .completed { fields.completed = nil }
        return Todo(
            id: row.int64(0), fields,
            listID: row.isNull(listColumn) ? TodoList.firstID : row.int64(listColumn),
            parentID: row.isNull(listColumn + 1) ? nil : row.int64(listColumn + 1))
    }
}

extension TodoRepository {
    /// The key todos (``TodoKeyColumns``) the request selects, in its order: what
    /// ``fetch(_:)`` reads, with only `columns`' fields. O(n).
    public func fetchKeys(_ request: TodoFetchRequest, columns: TodoKeyColumns) throws(TodoStoreError) -> [Todo] {
        var todos: [Todo] = []
        try forEachKey(request, columns: columns) { todos.append($0) }
        return todos
    }

    /// Calls `body` with each key todo the request selects, in order, streaming from SQLite (a
    /// key todo is a few hundred bytes as a value: a million of them in an array is far more
    /// than what keeps them).
    public func forEachKey(_ request: TodoFetchRequest, columns: TodoKeyColumns, _ body: (Todo) -> Void)
        throws(TodoStoreError)
    {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            let columns = request.order == .name ? TodoKeyColumns(extra: columns.extra.union(.name)) : columns
            let statement = try connection.internalCachedStatement(request.sql(selecting: columns.list))
            try statement.bind(request.arguments)
            try statement.forEachRow { body(columns.todo(from: $0)) }
        }
    }

    /// The key todos among `ids` the request selects, by id: ``fetch(_:ids:)`` with only
    /// `columns`' fields.
    public func fetchKeys(_ request: TodoFetchRequest, ids: some Sequence<Int64>, columns: TodoKeyColumns)
        throws(TodoStoreError) -> [Int64: Todo]
    {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            let columns = request.order == .name ? TodoKeyColumns(extra: columns.extra.union(.name)) : columns
            let statement = try connection.internalCachedStatement(request.sqlForOneID(selecting: columns.list))
            let filterArguments = request.filterArguments
            var found: [Int64: Todo] = [:]
            for id in ids {
                try statement.bind([id] + filterArguments)
                try statement.forEachRow { found[id] = columns.todo(from: $0) }
            }
            return found
        }
    }

    /// A cursor reading the key todos of `request` in slices (see ``cursor(_:)``).
    public func cursor(_ request: TodoFetchRequest, columns: TodoKeyColumns) throws(TodoStoreError)
        -> TodoFetchCursor
    {
        TodoFetchCursor(connection: connection, request: request, startPosition: try feedPosition(), keys: columns)
    }

    /// The ids of the todos whose stored parent is one of `ids` (the subtask index), whatever
    /// the request: who may move in a tree when one of `ids` comes, goes or changes list.
    public func childIDs(of ids: some Sequence<Int64>) throws(TodoStoreError) -> [Int64] {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            let statement = try connection.internalCachedStatement("SELECT id FROM todos WHERE parent_id = ?")
            var found: [Int64] = []
            for id in ids {
                try statement.bind([id])
                try statement.forEachRow { found.append($0.int64(0)) }
            }
            return found
        }
    }
}
