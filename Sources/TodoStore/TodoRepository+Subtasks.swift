import SQLite

/// Subtasks: todos under other todos (``Todo/parentID``), at any depth and without loops.
///
/// A todo and its subtasks are one subtree: the commands move, complete and delete them together
/// (``moveSubtrees(ids:to:)``, ``setStatus(_:subtreesOf:now:)``, ``deleteSubtrees(ids:)``), each
/// in one transaction, so a subtree is never left half moved or half deleted and one `todo undo`
/// brings it back. The plain calls (``move(ids:to:)``, ``setStatus(_:ids:percent:now:)``,
/// ``delete(ids:)``) touch the given todos alone: sync uses them, because a phone moves and
/// deletes every object of a subtree by itself.
///
/// The tree is read as it is stored, whatever wrote it: a subtask is a todo whose parent is a
/// todo of the same list; a `parent_id` naming a deleted todo, or one of another list, leaves the
/// todo at the top level of its list. Migration 0017's triggers refuse a loop from any program.
extension TodoRepository {
    /// Puts every todo in `ids` under `parent` (`nil`: at the top level) and returns them, in
    /// one transaction; all or nothing. A todo going under a parent of another list moves to that
    /// list with its own subtasks (a subtask is in its parent's list).
    ///
    /// - Throws: ``TodoStoreError/notFound(ids:)`` (a todo or the parent),
    ///   ``TodoStoreError/subtaskCycle(id:parent:)`` when the parent is one of the todos or
    ///   under one of them.
    @discardableResult
    public func setParent(_ parent: Int64?, ids: [Int64]) throws(TodoStoreError) -> [Todo] {
        try writeTransaction { () throws(TodoStoreError) in
            let todos = try todos(ids: ids)
            guard let parent else {
                return try changeEach(
                    ids, sql: "UPDATE todos SET parent_id = NULL WHERE id = ? RETURNING \(TodoColumns.list)"
                ) {
                    (statement, id) throws(SQLiteError) in try statement.bind(id, at: 1)
                }
            }
            guard let parentTodo = try todo(id: parent) else { throw .notFound(ids: [parent]) }
            let above = Set(try ancestors(of: parentTodo).map(\.id) + [parent])
            if let looping = todos.first(where: { above.contains($0.id) }) {
                throw .subtaskCycle(id: looping.id, parent: parent)
            }
            let moving = todos.filter { $0.listID != parentTodo.listID }.map(\.id)
            if !moving.isEmpty { _ = try moveSubtrees(ids: moving, to: parentTodo.listID) }
            do throws(TodoStoreError) {
                return try changeEach(
                    ids, sql: "UPDATE todos SET parent_id = ?1 WHERE id = ?2 RETURNING \(TodoColumns.list)"
                ) {
                    (statement, id) throws(SQLiteError) in
                    try statement.bind(parent, at: 1)
                    try statement.bind(id, at: 2)
                }
            } catch .sqlite(let error) where error.isConstraintViolation {
                // The schema's trigger walks every stored link, across lists too, where the tree
                // (and the check above) stops at a list: a loop through a todo of another list.
                throw .subtaskCycle(id: todos.first?.id ?? parent, parent: parent)
            }
        }
    }

    /// Sets the todo `id`'s parent to `parent` (`nil`: the top level) and nothing else: no list
    /// moves, no check that the parent is here (sync takes in a link as the server has it; the
    /// tree rule reads a parent of another list, or gone, as the top level). A loop is refused.
    ///
    /// - Throws: ``TodoStoreError/subtaskCycle(id:parent:)`` (nothing changed),
    ///   ``TodoStoreError/notFound(ids:)``.
    package func linkParent(_ parent: Int64?, of id: Int64) throws(TodoStoreError) {
        do {
            _ = try changeEach([id], sql: "UPDATE todos SET parent_id = ?1 WHERE id = ?2 RETURNING \(TodoColumns.list)")
            {
                (statement, id) throws(SQLiteError) in
                try statement.bind(parent, at: 1)
                try statement.bind(id, at: 2)
            }
        } catch .sqlite(let error) where error.isConstraintViolation {
            // The schema's trigger (migration 0017): the parent is this todo or under it.
            throw .subtaskCycle(id: id, parent: parent ?? id)
        }
    }

    /// The ids of the subtasks of the todos in `ids`, at every depth, each once, without `ids`
    /// themselves: parents before their subtasks, siblings in id order.
    public func subtaskIDs(of ids: [Int64]) throws(TodoStoreError) -> [Int64] {
        guard !ids.isEmpty else { return [] }
        return try reading { () throws(TodoStoreError) in
            // A file without subtasks (most) answers at once, whatever the number of ids.
            try hasSubtasks() ? try subtaskIDsRead(of: ids) : []
        }
    }

    private func subtaskIDsRead(of ids: [Int64]) throws(TodoStoreError) -> [Int64] {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            let statement = try connection.internalCachedStatement(
                """
                WITH RECURSIVE down(id, list_id, depth) AS (
                    SELECT id, list_id, 0 FROM todos WHERE id = ?1
                    UNION SELECT t.id, t.list_id, down.depth + 1 FROM todos t JOIN down
                        ON t.parent_id = down.id AND t.list_id IS down.list_id)
                SELECT id FROM down WHERE depth > 0 ORDER BY depth, id
                """)
            let given = Set(ids)
            var seen = given
            var found: [Int64] = []
            for id in ids {
                try statement.reset()
                try statement.bind(id, at: 1)
                try statement.forEachRow { row in
                    let id = row.int64(0)
                    if seen.insert(id).inserted { found.append(id) }
                }
            }
            return found
        }
    }

    /// The subtasks right under the todo `id` (in its list), in id order.
    public func subtasks(of id: Int64) throws(TodoStoreError) -> [Todo] {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            let statement = try connection.internalCachedStatement(
                """
                SELECT \(TodoColumns.list(qualifiedBy: "t")) FROM todos t JOIN todos p ON p.id = t.parent_id
                WHERE t.parent_id = ? AND t.list_id IS p.list_id ORDER BY t.id
                """)
            try statement.bind([id])
            var found: [Todo] = []
            try statement.forEachRow { found.append(TodoColumns.todo(from: $0)) }
            return found
        }
    }

    /// Every todo's subtasks, by parent id (subtasks in id order), by the tree rule (a parent
    /// of the same list): for writing each todo's `children`. O(subtasks), through their index.
    public func subtaskIDsByParent() throws(TodoStoreError) -> [Int64: [Int64]] {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            let statement = try connection.internalCachedStatement(
                """
                SELECT t.parent_id, t.id FROM todos t JOIN todos p ON p.id = t.parent_id
                WHERE t.parent_id IS NOT NULL AND t.list_id IS p.list_id ORDER BY t.id
                """)
            var found: [Int64: [Int64]] = [:]
            try statement.forEachRow { found[$0.int64(0), default: []].append($0.int64(1)) }
            return found
        }
    }

    /// The parent each of `todos` is under by the tree rule (its parent is here, in its list),
    /// by todo id; a todo at the top level is absent. One look-up per distinct parent.
    public func parentIDs(of todos: [Todo]) throws(TodoStoreError) -> [Int64: Int64] {
        var lists: [Int64: Int64?] = [:]
        var found: [Int64: Int64] = [:]
        for todo in todos {
            guard let parent = todo.parentID, parent != todo.id else { continue }
            if lists[parent] == nil { lists[parent] = .some(try self.todo(id: parent)?.listID) }
            if lists[parent] == .some(todo.listID) { found[todo.id] = parent }
        }
        return found
    }

    /// The todos above `todo`: its parent, that one's parent, and so on up to the top level (a
    /// parent gone or in another list ends the walk, and so would a loop).
    public func ancestors(of todo: Todo) throws(TodoStoreError) -> [Todo] {
        var found: [Todo] = []
        var seen: Set<Int64> = [todo.id]
        var current = todo
        while let parentID = current.parentID, seen.insert(parentID).inserted,
            let parent = try self.todo(id: parentID), parent.listID == current.listID
        {
            found.append(parent)
            current = parent
        }
        return found
    }

    /// Moves every todo in `ids` to the list `list` with its subtasks, and returns them (the
    /// given todos, then their subtasks), in one transaction; all or nothing. A todo moved
    /// without its parent goes to the top level of `list`.
    ///
    /// - Throws: as ``move(ids:to:)``.
    @discardableResult
    public func moveSubtrees(ids: [Int64], to list: Int64) throws(TodoStoreError) -> [Todo] {
        try writeTransaction { () throws(TodoStoreError) in
            let todos = try todos(ids: ids)
            let subtasks = try subtaskIDs(of: ids)
            let moving = Set(ids + subtasks)
            let leaving = todos.filter { todo in todo.parentID.map { !moving.contains($0) } ?? false }.map(\.id)
            if !leaving.isEmpty { _ = try setParent(nil, ids: leaving) }
            return try move(ids: ids + subtasks, to: list)
        }
    }

    /// Deletes every todo in `ids` with all its subtasks and returns what was deleted (the given
    /// todos, then their subtasks), in one transaction; all or nothing.
    ///
    /// - Throws: ``TodoStoreError/notFound(ids:)`` naming every missing id; nothing changes then.
    @discardableResult
    public func deleteSubtrees(ids: [Int64]) throws(TodoStoreError) -> [Todo] {
        try writeTransaction { () throws(TodoStoreError) in
            _ = try todos(ids: ids)
            return try delete(ids: ids + subtaskIDs(of: ids))
        }
    }

    /// Puts every todo in `ids` in `status` and its subtasks too, those not done yet (a subtask
    /// already done or cancelled keeps its state and its time), and returns every todo changed,
    /// in one transaction; all or nothing. For completing or cancelling a todo with its subtasks.
    ///
    /// - Throws: ``TodoStoreError/notFound(ids:)`` naming every missing id; nothing changes then.
    @discardableResult
    public func setStatus(_ status: TodoStatus, subtreesOf ids: [Int64], now: UTCTimestamp = .now())
        throws(TodoStoreError) -> [Todo]
    {
        try writeTransaction { () throws(TodoStoreError) in
            _ = try todos(ids: ids)
            let undone = try todos(ids: subtaskIDs(of: ids)).filter { !$0.isDone }.map(\.id)
            return try setStatus(status, ids: ids + undone, now: now)
        }
    }

    /// Whether any todo of the file is under another (stored so, whether or not its parent is
    /// there): whether lists need ``outline(_:withContext:)`` rather than a plain stream of rows. One look at
    /// an index that holds subtasks only.
    public func hasSubtasks() throws(TodoStoreError) -> Bool {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            try connection.internalCachedStatement("SELECT 1 FROM todos WHERE parent_id IS NOT NULL LIMIT 1")
                .scalarInt64() != nil
        }
    }

    /// The todos the request selects as a tree (``TodoOutline``), with the ancestors of the
    /// chosen subtasks that the request did not choose as context rows when `withContext`
    /// (without, such a subtask is at the top level). ``forEachInOutline(_:withContext:_:)``
    /// gives the same rows without holding them.
    public func outline(_ request: TodoFetchRequest, withContext: Bool = true) throws(TodoStoreError) -> TodoOutline {
        var rows: [TodoOutline.Row] = []
        try forEachInOutline(request, withContext: withContext) { rows.append($0) }
        var outline = TodoOutline([])
        outline.rows = rows
        return outline
    }

    /// Calls `body` with each row of ``outline(_:withContext:)``, in order, in one read
    /// transaction (the tree and its rows are of one state of the file). `body` must not write
    /// through this repository.
    ///
    /// Without context rows and without a limit or an offset (`todo list` into a pipe), SQLite
    /// orders the tree (`TodoFetchRequest.outlineSQL`) and the rows stream from it: memory
    /// stays that of one row whatever the list's length. The todos of a loop of parents, which
    /// only a damaged file holds, come last, arranged by ``TodoOutline`` (which cuts the loop),
    /// found by counting the rows the tree gave against those the request selects.
    ///
    /// Otherwise two passes, holding the tree's order but no row: the ids, parents and lists of
    /// the todos the request selects, from which the tree's order is made
    /// (``TodoOutline/places(_:context:)``); then the rows, streamed in the request's order. A
    /// todo at the top level is written as it comes, and the rest of its subtree after it, each
    /// subtask read by its id (a subtask's own row in the stream is skipped unread), as is each
    /// context row.
    public func forEachInOutline(
        _ request: TodoFetchRequest, withContext: Bool = true, _ body: (TodoOutline.Row) -> Void
    ) throws(TodoStoreError) {
        if !withContext && request.hasOutlineSQL { return try forEachInSQLOutline(request, body) }
        try connection.transaction(.deferred, mapError: TodoStoreError.sqlite) { () throws(TodoStoreError) in
            try TodoStoreError.wrap { () throws(SQLiteError) in
                let tree = try connection.internalCachedStatement(request.treeSQL)
                try tree.bind(request.arguments)
                var nodes: [TodoOutline.Node] = []
                try tree.forEachRow { nodes.append(Self.node(from: $0)) }
                let places = TodoOutline.places(nodes, context: withContext ? try contextNodes(of: nodes) : [])
                var roots = Set<Int64>()
                for place in places where place.depth == 0 && !place.isContext { roots.insert(place.id) }
                let byID = try connection.internalCachedStatement("SELECT \(TodoColumns.list) FROM todos WHERE id = ?")
                var next = 0
                /// Writes the places before `stop` (to the end for `nil`), each row read by its id.
                func writeUntil(_ stop: Int64?) throws(SQLiteError) {
                    while next < places.count, places[next].id != stop {
                        let place = places[next]
                        try byID.reset()
                        try byID.bind(place.id, at: 1)
                        try byID.forEachRow { row in
                            body(
                                TodoOutline.Row(
                                    todo: TodoColumns.todo(from: row), depth: place.depth, isContext: place.isContext))
                        }
                        next += 1
                    }
                }
                let rows = try connection.internalCachedStatement(request.sql)
                try rows.bind(request.arguments)
                var failure: SQLiteError?
                try rows.forEachRow { row in
                    guard failure == nil, roots.contains(row.int64(0)) else { return }
                    do throws(SQLiteError) {
                        try writeUntil(row.int64(0))
                    } catch {
                        failure = error
                        return
                    }
                    guard next < places.count else { return }
                    body(TodoOutline.Row(todo: TodoColumns.todo(from: row), depth: 0))
                    next += 1
                }
                if let failure { throw failure }
                try writeUntil(nil)
            }
        }
    }

    /// ``forEachInOutline(_:withContext:_:)`` without context rows, the tree ordered by SQLite.
    /// The loop check costs a look at the subtasks' index where no subtask's parent is newer than
    /// it (subtasks made under their parents), else a count of the request's todos.
    ///
    /// With a page cache of 512 KiB instead of 2 MiB while it reads: the tree's order jumps about
    /// the file (each row is read by its id), so few pages are read twice and a larger cache
    /// only holds memory; it kept `todo list` of a file with subtasks above 12 MiB.
    private func forEachInSQLOutline(
        _ request: TodoFetchRequest, _ body: (TodoOutline.Row) -> Void
    ) throws(TodoStoreError) {
        let cacheSize = try TodoStoreError.wrap { () throws(SQLiteError) in
            let before = try connection.pragmaInt64("cache_size")
            try connection.execute("PRAGMA cache_size = -512")
            return before
        }
        defer { try? connection.execute("PRAGMA cache_size = \(cacheSize)") }
        try connection.transaction(.deferred, mapError: TodoStoreError.sqlite) { () throws(TodoStoreError) in
            try TodoStoreError.wrap { () throws(SQLiteError) in
                let depthColumn = Int32(TodoColumns.count)  // after the columns of TodoColumns.list
                let rows = try connection.internalCachedStatement(request.outlineSQL)
                try rows.bind(request.outlineArguments)
                var given = 0
                try rows.forEachRow { row in
                    body(Self.row(TodoColumns.todo(from: row), depth: Int(row.int64(depthColumn))))
                    given += 1
                }
                // Every loop has a link to a larger id (ids cannot fall all the way round, and a
                // todo that is its own parent is at the top): without one, nothing was left out,
                // as the covering partial index todos_by_parent tells at once. Else count.
                let linksUp = "SELECT EXISTS (SELECT 1 FROM todos WHERE parent_id > id)"
                guard try connection.internalCachedStatement(linksUp).scalarInt64() == 1 else { return }
                let count = try connection.internalCachedStatement(request.countSQL)
                try count.bind(request.filterArguments)
                var chosen = 0
                try count.forEachRow { chosen = Int($0.int64(0)) }
                guard given < chosen else { return }
                // A loop of parents (a damaged file): the todos the tree never reached, by the rule.
                let unplaced = try connection.internalCachedStatement(request.unplacedSQL)
                try unplaced.bind(request.outlineArguments + request.filterArguments)
                var nodes: [TodoOutline.Node] = []
                try unplaced.forEachRow { nodes.append(Self.node(from: $0)) }
                let byID = try connection.internalCachedStatement("SELECT \(TodoColumns.list) FROM todos WHERE id = ?")
                for place in TodoOutline.places(nodes) {
                    try byID.reset()
                    try byID.bind(place.id, at: 1)
                    try byID.forEachRow { body(Self.row(TodoColumns.todo(from: $0), depth: place.depth)) }
                }
            }
        }
    }

    /// A row of a tree without context rows: a todo below the top is under its parent.
    private static func row(_ todo: Todo, depth: Int) -> TodoOutline.Row {
        TodoOutline.Row(todo: todo, depth: depth, parentID: depth > 0 ? todo.parentID : nil)
    }

    /// ``outline(_:withContext:)`` of todos fetched already, in the order given (a list
    /// reordered by its dependencies, which is held anyway): siblings in that order.
    public func outline(of todos: [Todo], withContext: Bool = true) throws(TodoStoreError) -> TodoOutline {
        guard withContext else { return TodoOutline(todos) }
        var chosen = Set<Int64>()
        chosen.reserveCapacity(todos.count)
        for todo in todos { chosen.insert(todo.id) }
        var context: [Todo] = []
        var contextIDs = Set<Int64>()
        for todo in todos {
            guard let parent = todo.parentID, !chosen.contains(parent), !contextIDs.contains(parent) else { continue }
            for ancestor in try ancestors(of: todo) {
                guard !chosen.contains(ancestor.id), contextIDs.insert(ancestor.id).inserted else { break }
                context.append(ancestor)
            }
        }
        return TodoOutline(todos, context: context)
    }

    /// A ``TodoOutline/Node`` from a row of `id, parent_id, list_id`.
    private static func node(from row: Row) -> TodoOutline.Node {
        TodoOutline.Node(
            id: row.int64(0), parentID: row.isNull(1) ? nil : row.int64(1),
            listID: row.isNull(2) ? TodoList.firstID : row.int64(2))
    }

    /// The ancestors of `nodes` that are not among them, each once, for context rows: walked up
    /// from each node whose parent is not chosen, to the top, a chosen todo, or one met already.
    private func contextNodes(of nodes: [TodoOutline.Node]) throws(SQLiteError) -> [TodoOutline.Node] {
        var seen = Set<Int64>()
        seen.reserveCapacity(nodes.count)
        for node in nodes { seen.insert(node.id) }
        let statement = try connection.internalCachedStatement("SELECT id, parent_id, list_id FROM todos WHERE id = ?")
        var found: [TodoOutline.Node] = []
        for node in nodes {
            var parent = node.parentID
            while let id = parent, seen.insert(id).inserted {
                try statement.reset()
                try statement.bind(id, at: 1)
                var above: TodoOutline.Node?
                try statement.forEachRow { above = Self.node(from: $0) }
                guard let above else { break }
                found.append(above)
                parent = above.parentID
            }
        }
        return found
    }
}
