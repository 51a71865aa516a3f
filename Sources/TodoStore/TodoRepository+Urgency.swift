import SQLite

extension TodoRepository {
    /// The todos `request` selects (its order, limit and offset aside), ranked by urgency
    /// (``TodoUrgency``), the most urgent first, each with its score: at most `limit` of them
    /// (`nil`: all), and how many the request selects in all. What `todo next` shows.
    ///
    /// Reads the selected todos once, and the links once (O(links), nothing in a file without
    /// dependencies); scores each in memory and keeps the `limit` best. O(n log limit).
    public func rankedByUrgency(
        _ request: TodoFetchRequest, today: CalendarDate, now: UTCTimestamp, limit: Int? = nil
    ) throws(TodoStoreError) -> (ranked: [(todo: Todo, urgency: Double)], total: Int) {
        var request = request
        request.limit = nil
        request.offset = 0
        let links = try hasDependencies() ? try urgencyLinks() : (blocking: [], blocked: [])
        var best = BoundedRanking(limit: limit ?? Int.max)
        var total = 0
        try forEach(request) { todo in
            total += 1
            let facts = TodoUrgency.Links(
                isBlocking: links.blocking.contains(todo.id), isBlocked: links.blocked.contains(todo.id))
            best.insert((todo, TodoUrgency.score(of: todo.fields, links: facts, today: today, now: now)))
        }
        return (best.sorted(), total)
    }

    /// The todos not done that a todo not done waits for (blocking), and those that wait for a
    /// todo not done (blocked): the dependency contract's rule (`TodoFetchRequest.blocks`).
    private func urgencyLinks() throws(TodoStoreError) -> (blocking: Set<Int64>, blocked: Set<Int64>) {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            let statement = try connection.internalCachedStatement(
                """
                SELECT d.todo_id, d.depends_on FROM dependencies d
                JOIN todos t ON t.id = d.todo_id JOIN todos w ON w.id = d.depends_on
                WHERE \(TodoFetchRequest.blocks(waiting: "t", waitedFor: "w"))
                """)
            var blocking = Set<Int64>()
            var blocked = Set<Int64>()
            try statement.forEachRow { row in
                blocked.insert(row.int64(0))
                blocking.insert(row.int64(1))
            }
            return (blocking, blocked)
        }
    }
}

/// The `limit` most urgent of the todos inserted, in ``TodoUrgency/ranksBefore(_:_:)``'s order:
/// a min-heap whose root is the least urgent kept, so each todo costs O(log limit) and memory
/// stays O(limit) however many are read.
private struct BoundedRanking {
    typealias Entry = (todo: Todo, urgency: Double)
    let limit: Int
    private var heap: [Entry] = []

    init(limit: Int) { self.limit = max(limit, 0) }

    /// Whether `a` ranks after `b`: the heap keeps the one ranking last at its root.
    private static func ranksAfter(_ a: Entry, _ b: Entry) -> Bool { TodoUrgency.ranksBefore(b, a) }

    mutating func insert(_ entry: Entry) {
        guard limit > 0 else { return }
        if heap.count < limit {
            heap.append(entry)
            siftUp(heap.count - 1)
        } else if let root = heap.first, TodoUrgency.ranksBefore(entry, root) {
            heap[0] = entry
            siftDown(0)
        }
    }

    /// The entries kept, the most urgent first.
    func sorted() -> [Entry] { heap.sorted(by: TodoUrgency.ranksBefore) }

    private mutating func siftUp(_ index: Int) {
        var child = index
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.ranksAfter(heap[child], heap[parent]) else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ index: Int) {
        var parent = index
        while true {
            var last = parent
            for child in [2 * parent + 1, 2 * parent + 2]
            where child < heap.count && Self.ranksAfter(heap[child], heap[last]) {
                last = child
            }
            guard last != parent else { return }
            heap.swapAt(parent, last)
            parent = last
        }
    }
}
