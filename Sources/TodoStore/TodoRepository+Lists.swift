import SQLite

/// The lists (migration 0013): reading them, making, renaming, colouring and removing them, and
/// moving todos between them. Each change is one write transaction; inside
/// ``TodoRepository/recordingUndo(_:_:)`` it is one undo step with the todos it moved.
extension TodoRepository {
    /// Every list, in display order (position, then name).
    public func lists() throws(TodoStoreError) -> [TodoList] {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            var lists: [TodoList] = []
            try connection.internalCachedStatement(
                "SELECT \(TodoList.columns) FROM lists ORDER BY position, name, id"
            ).forEachRow { lists.append(TodoList(row: $0)) }
            return lists
        }
    }

    /// The list with the id `id`, if there is one.
    public func list(id: Int64) throws(TodoStoreError) -> TodoList? {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            let statement = try connection.internalCachedStatement("SELECT \(TodoList.columns) FROM lists WHERE id = ?")
            try statement.bind([id])
            var found: TodoList?
            try statement.forEachRow { found = TodoList(row: $0) }
            return found
        }
    }

    /// The list named `name` (``TodoList/isSameName(_:_:)``: case does not matter), if any.
    public func list(named name: String) throws(TodoStoreError) -> TodoList? {
        try lists().first { TodoList.isSameName($0.name, name) }
    }

    /// The list named `name`; ``TodoStoreError/noSuchList(_:)`` when there is none.
    public func existingList(named name: String) throws(TodoStoreError) -> TodoList {
        guard let list = try list(named: name) else { throw .noSuchList(name) }
        return list
    }

    /// The default list: where a todo goes when nobody says which. Should another program have
    /// left none marked (or deleted the default with the checks off), the oldest list stands in.
    public func defaultList() throws(TodoStoreError) -> TodoList {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            var found: TodoList?
            try connection.internalCachedStatement(
                "SELECT \(TodoList.columns) FROM lists ORDER BY is_default DESC, id LIMIT 1"
            ).forEachRow { found = TodoList(row: $0) }
            // Every list deleted by hand: the first list comes back, as the migration made it.
            guard let found else {
                try connection.execute(
                    "INSERT INTO lists (id, name, position, is_default) VALUES (?, 'Todos', 1, 1)", [TodoList.firstID])
                return TodoList(id: TodoList.firstID, name: "Todos", position: 1, isDefault: true)
            }
            return found
        }
    }

    /// The default list's id: ``defaultList()``'s, read by the partial index `lists_one_default`
    /// alone, as every `add` without a list needs it.
    public func defaultListID() throws(TodoStoreError) -> Int64 {
        let marked = try TodoStoreError.wrap { () throws(SQLiteError) in
            try connection.internalCachedStatement("SELECT id FROM lists WHERE is_default = 1").scalarInt64()
        }
        if let marked { return marked }
        return try defaultList().id
    }

    /// How many undone and done todos each list holds, by list id; a list without todos is absent.
    public func listCounts() throws(TodoStoreError) -> [Int64: TodoListCount] {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            var counts: [Int64: TodoListCount] = [:]
            try connection.internalCachedStatement(
                "SELECT list_id, done, count(*) FROM todos WHERE list_id IS NOT NULL GROUP BY list_id, done"
            ).forEachRow { row in
                let count = Int(row.int64(2))
                if row.int64(1) == 0 {
                    counts[row.int64(0), default: TodoListCount()].undone += count
                } else {
                    counts[row.int64(0), default: TodoListCount()].done += count
                }
            }
            return counts
        }
    }

    /// Makes a list named `name` (with `color`, any form ``TodoList/normalizedColor(_:)`` reads),
    /// placed after the others, and returns it.
    ///
    /// - Throws: ``TodoStoreError/invalidListName(_:)``, ``TodoStoreError/listExists(_:)`` (a list
    ///   of that name under case folding), ``TodoStoreError/invalidColor(_:)``.
    @discardableResult
    public func createList(named name: String, color: String? = nil) throws(TodoStoreError) -> TodoList {
        guard TodoList.isValidName(name) else { throw .invalidListName(name) }
        let stored = try color.map { (color) throws(TodoStoreError) -> String in
            guard let normalized = TodoList.normalizedColor(color) else { throw .invalidColor(color) }
            return normalized
        }
        return try writeTransaction { () throws(TodoStoreError) in
            if let existing = try list(named: name) { throw .listExists(existing.name) }
            return try TodoStoreError.wrap { () throws(SQLiteError) in
                let position =
                    try connection.internalCachedStatement("SELECT coalesce(max(position), 0) + 1 FROM lists")
                    .scalarInt64() ?? 1
                try connection.execute(
                    "INSERT INTO lists (name, color, position) VALUES (?, ?, ?)", [name, stored, position])
                return TodoList(id: connection.lastInsertRowID, name: name, color: stored, position: position)
            }
        }
    }

    /// Renames the list `id` and returns it. Another case of its own name is a rename too.
    ///
    /// - Throws: ``TodoStoreError/invalidListName(_:)``, ``TodoStoreError/listExists(_:)``,
    ///   ``TodoStoreError/noSuchList(_:)``.
    @discardableResult
    public func renameList(id: Int64, to name: String) throws(TodoStoreError) -> TodoList {
        guard TodoList.isValidName(name) else { throw .invalidListName(name) }
        return try writeTransaction { () throws(TodoStoreError) in
            if let existing = try list(named: name), existing.id != id { throw .listExists(existing.name) }
            return try changeList(id: id, set: "name = ?", name)
        }
    }

    /// Sets (or, with `nil`, clears) the colour of the list `id` and returns it.
    ///
    /// - Throws: ``TodoStoreError/invalidColor(_:)``, ``TodoStoreError/noSuchList(_:)``.
    @discardableResult
    public func setListColor(id: Int64, to color: String?) throws(TodoStoreError) -> TodoList {
        let stored = try color.map { (color) throws(TodoStoreError) -> String in
            guard let normalized = TodoList.normalizedColor(color) else { throw .invalidColor(color) }
            return normalized
        }
        return try writeTransaction { () throws(TodoStoreError) in try changeList(id: id, set: "color = ?", stored) }
    }

    /// Makes the list `id` the default (and no other) and returns it.
    @discardableResult
    public func setDefaultList(id: Int64) throws(TodoStoreError) -> TodoList {
        try writeTransaction { () throws(TodoStoreError) in
            guard try list(id: id) != nil else { throw .noSuchList("#\(id)") }
            try TodoStoreError.wrap { () throws(SQLiteError) in
                try connection.execute("UPDATE lists SET is_default = 0 WHERE is_default = 1 AND id <> ?", [id])
            }
            return try changeList(id: id, set: "is_default = ?", 1)
        }
    }

    /// What becomes of a list's todos when it is removed.
    public enum RemovedListTodos: Sendable, Equatable {
        /// The list must be empty: ``TodoStoreError/listNotEmpty(_:count:)`` otherwise.
        case none
        /// They move to the list with this id.
        case moveTo(Int64)
        /// They are deleted.
        case delete
    }

    /// Removes the list `id`, its todos moved or deleted as `todos` says, all or nothing; returns
    /// the todos as they are after it (moved) or were before it (deleted).
    ///
    /// - Throws: ``TodoStoreError/noSuchList(_:)``; ``TodoStoreError/defaultListRemoved(_:)`` for
    ///   the default list (make another the default first); ``TodoStoreError/listNotEmpty(_:count:)``.
    public func removeList(id: Int64, todos: RemovedListTodos) throws(TodoStoreError) -> [Todo] {
        try writeTransaction { () throws(TodoStoreError) in
            let ids = try checkRemoval(of: id, todos: todos)
            var changed: [Todo] = []
            switch todos {
            case .none:
                break
            case .moveTo(let target):
                changed = try move(ids: ids, to: target)
            case .delete:
                changed = try delete(ids: ids)
            }
            try TodoStoreError.wrap { () throws(SQLiteError) in
                try connection.execute("DELETE FROM lists WHERE id = ?", [id])
            }
            return changed
        }
    }

    /// Whether ``removeList(id:todos:)`` would remove the list `id` with its todos as `todos`
    /// says, as it is now: the ids of its todos when it would; its error when not (before
    /// something that cannot be undone, such as deleting its collection on a server).
    public func checkRemoval(of id: Int64, todos: RemovedListTodos) throws(TodoStoreError) -> [Int64] {
        guard let list = try list(id: id) else { throw .noSuchList("#\(id)") }
        guard !list.isDefault else { throw .defaultListRemoved(list.name) }
        let ids = try todoIDs(inList: id)
        switch todos {
        case .none where !ids.isEmpty, .moveTo(id):
            throw .listNotEmpty(list.name, count: ids.count)
        default:
            return ids
        }
    }

    /// Moves every todo in `ids` to the list `list` and returns them; all or nothing. A todo
    /// already there is returned unchanged.
    ///
    /// - Throws: ``TodoStoreError/noSuchList(_:)``, ``TodoStoreError/notFound(ids:)`` naming
    ///   every missing id; nothing changes then.
    @discardableResult
    public func move(ids: [Int64], to list: Int64) throws(TodoStoreError) -> [Todo] {
        try writeTransaction { () throws(TodoStoreError) in
            guard try self.list(id: list) != nil else { throw .noSuchList("#\(list)") }
            return try changeEach(
                ids, sql: "UPDATE todos SET list_id = ?1 WHERE id = ?2 RETURNING \(TodoColumns.list)"
            ) { (statement, id) throws(SQLiteError) in
                try statement.bind(list, at: 1)
                try statement.bind(id, at: 2)
            }
        }
    }

    /// The ids of the todos in the list `id`, in id order.
    public func todoIDs(inList id: Int64) throws(TodoStoreError) -> [Int64] {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            let statement = try connection.internalCachedStatement("SELECT id FROM todos WHERE list_id = ? ORDER BY id")
            try statement.bind([id])
            var ids: [Int64] = []
            try statement.forEachRow { ids.append($0.int64(0)) }
            return ids
        }
    }

    private func changeList(id: Int64, set assignment: String, _ value: some SQLiteBindable)
        throws(TodoStoreError) -> TodoList
    {
        let changed = try TodoStoreError.wrap { () throws(SQLiteError) -> TodoList? in
            let statement = try connection.internalCachedStatement(
                "UPDATE lists SET \(assignment) WHERE id = ? RETURNING \(TodoList.columns)")
            try statement.bind(value, at: 1)
            try statement.bind(id, at: 2)
            var changed: TodoList?
            try statement.forEachRow { changed = TodoList(row: $0) }
            return changed
        }
        guard let changed else { throw .noSuchList("#\(id)") }
        return changed
    }
}
