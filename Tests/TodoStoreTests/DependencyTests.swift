import Foundation
import SQLite
import TestSupport
import Testing

@testable import TodoStore

/// Dependencies in the store (issue 36): a todo waits for others ("blocked by"), never in a
/// cycle from any program; links go with their todo and come back with its undo; a change of
/// links is one undo step with the command that made it; the blocked filters; the list order.
@Suite(.timed) struct DependencyTests {
    let folder = TemporaryFolder()

    private func makeRepository() throws -> TodoRepository {
        try TodoRepository(path: folder.file("todos.sqlite"))
    }

    /// Buy paint (1), Paint the fence (2, waits for 1), Invite the neighbours (3, waits for 2),
    /// Pay rent (4). Deadlines put the waiting todos first in deadline order.
    private func fence(_ repository: TodoRepository) throws {
        func day(_ day: Int) -> CalendarDate? { CalendarDate(year: 2026, month: 12, day: day) }
        try repository.add(TodoFields(name: "Buy paint", deadline: day(20)))
        try repository.add(TodoFields(name: "Paint the fence", deadline: day(10)))
        try repository.add(TodoFields(name: "Invite the neighbours", deadline: day(5)))
        try repository.add(TodoFields(name: "Pay rent", deadline: day(1)))
        try repository.addDependencies([1], to: 2)
        try repository.addDependencies([2], to: 3)
    }

    private func ids(_ repository: TodoRepository, _ request: TodoFetchRequest) throws -> [Int64] {
        try repository.fetch(request).map(\.id)
    }

    @Test func linksAreSetAddedRemovedAndRead() throws {
        let repository = try makeRepository()
        try fence(repository)
        #expect(try repository.hasDependencies())
        #expect(try repository.dependencyIDs(of: 2) == [1])
        #expect(try repository.dependentIDs(of: 2) == [3])
        #expect(try repository.addDependencies([4, 1, 4], to: 3) == [1, 2, 4], "a link already there stays")
        #expect(try repository.removeDependencies([1, 99], from: 3) == [2, 4], "a link not there is no error")
        #expect(try repository.setDependencies([4], of: 3) == [4])
        #expect(try repository.dependencyIDsByTodo() == [2: [1], 3: [4]])
        #expect(throws: TodoStoreError.notFound(ids: [99])) { try repository.addDependencies([99], to: 1) }
        #expect(throws: TodoStoreError.notFound(ids: [98])) { try repository.setDependencies([], of: 98) }
        #expect(throws: TodoStoreError.notFound(ids: [98])) { try repository.removeDependencies([1], from: 98) }
        #expect(try repository.dependencyIDsByTodo() == [2: [1], 3: [4]], "nothing changed")
    }

    @Test func aCycleIsRefusedFromTheStoreAndFromAnotherProgram() throws {
        let repository = try makeRepository()
        try fence(repository)
        #expect(throws: TodoStoreError.dependencyCycle(id: 1, waitsFor: 3)) {
            try repository.addDependencies([3], to: 1)
        }
        #expect(throws: TodoStoreError.dependencyCycle(id: 1, waitsFor: 2)) {
            try repository.setDependencies([4, 2], of: 1)
        }
        #expect(throws: TodoStoreError.dependencyCycle(id: 4, waitsFor: 4)) {
            try repository.addDependencies([4], to: 4)
        }
        #expect(try repository.dependencyIDsByTodo() == [2: [1], 3: [2]], "all or nothing: 1 waits for no 4")
        // The sqlite3 shell: the schema's triggers refuse, with words that say why.
        for sql in [
            "INSERT INTO dependencies (todo_id, depends_on) VALUES (1, 3)",
            "INSERT INTO dependencies (todo_id, depends_on) VALUES (4, 4)",
            "UPDATE dependencies SET depends_on = 3 WHERE todo_id = 2"
        ] {
            let shell = try ProcessRunner.run("sqlite3", [folder.file("todos.sqlite"), sql])
            #expect(shell.status != 0, "\(sql)")
            #expect(shell.stderr.contains("a todo cannot wait for itself or for a todo that waits for it"), "\(sql)")
        }
        // An update that is no cycle once the row it replaces is gone passes.
        let moved = try ProcessRunner.run(
            "sqlite3", [folder.file("todos.sqlite"), "UPDATE dependencies SET depends_on = 4 WHERE todo_id = 3"])
        #expect(moved.status == 0, "\(moved.stderr)")
        #expect(try repository.dependencyIDsByTodo() == [2: [1], 3: [4]])
    }

    @Test func blockedMeansNotDoneAndWaitingForATodoNotDone() throws {
        let repository = try makeRepository()
        try fence(repository)
        var blocked = TodoFetchRequest()
        blocked.blocked = true
        var unblocked = TodoFetchRequest()
        unblocked.blocked = false
        #expect(try ids(repository, blocked) == [3, 2])
        #expect(try ids(repository, unblocked) == [4, 1])
        #expect(try repository.blockers() == [2: [1], 3: [2]])
        #expect(try repository.isBlocked(2) && !repository.isBlocked(1))
        // Done (or cancelled) blocks nothing, and a done todo is never blocked.
        _ = try repository.setDone(true, ids: [1])
        #expect(try ids(repository, blocked) == [3])
        _ = try repository.setStatus(.cancelled, ids: [2])
        #expect(try ids(repository, blocked) == [])
        #expect(try ids(repository, unblocked) == [4, 3])
        #expect(try repository.blockers() == [:])
        // The same conditions patch a watched list one id at a time.
        _ = try repository.setDone(false, ids: [2])
        #expect(try repository.fetch(blocked, ids: [1, 2, 3, 4]).keys.sorted() == [3])
    }

    /// The change feed names the todos whose blocked state may have changed, so a watched
    /// `--blocked` list and a sync see them.
    @Test func theChangeFeedNamesTheWaitingTodos() throws {
        let repository = try makeRepository()
        try fence(repository)
        let start = try repository.feedPosition()
        _ = try repository.setDone(true, ids: [1])
        guard case .changed(let ids, _) = try repository.changedTodos(since: start, limit: 100) else {
            Issue.record("the feed lost its place")
            return
        }
        #expect(ids == [1, 2])
        let next = try repository.feedPosition()
        try repository.removeDependencies([2], from: 3)
        guard case .changed(let after, _) = try repository.changedTodos(since: next, limit: 100) else {
            Issue.record("the feed lost its place")
            return
        }
        #expect(after == [3])
    }

    /// Links go with their todo, whoever deletes it, and `undo` brings them back; a link made by
    /// a command is undone and redone with it.
    @Test func linksFollowUndoAndRedoAndDeletes() throws {
        let repository = try makeRepository()
        try fence(repository)
        try repository.recordingUndo("rm") { () throws(TodoStoreError) in _ = try repository.delete(ids: [2]) }
        #expect(try repository.dependencyIDsByTodo() == [:])
        #expect(
            try repository.connection.internalCachedStatement("SELECT count(*) FROM dependencies").scalarInt64() == 0)
        _ = try repository.undo()
        #expect(try repository.dependencyIDsByTodo() == [2: [1], 3: [2]])
        _ = try repository.redo()
        #expect(try repository.dependencyIDsByTodo() == [:])
        _ = try repository.undo()
        #expect(try repository.dependencyIDsByTodo() == [2: [1], 3: [2]])

        // A change of links alone is a step of its own.
        try repository.recordingUndo("edit") { () throws(TodoStoreError) in
            _ = try repository.setDependencies([4], of: 3)
        }
        #expect(try repository.dependencyIDs(of: 3) == [4])
        #expect(try repository.undo().command == "edit")
        #expect(try repository.dependencyIDs(of: 3) == [2])
        #expect(try repository.redo().command == "edit")
        #expect(try repository.dependencyIDs(of: 3) == [4])

        // An add with its links is one step.
        try repository.recordingUndo("add") { () throws(TodoStoreError) in
            let todo = try repository.add(TodoFields(name: "Clean the brushes"))
            try repository.addDependencies([2], to: todo.id)
        }
        #expect(try repository.dependentIDs(of: 2) == [5])
        _ = try repository.undo()
        #expect(try repository.todo(id: 5) == nil && repository.dependentIDs(of: 2) == [])

        // The sqlite3 shell deletes a todo: its links go too.
        let shell = try ProcessRunner.run("sqlite3", [folder.file("todos.sqlite"), "DELETE FROM todos WHERE id = 4"])
        #expect(shell.status == 0)
        #expect(try repository.dependencyIDsByTodo() == [2: [1]])
    }

    /// An undo that would bring back a link closing a cycle (another program linked the other
    /// way meanwhile) is a conflict naming the todo: nothing changes.
    @Test func anUndoThatWouldCloseACycleIsAConflict() throws {
        let repository = try makeRepository()
        try fence(repository)
        try repository.recordingUndo("edit") { () throws(TodoStoreError) in
            _ = try repository.removeDependencies([1], from: 2)
        }
        try repository.connection.execute("INSERT INTO dependencies (todo_id, depends_on) VALUES (1, 3)")
        #expect(throws: TodoStoreError.self) { try repository.undo() }
        #expect(try repository.dependencyIDsByTodo() == [1: [3], 3: [2]])
    }

    /// The list's order: a todo after the todos of the list it waits for, else as fetched.
    @Test func theOrderPutsATodoAfterWhatItWaitsFor() throws {
        let repository = try makeRepository()
        try fence(repository)
        let fetched = try repository.fetch()
        #expect(fetched.map(\.id) == [4, 3, 2, 1])
        let links = try repository.dependencyIDsByTodo()
        #expect(TodoRepository.orderedByDependencies(fetched, links: links).map(\.id) == [4, 1, 2, 3])
        // A todo waited for that is not listed orders nothing.
        let some = fetched.filter { $0.id != 2 }
        #expect(TodoRepository.orderedByDependencies(some, links: links).map(\.id) == [4, 3, 1])
        // Stable: a todo released by its last prerequisite comes before later ones, in order.
        func todo(_ id: Int64) -> Todo { Todo(id: id, TodoFields(name: "\(id)")) }
        let rows = (1...6).map { todo(Int64($0)) }
        #expect(
            TodoRepository.orderedByDependencies(rows, links: [1: [4], 2: [4], 3: [6]]).map(\.id) == [4, 1, 2, 5, 6, 3])
        // A cycle (no schema lets one through) loses no row and ends.
        #expect(TodoRepository.orderedByDependencies(rows, links: [1: [2], 2: [1]]).map(\.id) == [3, 4, 5, 6, 1, 2])
    }

    /// A file synced before dependencies: an object with a DEPENDS-ON link is to be read again
    /// (its ETag forgotten, its list's token and seen state too), the others are not; and the
    /// merge base has its column.
    @Test func theUpgradeMakesTheObjectsWithDependsOnBeReadAgain() throws {
        let path = folder.file("old.sqlite")
        do {
            let connection = try Connection(path: path)
            for migration in Migration.embedded.prefix(18) { try connection.execute(migration.sql) }
            try connection.execute("PRAGMA user_version = 18")
            try connection.execute(
                """
                INSERT INTO sync_remote (id, url, user) VALUES (1, 'https://h/c/', 'u');
                INSERT INTO sync_links (list_id, url, sync_token, seen) VALUES (1, 'https://h/c/', 'token-1', 'token-1');
                INSERT INTO sync_items (uid, href, etag, ics, name, done) VALUES
                    ('a', '/c/a.ics', '"1"', 'BEGIN:VTODO' || char(13, 10) || 'RELATED-TO;RELTYPE=depends-on:b', 'a', 0),
                    ('b', '/c/b.ics', '"2"', 'BEGIN:VTODO' || char(13, 10) || 'STATUS:NEEDS-ACTION', 'b', 0);
                """)
        }
        let repository = try TodoRepository(path: path)
        let etags = try repository.connection.prepare("SELECT coalesce(etag, 'NULL') FROM sync_items ORDER BY uid")
        var read: [String] = []
        try etags.forEachRow { read.append($0.string(0)) }
        #expect(read == ["NULL", "\"2\""])
        let forgotten = "SELECT count(*) FROM sync_links WHERE sync_token IS NULL AND seen IS NULL"
        #expect(try repository.connection.prepare(forgotten).scalarInt64() == 1)
        let column = "SELECT count(*) FROM pragma_table_info('sync_items') WHERE name = 'depends_uids'"
        #expect(try repository.connection.prepare(column).scalarInt64() == 1)
    }
}
