import SQLite
import TestSupport
import Testing
import TodoStore

/// Lists (issue 35): every todo in one list, one default, other programs' plain inserts landing
/// in it, names unique under case folding, moves and removals all or nothing and undoable.
@Suite(.timed) struct TodoListsTests {
    let folder = TemporaryFolder()

    private func makeRepository() throws -> TodoRepository {
        try TodoRepository(path: folder.file("todos.sqlite"))
    }

    private func names(in list: Int64, _ repository: TodoRepository) throws -> [String] {
        var request = TodoFetchRequest(order: .name)
        request.lists = [list]
        return try repository.fetch(request).map(\.name)
    }

    @Test func aNewDatabaseHasOneDefaultListThatEveryTodoGoesTo() throws {
        let repository = try makeRepository()
        let lists = try repository.lists()
        #expect(lists == [TodoList(id: TodoList.firstID, name: "Todos", position: 1, isDefault: true)])
        let todo = try repository.add(name: "Buy milk")
        #expect(todo.listID == TodoList.firstID)
        #expect(try repository.todo(id: todo.id)?.listID == TodoList.firstID)
    }

    @Test func aPlainInsertFromTheShellLandsInTheDefaultList() throws {
        let repository = try makeRepository()
        let groceries = try repository.createList(named: "Groceries")
        let path = folder.file("todos.sqlite")
        _ = try ProcessRunner.run("sqlite3", [path, "INSERT INTO todos(name) VALUES ('first')"])
        try repository.setDefaultList(id: groceries.id)
        _ = try ProcessRunner.run("sqlite3", [path, "INSERT INTO todos(name) VALUES ('second')"])
        #expect(try names(in: TodoList.firstID, repository) == ["first"])
        #expect(try names(in: groceries.id, repository) == ["second"])
        #expect(try repository.lists().filter(\.isDefault).map(\.id) == [groceries.id])
        // The shell cannot delete the default list, nor a list that holds todos.
        let spare = try repository.createList(named: "Spare")
        try repository.setDefaultList(id: spare.id)
        let deleteDefault = try ProcessRunner.run("sqlite3", [path, "DELETE FROM lists WHERE id = \(spare.id)"])
        #expect(deleteDefault.stderr.contains("the default list cannot be deleted"))
        let deleteFull = try ProcessRunner.run("sqlite3", [path, "DELETE FROM lists WHERE id = 1"])
        #expect(deleteFull.stderr.contains("the list still has todos"))
        #expect(try repository.lists().count == 3)
    }

    @Test func namesAreUniqueUnderCaseFoldingAndMustBeNames() throws {
        let repository = try makeRepository()
        try repository.createList(named: "Éclair")
        #expect(throws: TodoStoreError.listExists("Éclair")) { try repository.createList(named: "éCLAIR") }
        #expect(throws: TodoStoreError.listExists("Todos")) { try repository.createList(named: "todos") }
        for bad in ["", "   ", "-x", "a\u{1B}[31m", "two\nlines"] {
            #expect(throws: TodoStoreError.invalidListName(bad)) { try repository.createList(named: bad) }
        }
        // A list renamed to another case of its own name is a rename.
        let eclair = try repository.existingList(named: "ÉCLAIR")
        #expect(try repository.renameList(id: eclair.id, to: "ÉCLAIR").name == "ÉCLAIR")
        #expect(throws: TodoStoreError.listExists("ÉCLAIR")) { try repository.renameList(id: 1, to: "éclair") }
    }

    @Test func coloursAreStoredAsUpperCaseRGB() throws {
        let repository = try makeRepository()
        #expect(try repository.createList(named: "A", color: "2e7d32").color == "#2E7D32")
        #expect(try repository.createList(named: "B", color: "#ff880080").color == "#FF8800")
        #expect(throws: TodoStoreError.invalidColor("red")) { try repository.createList(named: "C", color: "red") }
        #expect(try repository.list(named: "C") == nil)
        #expect(try repository.setListColor(id: TodoList.firstID, to: nil).color == nil)
    }

    @Test func aMoveIsAllOrNothing() throws {
        let repository = try makeRepository()
        let work = try repository.createList(named: "Work")
        let a = try repository.add(name: "a")
        #expect(throws: TodoStoreError.notFound(ids: [999])) { try repository.move(ids: [a.id, 999], to: work.id) }
        #expect(try repository.todo(id: a.id)?.listID == TodoList.firstID)
        #expect(throws: TodoStoreError.noSuchList("#999")) { try repository.move(ids: [a.id], to: 999) }
        #expect(try repository.move(ids: [a.id], to: work.id).map(\.listID) == [work.id])
    }

    @Test func removingAListSaysWhatBecomesOfItsTodosAndUndoesAsOneStep() throws {
        let repository = try makeRepository()
        let work = try repository.createList(named: "Work")
        let a = try repository.add(TodoFields(name: "a"), list: work.id)
        let b = try repository.add(TodoFields(name: "b"), list: work.id)
        #expect(throws: TodoStoreError.listNotEmpty("Work", count: 2)) {
            try repository.removeList(id: work.id, todos: .none)
        }
        #expect(throws: TodoStoreError.defaultListRemoved("Todos")) {
            try repository.removeList(id: TodoList.firstID, todos: .moveTo(work.id))
        }
        // Deleted with its todos, then brought back by undo, then removed again by redo: a step
        // applies both ways although the list may not go while it holds todos.
        _ = try repository.recordingUndo("lists rm") { () throws(TodoStoreError) in
            try repository.removeList(id: work.id, todos: .delete)
        }
        #expect(try repository.list(id: work.id) == nil)
        #expect(try repository.todo(id: a.id) == nil)
        _ = try repository.undo()
        #expect(try repository.list(id: work.id)?.name == "Work")
        #expect(try names(in: work.id, repository) == ["a", "b"])
        _ = try repository.redo()
        #expect(try repository.list(id: work.id) == nil)
        #expect(try repository.todo(id: b.id) == nil)
        _ = try repository.undo()

        _ = try repository.recordingUndo("lists rm") { () throws(TodoStoreError) in
            try repository.removeList(id: work.id, todos: .moveTo(TodoList.firstID))
        }
        #expect(try names(in: TodoList.firstID, repository) == ["a", "b"])
        _ = try repository.undo()
        #expect(try names(in: work.id, repository) == ["a", "b"])
        _ = try repository.redo()
        #expect(try repository.lists().map(\.name) == ["Todos"])
    }

    @Test func renamesAndDefaultsUndo() throws {
        let repository = try makeRepository()
        let work = try repository.recordingUndo("lists new") { () throws(TodoStoreError) in
            try repository.createList(named: "Work")
        }
        _ = try repository.recordingUndo("lists rename") { () throws(TodoStoreError) in
            try repository.renameList(id: work.id, to: "Office")
        }
        _ = try repository.recordingUndo("lists default") { () throws(TodoStoreError) in
            try repository.setDefaultList(id: work.id)
        }
        #expect(try repository.defaultList().name == "Office")
        #expect(try repository.undo().command == "lists default")
        #expect(try repository.defaultList().name == "Todos")
        #expect(try repository.undo().command == "lists rename")
        #expect(try repository.list(id: work.id)?.name == "Work")
        #expect(try repository.undo().command == "lists new")
        #expect(try repository.lists().map(\.name) == ["Todos"])
    }

    @Test func aListChangedByAnotherProgramSinceIsAnUndoConflict() throws {
        let repository = try makeRepository()
        let work = try repository.createList(named: "Work")
        _ = try repository.recordingUndo("lists rename") { () throws(TodoStoreError) in
            try repository.renameList(id: work.id, to: "Office")
        }
        _ = try ProcessRunner.run(
            "sqlite3", [folder.file("todos.sqlite"), "UPDATE lists SET name = 'Desk' WHERE id = \(work.id)"])
        #expect(throws: TodoStoreError.undoConflict(command: "lists rename", ids: [])) { try repository.undo() }
        #expect(try repository.list(id: work.id)?.name == "Desk")
    }

    @Test func countsAndTheListFilter() throws {
        let repository = try makeRepository()
        let work = try repository.createList(named: "Work")
        let home = try repository.createList(named: "Home")
        try repository.add(TodoFields(name: "w1"), list: work.id)
        try repository.add(TodoFields(name: "w2", isDone: true), list: work.id)
        try repository.add(TodoFields(name: "h1"), list: home.id)
        try repository.add(TodoFields(name: "t1"))
        let counts = try repository.listCounts()
        #expect(counts[work.id] == TodoListCount(undone: 1, done: 1))
        #expect(counts[home.id] == TodoListCount(undone: 1, done: 0))
        var request = TodoFetchRequest(order: .name)
        request.lists = [work.id, home.id]
        #expect(try repository.fetch(request).map(\.name) == ["h1", "w1", "w2"])
        #expect(try repository.count(request) == 3)
        #expect(try repository.lists().map(\.name) == ["Todos", "Work", "Home"])
    }
}
