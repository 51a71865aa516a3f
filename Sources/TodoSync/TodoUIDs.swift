import SQLite
import TodoStore

/// Each todo's iCalendar `UID`: its identity across devices and apps (migration 0005,
/// `todo_uids`). Ids are local numbers; a UID is given once, on a todo's first sync or export,
/// and kept for the todo's life (also by `todo sync forget`), so the same todo is never sent
/// twice as two objects.
///
/// Threading: as the repository it reads through (one thread, queue or actor at a time).
public struct TodoUIDs {
    public let repository: TodoRepository

    public init(repository: TodoRepository) { self.repository = repository }

    /// Whether no todo here ever had a UID (no row at all): then no UID is known, and an import
    /// into the file need not look each one up.
    public func noneGiven() throws(TodoStoreError) -> Bool {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            try repository.connection.internalCachedStatement("SELECT 1 FROM todo_uids LIMIT 1").scalarInt64() == nil
        }
    }

    /// The UID of the todo `id`, or `nil` before it has one.
    public func uid(ofTodo id: Int64) throws(TodoStoreError) -> String? {
        try TodoStoreError.wrap { () throws(SQLiteError) -> String? in
            let statement = try repository.connection.internalCachedStatement(
                "SELECT uid FROM todo_uids WHERE todo_id = ?")
            try statement.bind([id])
            var uid: String?
            try statement.forEachRow { uid = $0.string(0) }
            return uid
        }
    }

    /// Whether any todo here has, or had, a UID: when none has, no todo's needs looking up.
    public func anyGiven() throws(TodoStoreError) -> Bool {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            try repository.connection.internalCachedStatement("SELECT 1 FROM todo_uids LIMIT 1").scalarInt64() != nil
        }
    }

    /// The todo that has `uid`, if it still exists.
    public func todoID(forUID uid: String) throws(TodoStoreError) -> Int64? {
        try TodoStoreError.wrap { () throws(SQLiteError) -> Int64? in
            try repository.connection.internalCachedStatement(
                "SELECT u.todo_id FROM todo_uids u JOIN todos t ON t.id = u.todo_id WHERE u.uid = ?"
            ).scalarInt64([uid])
        }
    }

    /// Whether `uid` belongs to a todo here, or to one deleted here whose deletion a sync has
    /// still to send. (The UID of a todo deleted before it was ever synced, such as one undone
    /// by `todo undo` after an import, or whose deletion was sent, is free again: importing it
    /// anew brings the todo back. Its row stays, so that `todo undo` bringing the todo's row
    /// back brings its identity back too.)
    public func isKnown(_ uid: String) throws(TodoStoreError) -> Bool {
        try knownTodoID(forUID: uid) != nil
    }

    /// Whether `uid` was ever given to a todo here, its todo gone since or not (its row stays):
    /// a link to a UID never given names a todo that has not reached this device.
    public func wasEverGiven(_ uid: String) throws(TodoStoreError) -> Bool {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            try repository.connection.internalCachedStatement("SELECT 1 FROM todo_uids WHERE uid = ?")
                .scalarInt64([uid]) != nil
        }
    }

    /// The id of the todo that has (or had, while its deletion waits to be sent) `uid`, when
    /// ``isKnown(_:)``: what the user knew it as.
    public func knownTodoID(forUID uid: String) throws(TodoStoreError) -> Int64? {
        try TodoStoreError.wrap { () throws(SQLiteError) -> Int64? in
            try repository.connection.internalCachedStatement(
                """
                SELECT u.todo_id FROM todo_uids u WHERE u.uid = ?
                AND (u.todo_id IN (SELECT id FROM todos) OR u.uid IN (SELECT uid FROM sync_items))
                """
            ).scalarInt64([uid])
        }
    }

    /// The id of the todo deleted here that had `uid`, if its row still says so (and no todo
    /// has that id now): the id an object with that UID comes back under.
    public func deletedTodoID(forUID uid: String) throws(TodoStoreError) -> Int64? {
        try TodoStoreError.wrap { () throws(SQLiteError) -> Int64? in
            try repository.connection.internalCachedStatement(
                "SELECT todo_id FROM todo_uids WHERE uid = ? AND todo_id NOT IN (SELECT id FROM todos)"
            ).scalarInt64([uid])
        }
    }

    /// The UIDs of `ids`, giving a new one to each todo that has none; one transaction.
    /// Ids that name no todo are left out.
    public func assign(toTodos ids: [Int64]) throws(TodoStoreError) -> [Int64: String] {
        try TodoStoreError.wrap { () throws(SQLiteError) -> [Int64: String] in
            try repository.connection.transaction(.immediate, mapError: { $0 }) {
                () throws(SQLiteError) -> [Int64: String] in
                let read = try repository.connection.internalCachedStatement(
                    "SELECT t.id, u.uid FROM todos t LEFT JOIN todo_uids u ON u.todo_id = t.id WHERE t.id = ?")
                let insert = try repository.connection.internalCachedStatement(
                    "INSERT INTO todo_uids (todo_id, uid) VALUES (?, ?)")
                var result: [Int64: String] = [:]
                for id in ids where result[id] == nil {
                    try read.reset()
                    try read.bind([id])
                    var found: (exists: Bool, uid: String?) = (false, nil)
                    try read.forEachRow { found = (true, $0.optionalString(1)) }
                    guard found.exists else { continue }
                    if let uid = found.uid {
                        result[id] = uid
                    } else {
                        let uid = Self.newUID()
                        try insert.execute([id, uid])
                        result[id] = uid
                    }
                }
                return result
            }
        }
    }

    /// Records `uid` for the todo `id` (a todo made from an object that already had one). A
    /// row that had either (the UID of a todo deleted here, now re-created) is replaced.
    public func record(_ uid: String, forTodo id: Int64) throws(TodoStoreError) {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            try repository.connection.internalCachedStatement(
                "INSERT OR REPLACE INTO todo_uids (todo_id, uid) VALUES (?, ?)"
            ).execute([id, uid])
        }
    }

    /// Records each UID for its todo, as ``record(_:forTodo:)`` does one, many rows to a
    /// statement (an import records thousands); in the caller's transaction.
    public func record(_ uids: [(uid: String, todo: Int64)]) throws(TodoStoreError) {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            var start = 0
            while start < uids.count {
                let rows = min(Self.rowsAStatement, uids.count - start)
                let sql =
                    "INSERT OR REPLACE INTO todo_uids (todo_id, uid) VALUES "
                    + Array(repeating: "(?, ?)", count: rows).joined(separator: ", ")
                let statement =
                    rows == Self.rowsAStatement
                    ? try repository.connection.internalCachedStatement(sql) : try repository.connection.prepare(sql)
                try statement.reset()
                for (offset, pair) in uids[start..<start + rows].enumerated() {
                    try statement.bind(pair.todo, at: Int32(2 * offset + 1))
                    try statement.bind(pair.uid, at: Int32(2 * offset + 2))
                }
                try statement.step()
                start += rows
            }
        }
    }

    /// The rows of one statement of ``record(_:)``.
    static let rowsAStatement = 500

    /// A new random UID in the form of an RFC 4122 version 4 UUID, lower case, as most CalDAV
    /// clients make them (and safe in a URL path as it is).
    public static func newUID() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }
        return [hex[0..<4], hex[4..<6], hex[6..<8], hex[8..<10], hex[10..<16]].map { $0.joined() }.joined(
            separator: "-")
    }
}
