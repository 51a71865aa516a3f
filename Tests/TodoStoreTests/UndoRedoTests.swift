import SQLite
import TestSupport
import Testing
import TodoStore

/// Undo, redo and the ways past a step that cannot be undone.
@Suite(.timed) struct UndoRedoTests {
    let folder = TemporaryFolder()

    private func makeRepository() throws -> TodoRepository {
        try TodoRepository(path: folder.file("todos.sqlite"))
    }

    private func names(_ repository: TodoRepository) throws -> [String] {
        try repository.fetch(TodoFetchRequest(order: .name)).map { $0.name + ($0.isDone ? "✓" : "") }
    }

    private func add(_ name: String, _ repository: TodoRepository) throws -> Todo {
        try repository.recordingUndo("add") { () throws(TodoStoreError) in try repository.add(name: name) }
    }

    @Test func redoReappliesWhatUndoRevertedUntilTheNextChange() throws {
        let repository = try makeRepository()
        let a = try add("a", repository)
        _ = try repository.recordingUndo("done") { () throws(TodoStoreError) in
            try repository.setDone(true, ids: [a.id])
        }
        #expect(try names(repository) == ["a✓"])

        #expect(try repository.undo() == UndoneCommand(command: "done", remaining: 1))
        #expect(try names(repository) == ["a"])
        #expect(try repository.undo() == UndoneCommand(command: "add", remaining: 0))
        #expect(try names(repository) == [])

        #expect(try repository.redo() == UndoneCommand(command: "add", remaining: 1))
        #expect(try names(repository) == ["a"])
        #expect(try repository.todo(id: a.id)?.name == "a")  // the same id comes back
        #expect(try repository.redo() == UndoneCommand(command: "done", remaining: 0))
        #expect(try names(repository) == ["a✓"])
        #expect(throws: TodoStoreError.nothingToRedo) { try repository.redo() }

        // Redone steps can be undone again, and a new change ends redo.
        #expect(try repository.undo().command == "done")
        _ = try add("b", repository)
        #expect(throws: TodoStoreError.nothingToRedo) { try repository.redo() }
        #expect(try names(repository) == ["a", "b"])
    }

    @Test func aStuckUndoCanBeSkippedAndOlderStepsUndone() throws {
        let repository = try makeRepository()
        let a = try add("a", repository)
        let b = try add("b", repository)
        // Another program deletes b: undoing its add would conflict, for ever.
        try repository.connection.execute("DELETE FROM todos WHERE id = ?", [b.id])
        #expect(throws: TodoStoreError.undoConflict(command: "add", ids: [b.id])) { try repository.undo() }
        #expect(throws: TodoStoreError.undoConflict(command: "add", ids: [b.id])) { try repository.undo() }

        #expect(try repository.skipUndo() == UndoneCommand(command: "add", remaining: 1))
        #expect(try names(repository) == ["a"])  // skipping changed no todo
        #expect(try repository.undo().command == "add")  // the older step is reachable
        #expect(try repository.todo(id: a.id) == nil)
        #expect(throws: TodoStoreError.nothingToUndo) { try repository.skipUndo() }
    }

    /// A step that would undo cleanly is not skipped (and nothing changes) unless forced: a
    /// skip is for a stuck step, and a skipped step is lost.
    @Test func onlyAStuckStepIsSkippedUnlessForced() throws {
        let repository = try makeRepository()
        _ = try add("a", repository)
        let b = try add("b", repository)
        #expect(throws: TodoStoreError.undoNotStuck(command: "add")) { try repository.skipUndo() }
        #expect(try names(repository) == ["a", "b"])
        #expect(try repository.todo(id: b.id)?.name == "b")
        #expect(try repository.skipUndo(force: true) == UndoneCommand(command: "add", remaining: 1))
        #expect(try names(repository) == ["a", "b"])  // forgotten, not reverted
        #expect(try repository.undo().command == "add")
        #expect(try names(repository) == ["b"])
    }

    @Test func damagedEntriesAreReportedAsDamagedAndCanBeSkipped() throws {
        let repository = try makeRepository()
        _ = try add("a", repository)
        for bytes in [[UInt8](), [0x54, 0x00, 0x01, 0xFF, 0x13], Array("not a changeset".utf8)] {
            try repository.connection.execute(
                "INSERT INTO todo_history (command, changeset) VALUES ('edit', ?)",
                [Changeset(bytes: bytes)])
            #expect(throws: TodoStoreError.damagedHistory(command: "edit")) { try repository.undo() }
            #expect(try names(repository) == ["a"])
            #expect(try repository.skipUndo().command == "edit")
        }
        #expect(try repository.undo().command == "add")
        #expect(try names(repository) == [])
    }

    @Test func aConflictingRedoChangesNothing() throws {
        let repository = try makeRepository()
        let a = try add("a", repository)
        _ = try repository.recordingUndo("edit") { () throws(TodoStoreError) in try repository.rename(id: a.id, to: "A")
        }
        _ = try repository.undo()
        try repository.connection.execute("UPDATE todos SET name = 'other' WHERE id = ?", [a.id])
        #expect(throws: TodoStoreError.redoConflict(command: "edit", ids: [a.id])) { try repository.redo() }
        #expect(try names(repository) == ["other"])
    }
}

/// Stored changesets are checked before SQLite reads them: SQLite's reader never returns on
/// some malformed bytes, which would hang `todo undo` on a damaged history entry.
@Suite(.timed) struct ChangesetValidationTests {
    let folder = TemporaryFolder()

    @Test func mutatedChangesetsAreRefusedOrApplyWithoutHanging() throws {
        let repository = try TodoRepository(path: folder.file("todos.sqlite"))
        let todo = try repository.add(name: "a", deadline: CalendarDate("2024-05-01"))
        let session = try Session(connection: repository.connection, table: "todos")
        _ = try repository.rename(id: todo.id, to: "renamed")
        _ = try repository.add(name: "b")
        _ = try repository.delete(ids: [todo.id])
        let real = try session.changeset()
        #expect(real.isWellFormed(table: "todos", columnCount: TodoColumns.count))
        #expect(!real.isWellFormed(table: "other", columnCount: TodoColumns.count))
        #expect(!Changeset(bytes: []).isWellFormed(table: "todos", columnCount: TodoColumns.count))

        var generator = SeededGenerator(seed: 0x5EED_C4A7)
        var refused = 0
        var checked = 0
        for _ in 0..<2_000 {
            var bytes = real.bytes
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                switch Int.random(in: 0..<3, using: &generator) {
                case 0:
                    bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(
                        in: 0...255, using: &generator)
                case 1: bytes.removeLast(Int.random(in: 0..<min(8, bytes.count), using: &generator))
                default:
                    bytes.insert(
                        UInt8.random(in: 0...255, using: &generator),
                        at: Int.random(in: 0...bytes.count, using: &generator))
                }
                if bytes.isEmpty { break }
            }
            let changeset = Changeset(bytes: bytes)
            guard changeset.isWellFormed(table: "todos", columnCount: TodoColumns.count) else {
                refused += 1
                continue
            }
            checked += 1
            // Well formed: SQLite may apply it or refuse it, but must return. Rolled back.
            struct Undo: Error {}
            _ = try? repository.connection.transaction { () throws -> Void in
                _ = try? repository.connection.apply(changeset)
                throw Undo()
            }
        }
        #expect(refused > 0)
        #expect(checked > 0)
        #expect(try repository.fetch().map(\.name) == ["b"])
    }
}
