import Foundation
import TestSupport
import Testing
import TodoStore

@testable import TodoObservation

/// The controller and the lists (issue 35): a change to the lists, by any program, is told to the
/// delegate with the lists as they are now, before the batch of the same commit, so that a
/// grouping by list is rebuilt before the todos are placed in it; nothing is told when the lists
/// did not change.
@Suite(.timed) struct ListChangeTests {
    let folder = TemporaryFolder()

    private func sqlite(_ path: String, _ sql: String) throws {
        let result = try ProcessRunner.run("sqlite3", [path, sql])
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// Processes the monitor's wake-ups until the recorder has `count` events past `start`
    /// (true), or `timeout` passes (false).
    private func waitForEvents(
        _ watcher: CrossProcessTests.Watcher, after start: Int, count: Int, timeout: TimeInterval = 20
    ) throws -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while watcher.recorder.events.count < start + count {
            guard watcher.wake.wait(timeout: .now() + deadline.timeIntervalSinceNow) == .success else { return false }
            try watcher.controller.processExternalChanges()
        }
        return true
    }

    @Test func theSQLiteShellsRenameIsToldWithTheListsAsTheyAreNow() throws {
        let path = folder.file("todo.sqlite")
        let watcher = try CrossProcessTests.Watcher(path: path)
        #expect(watcher.controller.lists.map(\.name) == ["Todos"])
        try sqlite(path, "INSERT INTO lists (name, position) VALUES ('Groceries', 2)")
        #expect(try waitForEvents(watcher, after: 0, count: 1))
        #expect(watcher.recorder.events == ["lists Todos,Groceries"])
        try sqlite(path, "UPDATE lists SET name = 'Shopping' WHERE id = 2")
        #expect(try waitForEvents(watcher, after: 1, count: 1))
        #expect(watcher.recorder.events.last == "lists Todos,Shopping")
        #expect(watcher.controller.lists.map(\.name) == ["Todos", "Shopping"])
    }

    @Test func theListsAreToldBeforeTheBatchOfTheirCommit() throws {
        let path = folder.file("todo.sqlite")
        try TodoRepository(path: path).add(name: "Eggs")
        let watcher = try CrossProcessTests.Watcher(path: path)
        // One transaction: a new list, and the todo moved into it.
        try sqlite(
            path,
            "BEGIN; INSERT INTO lists (name, position) VALUES ('Groceries', 2); "
                + "UPDATE todos SET list_id = last_insert_rowid() WHERE id = 1; COMMIT;")
        #expect(try waitForEvents(watcher, after: 0, count: 3))
        #expect(Array(watcher.recorder.events.prefix(3)) == ["lists Todos,Groceries", "will", "update 1 0.0->0.0"])
        #expect(watcher.controller.fetchedObjects.first?.listID == 2)
    }

    @Test func aCommitThatLeavesTheListsAsTheyWereTellsNoLists() throws {
        let path = folder.file("todo.sqlite")
        let watcher = try CrossProcessTests.Watcher(path: path)
        // The feed moves (a row of `lists` was written), the lists read the same; then a todo.
        try sqlite(path, "UPDATE lists SET name = name")
        try sqlite(path, "INSERT INTO todos (name) VALUES ('milk')")
        #expect(try watcher.waitForBatch())
        #expect(!watcher.recorder.events.contains { $0.hasPrefix("lists") })
        // A colour is a change to the lists: told, though no group's title changes.
        try sqlite(path, "UPDATE lists SET color = '#2E7D32' WHERE id = 1")
        #expect(try waitForEvents(watcher, after: watcher.recorder.events.count, count: 1))
        #expect(watcher.controller.lists.first?.color == "#2E7D32")
    }

    @Test func aRenameThroughTheControllersOwnRepositoryIsToldAtOnce() throws {
        let path = folder.file("todo.sqlite")
        let repository = try TodoRepository(path: path)
        let controller = FetchedResultsController(repository: repository)
        let recorder = Recorder()
        controller.delegate = recorder
        try controller.performFetch()
        try repository.renameList(id: TodoList.firstID, to: "Inbox")
        #expect(recorder.events == ["lists Inbox"])
        #expect(controller.lists.map(\.name) == ["Inbox"])
        // Renamed back: told too.
        try repository.renameList(id: TodoList.firstID, to: "Todos")
        #expect(recorder.events == ["lists Inbox", "lists Todos"])
    }
}
