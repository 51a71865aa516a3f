import Foundation
import TestSupport
import Testing
import TodoSnapshot
import TodoStore

@testable import TodoObservation

/// Changes committed by other processes (the sqlite3 shell, a second todo, Python) reach the
/// controller through the file monitor and `PRAGMA data_version`.
@Suite(.timed) struct CrossProcessTests {
    let folder = TemporaryFolder()

    /// A controller driven the way `todo watch` drives one: wait for the monitor, then
    /// process external changes.
    final class Watcher {
        let repository: TodoRepository
        let controller: FetchedResultsController
        let recorder = Recorder()
        let wake = DispatchSemaphore(value: 0)
        var monitor: DatabaseFileMonitor?

        init(path: String) throws {
            repository = try TodoRepository(path: path)
            controller = FetchedResultsController(repository: repository)
            controller.delegate = recorder
            try controller.performFetch()
            let wake = self.wake
            monitor = try DatabaseFileMonitor(databasePath: path) { wake.signal() }
        }

        /// Waits until a new batch arrives (true) or `timeout` passes (false).
        func waitForBatch(timeout: TimeInterval = 20) throws -> Bool {
            let count = recorder.batches.count
            let deadline = Date(timeIntervalSinceNow: timeout)
            while recorder.batches.count == count {
                guard wake.wait(timeout: .now() + deadline.timeIntervalSinceNow) == .success else { return false }
                try controller.processExternalChanges()
            }
            return true
        }

        /// Processes every wake-up for `seconds`, to prove that nothing arrives.
        func drain(for seconds: TimeInterval) throws {
            let deadline = Date(timeIntervalSinceNow: seconds)
            while wake.wait(timeout: .now() + max(0, deadline.timeIntervalSinceNow)) == .success {
                try controller.processExternalChanges()
            }
        }
    }

    private func sqlite(_ path: String, _ sql: String) throws {
        let result = try ProcessRunner.run("sqlite3", [path, sql])
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test func theSQLiteShellsChangesArePublished() throws {
        let path = folder.file("todo.sqlite")
        let watcher = try Watcher(path: path)
        try sqlite(path, "INSERT INTO todos (name, deadline) VALUES ('milk', '2024-05-01')")
        #expect(try watcher.waitForBatch())
        #expect(watcher.recorder.objectChanges == ["insert 1 -->0.0"])

        watcher.recorder.events.removeAll()
        try sqlite(path, "UPDATE todos SET name = 'oat milk' WHERE id = 1")
        #expect(try watcher.waitForBatch())
        #expect(watcher.recorder.objectChanges == ["update 1 0.0->0.0"])
        #expect(watcher.controller.fetchedObjects.first?.name == "oat milk")
    }

    @Test func aSecondTodoAndPythonArePublished() throws {
        let path = folder.file("todo.sqlite")
        let watcher = try Watcher(path: path)
        let add = try ProcessRunner.run(ProcessRunner.todoBinary, ["--db", path, "add", "from todo"])
        #expect(add.status == 0)
        #expect(try watcher.waitForBatch())
        // Python keeps its connection open after the commit: no close-time checkpoint to
        // trigger a file event, so this relies on the monitor's settling ticks.
        let script = """
            import sqlite3, sys, time
            db = sqlite3.connect(sys.argv[1])
            db.execute("UPDATE todos SET done = 1 WHERE id = 1")
            db.commit()
            time.sleep(1)
            """
        let python = try ProcessRunner.run("python3", ["-c", script, path])
        #expect(python.status == 0, "\(python.stderr)")
        #expect(try watcher.waitForBatch())
        #expect(watcher.controller.fetchedObjects.map(\.isDone) == [true])
    }

    /// The cost of another process's one-row commit does not grow with the list: the change
    /// feed names the row, which is re-read and placed; the request is not read again.
    @Test func anotherProcesssSmallCommitIsPatchedInNotRefetched() throws {
        let path = folder.file("todo.sqlite")
        let seed = try ProcessRunner.run("sqlite3", [path, "SELECT 1"])  // create nothing yet
        #expect(seed.status == 0)
        let watcher = try Watcher(path: path)
        try sqlite(
            path,
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) INSERT INTO todos(name) SELECT 'todo ' || i FROM n"
        )
        #expect(try watcher.waitForBatch())
        let refetchesAfterBulk = watcher.controller.refetches
        #expect(refetchesAfterBulk >= 1, "2,000 rows at once is past the limit: a refetch")
        for statement in [
            "UPDATE todos SET done = 1 WHERE id = 7", "INSERT INTO todos(name, deadline) VALUES ('new', '2024-01-01')",
            "DELETE FROM todos WHERE id = 9", "UPDATE todos SET name = 'renamed' WHERE id = 1500"
        ] {
            try sqlite(path, statement)
            #expect(try watcher.waitForBatch(), "\(statement)")
        }
        #expect(watcher.controller.refetches == refetchesAfterBulk, "a one-row commit was refetched")
        #expect(watcher.controller.fetchedObjects == (try watcher.repository.fetch()))
        #expect(
            watcher.recorder.objectChanges.suffix(4) == [
                "update 7 0.6->0.6", "insert 2001 -->0.0", "delete 9 0.9->-", "update 1500 0.1499->0.1499"
            ])
    }

    @Test func aRolledBackTransactionInAnotherProcessPublishesNothing() throws {
        let path = folder.file("todo.sqlite")
        let watcher = try Watcher(path: path)
        try sqlite(path, "BEGIN; INSERT INTO todos (name) VALUES ('never'); ROLLBACK;")
        try watcher.drain(for: 0.4)
        #expect(watcher.recorder.events.isEmpty)
        // The watcher is live (silence above is not a dead monitor): the next real commit
        // arrives, alone, with nothing of the rolled-back one.
        try sqlite(path, "INSERT INTO todos (name) VALUES ('real')")
        #expect(try watcher.waitForBatch())
        #expect(watcher.recorder.objectChanges == ["insert 1 -->0.0"])
        #expect(watcher.controller.fetchedObjects.map(\.name) == ["real"])
    }

    @Test func randomTransactionsRebuildTheDatabaseExactly() throws {
        let path = folder.file("todo.sqlite")
        let watcher = try Watcher(path: path)
        let seed = TestSeed.make("randomTransactionsRebuildTheDatabaseExactly")
        var generator = SeededGenerator(seed: seed)
        var rebuilt = watcher.controller.snapshot.snapshot
        var checked = 0
        for step in 0..<40 {
            let statements = (0..<Int.random(in: 1...3, using: &generator)).map { _ in
                RandomSQL.statement(using: &generator)
            }
            try sqlite(path, "BEGIN; " + statements.joined(separator: "; ") + "; COMMIT;")
            let expected = try watcher.repository.fetch()
            if expected == rebuilt.items {
                continue  // the statements happened to change nothing (e.g. deleting a missing id)
            }
            #expect(try watcher.waitForBatch(), "seed \(seed) step \(step): no batch for \(statements)")
            #expect(watcher.recorder.batches.count == 1, "step \(step): one transaction, one batch")
            for batch in watcher.recorder.batches { rebuilt = rebuilt.applying(batch.difference) }
            watcher.recorder.batches.removeAll()
            #expect(rebuilt.items == expected, "seed \(seed) step \(step): \(statements)")
            checked += 1
        }
        // Most steps change the list (each is at least a third inserts); a run where almost none
        // did would have rebuilt nothing.
        #expect(checked >= 5, "only \(checked) of 40 transactions changed the list")
    }
}
