import Foundation
import SQLite
import TestSupport
import Testing
import TodoStore

/// The change feed (migration 0004): triggers record every changed todo id, whoever writes.
@Suite(.timed) struct ChangeFeedTests {
    let folder = TemporaryFolder()

    @Test func everyWriterIsRecordedAndAReaderSeesOnlyWhatCameAfterIt() throws {
        let path = folder.file("todo.sqlite")
        let repository = try TodoRepository(path: path)
        let start = try repository.feedPosition()
        let milk = try repository.add(name: "Buy milk")
        let rent = try repository.add(name: "Pay rent")
        let afterAdds = try repository.feedPosition()
        #expect(
            try repository.changedTodos(since: start, limit: 10)
                == .changed(ids: [milk.id, rent.id], position: afterAdds))

        // The sqlite3 shell and Python write without our code: the triggers still record them.
        let shell = try ProcessRunner.run(
            "sqlite3",
            [path, "UPDATE todos SET done = 1 WHERE id = \(milk.id); INSERT INTO todos(name) VALUES ('from the shell')"]
        )
        #expect(shell.status == 0, "\(shell.stderr)")
        let python = try ProcessRunner.run(
            "python3",
            [
                "-c",
                "import sqlite3; c = sqlite3.connect('\(path)'); c.execute('DELETE FROM todos WHERE id = \(rent.id)'); c.commit()"
            ])
        #expect(python.status == 0, "\(python.stderr)")
        guard case .changed(let ids, let position) = try repository.changedTodos(since: afterAdds, limit: 10) else {
            Issue.record("expected the changed ids")
            return
        }
        #expect(ids == [milk.id, rent.id, 3])
        #expect(position == (try repository.feedPosition()))
        #expect(try repository.changedTodos(since: position, limit: 10) == .changed(ids: [], position: position))
        // A plain insert still works: the table keeps its documented shape.
        #expect(try repository.todo(id: 3)?.name == "from the shell")
    }

    @Test func anUpdateThatChangesTheIdRecordsBothIds() throws {
        let repository = try TodoRepository(path: folder.file("todo.sqlite"))
        _ = try repository.add(name: "x")
        let before = try repository.feedPosition()
        try repository.connection.execute("UPDATE todos SET id = 40 WHERE id = 1")
        guard case .changed(let ids, _) = try repository.changedTodos(since: before, limit: 10) else {
            Issue.record("expected the changed ids")
            return
        }
        #expect(ids == [1, 40])
    }

    @Test func moreThanTheLimitOrAPrunedFeedAsksForAFullRead() throws {
        let repository = try TodoRepository(path: folder.file("todo.sqlite"))
        let start = try repository.feedPosition()
        try repository.connection.transaction {
            for index in 0..<20 { _ = try repository.add(name: "todo \(index)") }
        }
        #expect(
            try repository.changedTodos(since: start, limit: 5) == .tooMuch(position: try repository.feedPosition()))
        // 12,000 more changes: the feed keeps about the newest 10,000, so `start` fell off it.
        try repository.connection.execute(
            """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 12000)
            INSERT INTO todos(name) SELECT 'bulk ' || i FROM n
            """)
        let kept =
            try repository.connection.internalCachedStatement("SELECT count(*) FROM todo_changes").scalarInt64() ?? 0
        #expect(kept >= 9_000 && kept <= 11_000, "\(kept) feed entries kept")
        let end = try repository.feedPosition()
        #expect(try repository.changedTodos(since: start, limit: 100_000) == .tooMuch(position: end))
        // A reader that is up to date is not affected by pruning.
        _ = try repository.add(name: "one more")
        #expect(
            try repository.changedTodos(since: end, limit: 10)
                == .changed(ids: [12_021], position: try repository.feedPosition()))
    }

    @Test func undoAndRedoAreRecordedToo() throws {
        let repository = try TodoRepository(path: folder.file("todo.sqlite"))
        let todo = try repository.recordingUndo("add") { () throws(TodoStoreError) in try repository.add(name: "x") }
        let before = try repository.feedPosition()
        _ = try repository.undo()
        guard case .changed(let ids, let position) = try repository.changedTodos(since: before, limit: 10) else {
            Issue.record("expected the changed ids")
            return
        }
        #expect(ids == [todo.id])
        _ = try repository.redo()
        guard case .changed(let again, _) = try repository.changedTodos(since: position, limit: 10) else {
            Issue.record("expected the changed ids")
            return
        }
        #expect(again == [todo.id])
    }
}
