import Foundation
import SQLite
import TestSupport
import Testing

@testable import TodoStore

/// Subtasks in the store (issue 36): a todo under another, at any depth, never in a loop from
/// any program; subtrees moved, completed and deleted whole, in one undo step; the tree read
/// by one rule (``TodoOutline``) whatever the file holds.
@Suite(.timed) struct SubtaskTests {
    let folder = TemporaryFolder()

    private func makeRepository() throws -> TodoRepository {
        try TodoRepository(path: folder.file("todos.sqlite"))
    }

    /// `Weekend groceries` with Milk, Oat milk and Eggs under it, and Sourdough bread under Milk;
    /// `Pay rent` beside it. Ids 1 to 6.
    private func groceries(_ repository: TodoRepository) throws {
        let parent = try repository.add(
            TodoFields(name: "Weekend groceries", deadline: CalendarDate(year: 2026, month: 11, day: 28)))
        for name in ["Milk", "Oat milk", "Eggs"] { try repository.add(TodoFields(name: name), parent: parent.id) }
        try repository.add(TodoFields(name: "Sourdough bread"), parent: 2)
        try repository.add(TodoFields(name: "Pay rent", deadline: CalendarDate(year: 2026, month: 11, day: 20)))
    }

    /// `id@depth` of every row of the outline of the whole file, in the default order.
    private func outline(_ repository: TodoRepository, _ request: TodoFetchRequest = TodoFetchRequest()) throws
        -> [String]
    {
        try repository.outline(request).rows.map { "\($0.todo.id)@\($0.depth)\($0.isContext ? "c" : "")" }
    }

    @Test func subtasksAreListedUnderTheirParentsAtAnyDepth() throws {
        let repository = try makeRepository()
        try groceries(repository)
        #expect(try repository.hasSubtasks())
        #expect(try outline(repository) == ["6@0", "1@0", "2@1", "5@2", "3@1", "4@1"])
        #expect(try repository.subtasks(of: 1).map(\.id) == [2, 3, 4])
        #expect(try repository.subtaskIDs(of: [1]) == [2, 3, 4, 5])
        #expect(try repository.ancestors(of: try #require(try repository.todo(id: 5))).map(\.id) == [2, 1])
        #expect(try repository.subtaskIDsByParent() == [1: [2, 3, 4], 2: [5]])
        // A search that finds a subtask shows its parents above it, as context.
        var milk = TodoFetchRequest()
        milk.search = "sourdough"
        #expect(try outline(repository, milk) == ["1@0c", "2@1c", "5@2"])
        #expect(try repository.outline(milk, withContext: false).rows.map(\.todo.id) == [5])
    }

    @Test func aLoopIsRefusedFromTheStoreAndFromAnotherProgram() throws {
        let repository = try makeRepository()
        try groceries(repository)
        #expect(throws: TodoStoreError.subtaskCycle(id: 1, parent: 5)) { try repository.setParent(5, ids: [1]) }
        #expect(throws: TodoStoreError.subtaskCycle(id: 2, parent: 2)) { try repository.setParent(2, ids: [2]) }
        #expect(throws: TodoStoreError.notFound(ids: [99])) { try repository.setParent(99, ids: [2]) }
        #expect(throws: TodoStoreError.notFound(ids: [99])) { try repository.add(TodoFields(name: "x"), parent: 99) }
        // The sqlite3 shell: the schema's trigger refuses, with words that say why.
        let shell = try ProcessRunner.run(
            "sqlite3", [folder.file("todos.sqlite"), "UPDATE todos SET parent_id = 5 WHERE id = 1"])
        #expect(
            shell.status != 0 && shell.stderr.contains("a todo cannot be a subtask of itself or of its own subtask"))
        let insert = try ProcessRunner.run(
            "sqlite3", [folder.file("todos.sqlite"), "INSERT INTO todos (id, name, parent_id) VALUES (40, 'x', 40)"])
        #expect(insert.status != 0)
        #expect(try outline(repository) == ["6@0", "1@0", "2@1", "5@2", "3@1", "4@1"], "nothing changed")
        // Moving a branch elsewhere in the tree is no loop.
        try repository.setParent(4, ids: [2])
        #expect(try outline(repository) == ["6@0", "1@0", "3@1", "4@1", "2@2", "5@3"])
        try repository.setParent(nil, ids: [2])
        #expect(try outline(repository) == ["6@0", "1@0", "3@1", "4@1", "2@0", "5@1"])
    }

    @Test func aSubtreeIsDeletedWholeAndComesBackInOneUndo() throws {
        let repository = try makeRepository()
        try groceries(repository)
        let deleted = try repository.recordingUndo("rm") { () throws(TodoStoreError) in
            try repository.deleteSubtrees(ids: [2])
        }
        #expect(deleted.map(\.id) == [2, 5])
        #expect(try outline(repository) == ["6@0", "1@0", "3@1", "4@1"])
        _ = try repository.undo()
        #expect(try outline(repository) == ["6@0", "1@0", "2@1", "5@2", "3@1", "4@1"])
        #expect(throws: TodoStoreError.notFound(ids: [77])) { try repository.deleteSubtrees(ids: [1, 77]) }
        #expect(try repository.count() == 6)
    }

    @Test func completingASubtreeLeavesDoneSubtasksAsTheyWere() throws {
        let repository = try makeRepository()
        try groceries(repository)
        let earlier = UTCTimestamp(secondsSince1970: 1_700_000_000)
        let now = UTCTimestamp(secondsSince1970: 1_800_000_000)
        _ = try repository.setDone(true, ids: [3], now: earlier)
        let changed = try repository.recordingUndo("done") { () throws(TodoStoreError) in
            try repository.setStatus(.completed, subtreesOf: [1], now: now)
        }
        #expect(changed.map(\.id) == [1, 2, 4, 5])
        #expect(try repository.todo(id: 3)?.completed == earlier)
        #expect(try repository.fetch().allSatisfy { $0.id == 6 || $0.isDone })
        _ = try repository.undo()
        #expect(try repository.fetch().filter(\.isDone).map(\.id) == [3])
    }

    @Test func aSubtreeMovesWithItsParentAndASubtaskAloneGoesToTheTop() throws {
        let repository = try makeRepository()
        try groceries(repository)
        let work = try repository.createList(named: "Work")
        #expect(try repository.moveSubtrees(ids: [2], to: work.id).map(\.id) == [2, 5])
        let moved = try #require(try repository.todo(id: 2))
        #expect(moved.listID == work.id && moved.parentID == nil, "moved without its parent: at the top")
        #expect(try repository.todo(id: 5)?.parentID == 2 && repository.todo(id: 5)?.listID == work.id)
        // Under a parent of another list: into that list, with its own subtasks.
        try repository.setParent(1, ids: [2])
        #expect(try repository.todo(id: 5)?.listID == TodoList.firstID)
        #expect(try outline(repository) == ["6@0", "1@0", "2@1", "5@2", "3@1", "4@1"])
        // A subtask of a list is in its parent's list.
        #expect(throws: TodoStoreError.parentInAnotherList(parent: 1, list: "Todos")) {
            try repository.add(TodoFields(name: "x"), list: work.id, parent: 1)
        }
    }

    /// What another program can leave: a parent deleted alone, a parent in another list. The
    /// todo shows at the top level, and nothing reads it forever.
    @Test func looseLinksReadAsTheTopLevel() throws {
        let repository = try makeRepository()
        try groceries(repository)
        let work = try repository.createList(named: "Work")
        try repository.connection.execute("DELETE FROM todos WHERE id = 2")
        try repository.connection.execute("UPDATE todos SET list_id = \(work.id) WHERE id = 4")
        #expect(try outline(repository) == ["6@0", "1@0", "3@1", "4@0", "5@0"])
        #expect(try repository.subtaskIDs(of: [1]) == [3])
        #expect(try repository.subtaskIDsByParent() == [1: [3]])
    }

    /// A loop through a todo of another list: the tree stops at the list, the schema's trigger
    /// does not; the store says it is a loop, never a raw SQLite error (the property test found it).
    @Test func aLoopThroughAnotherListIsASubtaskCycle() throws {
        let repository = try makeRepository()
        let work = try repository.createList(named: "Work")
        let mine = try repository.add(TodoFields(name: "mine"))
        let theirs = try repository.add(TodoFields(name: "theirs"), list: work.id)
        try repository.connection.execute("UPDATE todos SET parent_id = \(mine.id) WHERE id = \(theirs.id)")
        #expect(throws: TodoStoreError.subtaskCycle(id: mine.id, parent: theirs.id)) {
            try repository.setParent(theirs.id, ids: [mine.id])
        }
        #expect(try repository.todo(id: mine.id)?.listID == TodoList.firstID, "nothing changed")
    }

    /// The outline's rule alone, on what no schema lets through: a loop is cut, never walked.
    @Test func theOutlineCutsALoop() {
        func todo(_ id: Int64, under parent: Int64?) -> Todo {
            Todo(id: id, TodoFields(name: "\(id)"), parentID: parent)
        }
        let rows = TodoOutline([todo(1, under: 3), todo(2, under: 1), todo(3, under: 2), todo(4, under: nil)]).rows
        #expect(rows.map(\.todo.id).sorted() == [1, 2, 3, 4], "each todo once")
        #expect(rows.map(\.depth).max() == 2)
        // Deep trees are read without recursion.
        let deep = (1...50_000).map { todo(Int64($0), under: $0 == 1 ? nil : Int64($0 - 1)) }
        #expect(TodoOutline(deep).rows.last?.depth == 49_999)
    }

    /// Other programs and old `todo`s insert without a parent: the column has a default.
    @Test func aPlainInsertIsAtTheTopLevel() throws {
        let repository = try makeRepository()
        try repository.connection.execute("INSERT INTO todos (name) VALUES ('plain')")
        #expect(try repository.todo(id: 1)?.parentID == nil)
        #expect(try !repository.hasSubtasks())
    }
}
