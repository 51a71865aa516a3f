import Foundation
import TestSupport
import Testing

/// `todo undo`: each kind of change, reverted exactly, ids included, across runs.
@Suite(.timed) struct UndoTests {
    let sandbox = CLISandbox()

    /// The whole todos table as the sqlite3 shell sees it: ids, names, deadlines, done flags.
    private func table() throws -> String {
        try Reliability.sqlite(sandbox.database, "SELECT id, name, deadline, done FROM todos ORDER BY id").stdout
    }

    @Test func undoAfterEachKindOfChangeRestoresThePreviousStateExactly() throws {
        _ = try sandbox.ok("add", "Buy milk", "--due", "2024-05-01")
        _ = try sandbox.ok("add", "Call mum")
        _ = try sandbox.ok("add", "Pay rent", "--due", "2024-04-30")
        let changes: [[String]] = [
            ["add", "Walk the dog", "--due", "2030-01-01"],
            ["done", "1", "3"],
            ["undone", "3"],
            ["edit", "2", "--name", "Call dad", "--due", "2029-12-31"],
            ["edit", "1", "--no-due"],
            ["rm", "1", "2"]
        ]
        var states = [try table()]
        for change in changes {
            _ = try sandbox.ok(change)
            states.append(try table())
            #expect(states[states.count - 1] != states[states.count - 2], "\(change) changed nothing")
        }
        // Walk all the way back, one run of todo per step: the history lives in the file.
        for (change, state) in zip(changes, states.dropLast()).reversed() {
            #expect(try sandbox.ok("undo") == "Undid '\(change[0])'.\n")
            #expect(try table() == state, "undo of \(change)")
        }
        // The three adds of the setup are undoable too; then nothing is left.
        for _ in 0..<3 { _ = try sandbox.ok("undo") }
        #expect(try table() == "")
        let empty = try sandbox.todo("undo")
        #expect(empty.status == 1)
        #expect(empty.stderr == "error: nothing to undo\n")
    }

    @Test func aDeletedTodoComesBackWithItsId() throws {
        for name in ["a", "b", "c"] { _ = try sandbox.ok("add", name) }
        _ = try sandbox.ok("rm", "2")
        _ = try sandbox.ok("undo")
        #expect(try sandbox.listJSON().map { $0["id"] as? Int } == [1, 2, 3])
        #expect(try sandbox.ok("add", "d") == "4\n", "ids are still never reused")
    }

    @Test func undoKeepsAnotherProgramsEditOfOtherFields() throws {
        _ = try sandbox.ok("add", "a")
        _ = try sandbox.ok("done", "1")
        try Reliability.sqlite(sandbox.database, "UPDATE todos SET name = 'renamed elsewhere' WHERE id = 1")
        // The changeset of 'done' holds only the done column: undoing it leaves the rename alone.
        #expect(try sandbox.ok("undo") == "Undid 'done'.\n")
        #expect(try table() == "1|renamed elsewhere||0\n")
    }

    @Test func undoRefusesToOverwriteAnotherProgramsLaterEditOfTheSameField() throws {
        _ = try sandbox.ok("add", "a")
        _ = try sandbox.ok("add", "b")
        _ = try sandbox.ok("edit", "1", "--name", "A")
        try Reliability.sqlite(sandbox.database, "UPDATE todos SET name = 'renamed elsewhere' WHERE id = 1")
        let before = try table()
        let result = try sandbox.todo("undo")
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: cannot undo 'edit': todo 1 changed since"))
        #expect(try table() == before)

        try Reliability.sqlite(sandbox.database, "UPDATE todos SET name = 'A' WHERE id = 1")
        #expect(try sandbox.ok("undo") == "Undid 'edit'.\n", "once the todo is as the edit left it, undo works")
        try Reliability.sqlite(sandbox.database, "DELETE FROM todos WHERE id = 2")
        let deleted = try sandbox.todo("undo")
        #expect(deleted.status == 1, "undoing the add of a todo deleted elsewhere conflicts")
        #expect(deleted.stderr.contains("todo 2"))
    }

    @Test func failedAndNoOpCommandsAreNotRecorded() throws {
        _ = try sandbox.ok("add", "a")
        _ = try sandbox.todo("done", "1", "9")  // fails: nothing changed, nothing recorded
        _ = try sandbox.ok("undone", "1")  // already undone: no change, nothing recorded
        #expect(try sandbox.ok("undo") == "Undid 'add'.\n")
    }

    /// 1,000 steps by default (issue 37: 100 left a bulk change of 143 edits undoable only in
    /// part); TodoStoreTests' UndoDepthTests counts them through the store.
    @Test func theHistoryKeepsTheNewestThousand() throws {
        _ = try sandbox.ok("add", "a")
        let sql = "SELECT count(*) FROM todo_history"
        for round in 0..<3 {
            let statements = (0..<400).map {
                "INSERT INTO todo_history (command, changeset) VALUES ('x\(round)-\($0)', x'00')"
            }
            try Reliability.sqlite(sandbox.database, statements.joined(separator: ";"))
        }
        _ = try sandbox.ok("add", "b")
        #expect(try ProcessRunner.run("sqlite3", [sandbox.database, sql]).stdout == "1000\n")
    }
}
