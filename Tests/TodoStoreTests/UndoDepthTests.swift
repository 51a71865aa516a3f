import SQLite
import TestSupport
import Testing

@testable import TodoStore

/// Issue 37, point 4: undo keeps 1,000 steps by default (it kept 100, and a bulk change of 143
/// edits made one at a time could be undone only in part), at a bounded cost: forgetting the
/// oldest step is a range of the rowid (O(steps forgotten)), and a step is the size of what it
/// changed, whatever the size of the file. `scripts/bench --only bulk` times `todo add` with a
/// full history against an empty one.
@Suite(.timed) struct UndoDepthTests {
    let folder = TemporaryFolder()

    private func count(_ table: String, _ repository: TodoRepository) throws -> Int64 {
        try repository.connection.prepare("SELECT count(*) FROM \(table)").scalarInt64() ?? 0
    }

    private func oldestStep(_ repository: TodoRepository) throws -> Int64? {
        try repository.connection.prepare("SELECT min(id) FROM todo_history").scalarInt64()
    }

    private func add(_ name: String, _ repository: TodoRepository) throws {
        _ = try repository.recordingUndo("add") { () throws(TodoStoreError) in try repository.add(name: name) }
    }

    @Test func aThousandStepsAreKeptAndTheThousandAndFirstForgetsOnlyTheOldest() throws {
        let repository = try TodoRepository(path: folder.file("todos.sqlite"))
        #expect(repository.undoDepth == 1000)
        for index in 1...1000 { try add("todo \(index)", repository) }
        #expect(try count("todo_history", repository) == 1000)
        #expect(try oldestStep(repository) == 1)
        try add("todo 1001", repository)
        #expect(try count("todo_history", repository) == 1000)
        #expect(try oldestStep(repository) == 2, "one step forgotten: the oldest")
        // Every kept step undoes, newest first; the add of todo 1 was forgotten, so it stays.
        for remaining in (0..<1000).reversed() {
            #expect(try repository.undo().remaining == remaining)
        }
        #expect(throws: TodoStoreError.nothingToUndo) { try repository.undo() }
        #expect(try repository.fetch().map(\.name) == ["todo 1"])
        // The redo stack keeps as many, and is as contiguous.
        #expect(try count("todo_redo", repository) == 1000)
        #expect(try repository.redo().remaining == 999)
    }

    /// Undo, redo and skip take steps off the top; a new step goes on top of the newest left, so
    /// a stack's ids stay contiguous and the depth counts steps, not ids.
    @Test func aSmallerDepthKeepsThatManyStepsThroughUndoRedoAndSkip() throws {
        let repository = try TodoRepository(path: folder.file("todos.sqlite"))
        repository.undoDepth = 5
        for index in 1...8 { try add("todo \(index)", repository) }
        #expect(try count("todo_history", repository) == 5)
        _ = try repository.undo()
        _ = try repository.undo()
        _ = try repository.redo()
        try add("todo 9", repository)
        try add("todo 10", repository)
        #expect(try count("todo_history", repository) == 5)
        try repository.connection.execute("DELETE FROM todos WHERE name = 'todo 10'")  // stuck: skip it
        _ = try repository.skipUndo()
        try add("todo 11", repository)
        #expect(try count("todo_history", repository) == 5)
        let ids = try repository.connection.prepare("SELECT group_concat(id) FROM todo_history ORDER BY id")
        var text = ""
        try ids.forEachRow { text = $0.string(0) }
        #expect(text.split(separator: ",").compactMap { Int($0) }.sorted() == [5, 6, 7, 8, 9])
        // A depth lowered later forgets the extra steps on the next change, at once.
        repository.undoDepth = 2
        try add("todo 12", repository)
        #expect(try count("todo_history", repository) == 2)
    }

    /// Forgetting is a search of the rowid, never a scan of the history; a step records only the
    /// rows its command changed, so it is as small in a file of thousands of todos as in one of ten.
    @Test func forgettingIsARangeOfTheRowidAndAStepIsTheSizeOfItsChange() throws {
        let repository = try TodoRepository(path: folder.file("todos.sqlite"))
        for stack in [TodoRepository.Stack.undo, .redo] {
            var plan: [String] = []
            try repository.connection.prepare("EXPLAIN QUERY PLAN " + stack.trimSQL).forEachRow {
                plan.append($0.string(3))
            }
            #expect(plan == ["SEARCH \(stack.table) USING INTEGER PRIMARY KEY (rowid<?)"], "\(plan)")
        }
        for index in 1...10 { try add("todo \(index)", repository) }
        func lastStepSize() throws -> Int64? {
            try repository.connection.prepare(
                "SELECT length(changeset) FROM todo_history ORDER BY id DESC LIMIT 1"
            ).scalarInt64()
        }
        _ = try repository.recordingUndo("edit") { () throws(TodoStoreError) in
            try repository.rename(id: 3, to: "renamed")
        }
        let small = try lastStepSize()
        try repository.connection.execute(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000) INSERT INTO todos (name) SELECT 'bulk ' || i FROM n"
        )
        _ = try repository.recordingUndo("edit") { () throws(TodoStoreError) in
            try repository.rename(id: 4, to: "renamed")
        }
        #expect(try lastStepSize() == small)
    }
}
