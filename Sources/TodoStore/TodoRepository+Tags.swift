import SQLite

/// A tag and how many todos carry it (`todo tags`).
public struct TagCount: Sendable, Equatable {
    /// The tag as its first todo (by id) writes it.
    public var tag: TodoTag
    public var undone: Int
    public var done: Int
}

extension TodoRepository {
    /// Every tag of the list with its counts of undone and done todos: the most used first,
    /// then by folded word. Tags are one per folded word: `+Work` on one todo and `@work` on
    /// another count as one, written as the todo with the lowest id writes it. O(todos with tags).
    public func tagCounts() throws(TodoStoreError) -> [TagCount] {
        try TodoStoreError.wrap { () throws(SQLiteError) -> [TagCount] in
            let statement = try connection.internalCachedStatement(
                "SELECT tags, done FROM todos WHERE tags <> '' ORDER BY id")
            var counts: [String: TagCount] = [:]
            try statement.forEachRow { row in
                let done = row.bool(1)
                for tag in TodoTags(storage: row.string(0)) {
                    var count = counts[tag.folded] ?? TagCount(tag: tag, undone: 0, done: 0)
                    if done { count.done += 1 } else { count.undone += 1 }
                    counts[tag.folded] = count
                }
            }
            return counts.values.sorted {
                ($0.undone + $0.done, $1.tag.folded) > ($1.undone + $1.done, $0.tag.folded)
            }
        }
    }
}
