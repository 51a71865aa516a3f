import SQLite

/// Dependencies: a todo waits for other todos ("blocked by"), as taskwarrior's `depends:` and
/// iCalendar's `RELATED-TO;RELTYPE=DEPENDS-ON` (RFC 9253) say.
///
/// The contract, for every reader and writer (the CLI, imports, sync):
/// - A link says that the todo `id` waits for the todo `waitsFor`, both todos of this file, of
///   any list. A todo waits for each other todo at most once; links have no order (readers
///   give them in id order).
/// - No todo waits for itself, nor for a todo that waits for it, directly or through others:
///   migration 0019's triggers refuse such a link from any program, and the calls here report
///   it as ``TodoStoreError/dependencyCycle(id:waitsFor:)``, the file unchanged.
/// - A todo is *blocked* while it is not done and waits for a todo that is not done (completed
///   and cancelled are done: a cancelled todo blocks nothing). Done todos are never blocked.
/// - A todo's links go when it is deleted, by any program (a trigger); `todo undo` of the
///   deletion brings them back. A link naming a todo that is not there (another program's
///   writing, with the trigger gone) is read as no link.
/// - Every change here is one transaction, and a step of ``recordingUndo(_:_:)`` when made in
///   one: a link is undone with the command that made it.
/// - A link's change puts the waiting todo in the change feed (``TodoChangeFeed``), and so does a
///   change of done of a todo waited for: the todos whose blocked state may have changed.
///
/// Sync maps the links of a todo to one `RELATED-TO;RELTYPE=DEPENDS-ON:<uid>` per todo waited
/// for, and keeps their UIDs as last synced in `sync_items.depends_uids` (migration 0019).
extension TodoRepository {
    /// Makes the todo `id` wait for exactly the todos `waitsFor` (none: for nothing), in one
    /// transaction; all or nothing. Returns the ids it waits for now, in id order.
    ///
    /// - Throws: ``TodoStoreError/notFound(ids:)`` naming every missing todo (`id` or one
    ///   waited for); ``TodoStoreError/dependencyCycle(id:waitsFor:)`` for a link that would
    ///   close a cycle, or one to `id` itself.
    @discardableResult
    public func setDependencies(_ waitsFor: [Int64], of id: Int64) throws(TodoStoreError) -> [Int64] {
        try writeTransaction { () throws(TodoStoreError) in
            _ = try todos(ids: [id] + waitsFor)
            let current = try dependencyIDs(of: id)
            let wanted = Set(waitsFor)
            try removeLinks(current.filter { !wanted.contains($0) }, from: id)
            try addLinks(waitsFor.filter { !current.contains($0) }, to: id)
            return try dependencyIDs(of: id)
        }
    }

    /// Makes the todo `id` wait for the todos `waitsFor` too (a link already there stays as it
    /// is), in one transaction; all or nothing. Returns the ids it waits for now, in id order.
    ///
    /// - Throws: as ``setDependencies(_:of:)``.
    @discardableResult
    public func addDependencies(_ waitsFor: [Int64], to id: Int64) throws(TodoStoreError) -> [Int64] {
        try writeTransaction { () throws(TodoStoreError) in
            _ = try todos(ids: [id] + waitsFor)
            let current = Set(try dependencyIDs(of: id))
            try addLinks(waitsFor.filter { !current.contains($0) }, to: id)
            return try dependencyIDs(of: id)
        }
    }

    /// Makes the todo `id` wait no more for the todos `waitsFor` (one it does not wait for is no
    /// error: the link is gone either way), in one transaction. Returns the ids it waits for now,
    /// in id order.
    ///
    /// - Throws: ``TodoStoreError/notFound(ids:)`` when no todo has the id `id`.
    @discardableResult
    public func removeDependencies(_ waitsFor: [Int64], from id: Int64) throws(TodoStoreError) -> [Int64] {
        try writeTransaction { () throws(TodoStoreError) in
            _ = try todos(ids: [id])
            try removeLinks(waitsFor, from: id)
            return try dependencyIDs(of: id)
        }
    }

    /// The ids of the todos that the todo `id` waits for, done or not, in id order (none for a
    /// todo that waits for nothing, or that is not there).
    public func dependencyIDs(of id: Int64) throws(TodoStoreError) -> [Int64] {
        try linkedIDs(
            """
            SELECT d.depends_on FROM dependencies d JOIN todos t ON t.id = d.depends_on
            WHERE d.todo_id = ? ORDER BY d.depends_on
            """, id)
    }

    /// The ids of the todos that wait for the todo `id` (those it blocks while it is not done),
    /// done or not, in id order.
    public func dependentIDs(of id: Int64) throws(TodoStoreError) -> [Int64] {
        try linkedIDs(
            """
            SELECT d.todo_id FROM dependencies d JOIN todos t ON t.id = d.todo_id
            WHERE d.depends_on = ? ORDER BY d.todo_id
            """, id)
    }

    /// Every link of the file, by waiting todo: the ids each todo waits for, done or not, in id
    /// order; a todo that waits for nothing is absent. O(links), for writing each todo's
    /// `depends` (JSON) and for ordering a list.
    public func dependencyIDsByTodo() throws(TodoStoreError) -> [Int64: [Int64]] {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            let statement = try connection.internalCachedStatement(
                """
                SELECT d.todo_id, d.depends_on FROM dependencies d
                JOIN todos t ON t.id = d.todo_id JOIN todos w ON w.id = d.depends_on
                ORDER BY d.todo_id, d.depends_on
                """)
            var found: [Int64: [Int64]] = [:]
            try statement.forEachRow { found[$0.int64(0), default: []].append($0.int64(1)) }
            return found
        }
    }

    /// Every blocked todo (see the contract above), with the ids of the todos not done that it
    /// waits for, in id order: what a list row says (`waits for 3`). O(links).
    public func blockers() throws(TodoStoreError) -> [Int64: [Int64]] {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            let statement = try connection.internalCachedStatement(
                """
                SELECT d.todo_id, d.depends_on FROM dependencies d
                JOIN todos t ON t.id = d.todo_id JOIN todos w ON w.id = d.depends_on
                WHERE \(TodoFetchRequest.blocks(waiting: "t", waitedFor: "w")) ORDER BY d.todo_id, d.depends_on
                """)
            var found: [Int64: [Int64]] = [:]
            try statement.forEachRow { found[$0.int64(0), default: []].append($0.int64(1)) }
            return found
        }
    }

    /// Whether the todo `id` is blocked: not done, and waiting for a todo not done.
    public func isBlocked(_ id: Int64) throws(TodoStoreError) -> Bool {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            let statement = try connection.internalCachedStatement(
                "SELECT 1 FROM todos t WHERE t.id = ? AND \(TodoFetchRequest.blockedCondition(of: "t"))")
            return try statement.scalarInt64([id]) != nil
        }
    }

    /// Whether any todo of the file waits for another (stored so, whether or not both are
    /// there): whether a list needs the links at all. One look at a table that holds links only.
    public func hasDependencies() throws(TodoStoreError) -> Bool {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            try connection.internalCachedStatement("SELECT 1 FROM dependencies LIMIT 1").scalarInt64() != nil
        }
    }

    /// `todos` reordered so that a todo comes after the todos of `todos` it waits for (`links`,
    /// as ``dependencyIDsByTodo()`` gives them), and otherwise in the order given: a stable
    /// topological order. Each todo is placed at the first place where every todo of the list
    /// it waits for is already placed, the earliest in the given order first; links to todos not
    /// in `todos` are ignored. Should the links hold a cycle (a file whose triggers another
    /// program dropped), the todos left are placed at the end in the given order: none is lost
    /// and the pass ends. O(n + links · log links).
    public static func orderedByDependencies(_ todos: [Todo], links: [Int64: [Int64]]) -> [Todo] {
        guard !links.isEmpty else { return todos }
        var offsets: [Int64: Int] = [:]
        offsets.reserveCapacity(todos.count)
        for (offset, todo) in todos.enumerated() { offsets[todo.id] = offset }
        // For each todo, how many todos of the list it still waits for; for each, who waits for it.
        var waiting = [Int](repeating: 0, count: todos.count)
        // Whether a todo waits for one of the list at all: such a todo is placed when released.
        var waits = [Bool](repeating: false, count: todos.count)
        var waiters: [Int: [Int]] = [:]
        for (id, prerequisites) in links {
            guard let offset = offsets[id] else { continue }
            for prerequisite in Set(prerequisites) {
                guard let before = offsets[prerequisite], before != offset else { continue }
                waiting[offset] += 1
                waits[offset] = true
                waiters[before, default: []].append(offset)
            }
        }
        guard !waiters.isEmpty else { return todos }
        var ordered: [Todo] = []
        ordered.reserveCapacity(todos.count)
        var placed = [Bool](repeating: false, count: todos.count)
        // The todos whose last prerequisite was placed, by their offset: a min-heap.
        var released = MinHeap()
        var next = 0
        while ordered.count < todos.count {
            while next < todos.count && (placed[next] || waits[next]) { next += 1 }
            let offset: Int
            if let first = released.peek, next >= todos.count || first < next {
                offset = first
                released.removeFirst()
            } else if next < todos.count {
                offset = next
            } else {
                // A cycle: what is left goes at the end, in the given order.
                for (offset, todo) in todos.enumerated() where !placed[offset] { ordered.append(todo) }
                break
            }
            placed[offset] = true
            ordered.append(todos[offset])
            for waiter in waiters[offset] ?? [] {
                waiting[waiter] -= 1
                if waiting[waiter] == 0 { released.push(waiter) }
            }
        }
        return ordered
    }

    /// The ids one statement of `sql` gives for `id`.
    private func linkedIDs(_ sql: String, _ id: Int64) throws(TodoStoreError) -> [Int64] {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            let statement = try connection.internalCachedStatement(sql)
            try statement.bind([id])
            var found: [Int64] = []
            try statement.forEachRow { found.append($0.int64(0)) }
            return found
        }
    }

    /// Inserts each link of `id` to `waitsFor`, each once; a trigger's refusal (migration 0019:
    /// the only one on this table's inserts) is the cycle it names.
    private func addLinks(_ waitsFor: [Int64], to id: Int64) throws(TodoStoreError) {
        var seen = Set<Int64>()
        for other in waitsFor where seen.insert(other).inserted {
            do throws(SQLiteError) {
                let statement = try connection.internalCachedStatement(
                    "INSERT INTO dependencies (todo_id, depends_on) VALUES (?, ?)")
                try statement.bind([id, other])
                try statement.step()
            } catch  where error.isRaisedByTrigger {
                throw .dependencyCycle(id: id, waitsFor: other)
            } catch {
                throw .sqlite(error)
            }
        }
    }

    private func removeLinks(_ waitsFor: [Int64], from id: Int64) throws(TodoStoreError) {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            let statement = try connection.internalCachedStatement(
                "DELETE FROM dependencies WHERE todo_id = ? AND depends_on = ?")
            for other in waitsFor {
                try statement.bind([id, other])
                try statement.step()
            }
        }
    }
}

extension TodoFetchRequest {
    /// The rule of a link that blocks (``TodoRepository``'s dependency contract) as SQL: the
    /// waiting todo (the row `waiting` names) is not done, nor is the todo it waits for (the row
    /// `waitedFor`). The one form of the rule, for the filters, ``TodoRepository/blockers()`` and
    /// ``TodoRepository/isBlocked(_:)``.
    static func blocks(waiting: String, waitedFor: String) -> String {
        "\(waiting).done = 0 AND \(waitedFor).done = 0"
    }

    /// The WHERE term of a blocked todo of the row `table` names: one of its links blocks.
    static func blockedCondition(of table: String) -> String {
        """
        EXISTS (SELECT 1 FROM dependencies d JOIN todos w ON w.id = d.depends_on \
        WHERE d.todo_id = \(table).id AND \(blocks(waiting: table, waitedFor: "w")))
        """
    }
}

/// A min-heap of offsets, for ``TodoRepository/orderedByDependencies(_:links:)``.
private struct MinHeap {
    private var items: [Int] = []

    var peek: Int? { items.first }

    mutating func push(_ item: Int) {
        items.append(item)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[child] < items[parent] else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes the smallest offset, ``peek``, when there is one.
    mutating func removeFirst() {
        guard let last = items.popLast() else { return }
        guard !items.isEmpty else { return }
        items[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < items.count && items[left] < items[smallest] { smallest = left }
            if right < items.count && items[right] < items[smallest] { smallest = right }
            guard smallest != parent else { break }
            items.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
