import Foundation
import TestSupport
import Testing
import TodoObservation
import TodoStore

/// Editors and file-sync tools save by writing a new file and renaming it over the old one.
/// A controller follows the path to the new file (reporting the difference) and says when the
/// file is gone, instead of watching a deleted inode in silence.
@Suite(.timed) struct ReplacedFileTests {
    let folder = TemporaryFolder()

    /// A database at `path` holding todos named `names`, made and closed by its own repository.
    private func database(at path: String, names: [String]) throws {
        let repository = try TodoRepository(path: path)
        for name in names { _ = try repository.add(name: name) }
    }

    @Test func theRepositoryTellsAReplacedFileFromADeletedOne() throws {
        let path = folder.file("todo.sqlite")
        let repository = try TodoRepository(path: path)
        #expect(repository.fileState() == .unchanged)
        try database(at: folder.file("new.sqlite"), names: ["from the new file"])
        #expect(rename(folder.file("new.sqlite"), path) == 0)
        #expect(repository.fileState() == .replaced)
        #expect(try repository.reopened().fetch().map(\.name) == ["from the new file"])
        #expect(unlink(path) == 0)
        #expect(repository.fileState() == .missing)
        #expect(throws: TodoStoreError.databaseMissing(path: path)) { try repository.reopened() }
        #expect(!FileManager.default.fileExists(atPath: path), "reopening must not create the file again")
    }

    @Test func aControllerFollowsAFileRenamedOverItsOwn() throws {
        let path = folder.file("todo.sqlite")
        try database(at: path, names: ["Buy milk", "Pay rent"])
        let controller = FetchedResultsController(repository: try TodoRepository(path: path))
        let recorder = Recorder()
        controller.delegate = recorder
        try controller.performFetch()
        let old = controller.repository

        // Id 1 renamed, id 2 gone, id 3 new: the saved copy another tool wrote.
        try database(at: folder.file("saved.sqlite"), names: ["Buy oat milk"])
        do {  // closed before the rename, as a tool that saves a copy closes it
            let saved = try TodoRepository(path: folder.file("saved.sqlite"))
            _ = try saved.add(name: "Call mum")
            try saved.connection.execute("UPDATE todos SET id = 3 WHERE name = 'Call mum'")
        }
        #expect(rename(folder.file("saved.sqlite"), path) == 0)

        #expect(try controller.processExternalChanges())
        #expect(controller.repository !== old)
        #expect(controller.fetchedObjects.map(\.name) == ["Buy oat milk", "Call mum"])
        #expect(Set(recorder.objectChanges) == ["update 1 0.0->0.0", "delete 2 0.1->-", "insert 3 -->0.1"])

        // Writes through the controller's repository land in the new file and are observed.
        _ = try controller.repository.add(name: "After the switch")
        #expect(controller.fetchedObjects.count == 3)
        #expect(try TodoRepository(path: path).fetch().count == 3)
        #expect(try ProcessRunner.run("sqlite3", [path, "PRAGMA integrity_check"]).stdout == "ok\n")
        // Nothing more to follow.
        #expect(try controller.processExternalChanges() == false)
    }

    /// A refresh that fails (here: the table was renamed away by another connection) must not
    /// skip the change it was reading: the next call reads everything again.
    @Test func aFailedExternalRefreshIsReadAgainWhole() throws {
        let path = folder.file("todo.sqlite")
        try database(at: path, names: ["Buy milk"])
        let controller = FetchedResultsController(repository: try TodoRepository(path: path))
        try controller.performFetch()
        let other = try TodoRepository(path: path)
        _ = try other.add(name: "Pay rent")
        try other.connection.execute("ALTER TABLE todos RENAME TO todos_away")
        #expect(throws: TodoStoreError.self) { try controller.processExternalChanges() }
        #expect(controller.lastRefreshError != nil)
        try other.connection.execute("ALTER TABLE todos_away RENAME TO todos")
        try controller.processExternalChanges()
        #expect(controller.fetchedObjects.map(\.name) == ["Buy milk", "Pay rent"])
        #expect(controller.lastRefreshError == nil)
    }

    @Test func aDeletedFileIsAnErrorAndTheResultsStay() throws {
        let path = folder.file("todo.sqlite")
        try database(at: path, names: ["Buy milk"])
        let controller = FetchedResultsController(repository: try TodoRepository(path: path))
        try controller.performFetch()
        #expect(unlink(path) == 0)
        #expect(throws: TodoStoreError.databaseMissing(path: path)) { try controller.processExternalChanges() }
        #expect(controller.fetchedObjects.map(\.name) == ["Buy milk"])
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    /// The file is deleted (with its `-wal` and `-shm`) and another process makes a new one at
    /// the path, which it keeps open with its todos still in its `-wal`. Following it must leave
    /// that process's files alone: they are the new file's, not the one this process had open.
    @Test func followingAFileAnotherProcessMadeKeepsThatProcesssTodos() throws {
        let path = folder.file("todo.sqlite")
        try database(at: path, names: ["Buy milk"])
        let controller = FetchedResultsController(repository: try TodoRepository(path: path))
        try controller.performFetch()
        try database(at: folder.file("template.sqlite"), names: [])  // closed: one file, no -wal
        for suffix in ["", "-wal", "-shm"] { #expect(unlink(path + suffix) == 0, "\(suffix)") }
        try FileManager.default.copyItem(atPath: folder.file("template.sqlite"), toPath: path)

        let script = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1], isolation_level=None)
            db.execute("PRAGMA wal_autocheckpoint = 0")  # its todos stay in its -wal
            db.execute("BEGIN")
            for name in ["Pay rent", "Call mum"]:
                db.execute("INSERT INTO todos (name) VALUES (?)", (name,))
            db.execute("COMMIT")
            print("ready", flush=True)
            sys.stdin.readline()
            print(db.execute("SELECT count(*) FROM todos").fetchone()[0], flush=True)
            """
        let other = try RunningProcess("/usr/bin/python3", ["-c", script, path], input: true)
        #expect(other.nextLine(timeout: 10) == "ready", "\(other.errorOutput)")

        #expect(try controller.processExternalChanges())
        #expect(controller.fetchedObjects.map(\.name) == ["Pay rent", "Call mum"])
        #expect(FileManager.default.fileExists(atPath: path + "-wal"), "the other process's -wal was deleted")
        // A third process sees them too, now that this one has let go of the old file.
        let reader = try ProcessRunner.run("sqlite3", [path, "SELECT name FROM todos ORDER BY id"])
        #expect(reader.stdout == "Pay rent\nCall mum\n", "\(reader.stderr)")
        other.send("count")
        #expect(other.nextLine(timeout: 10) == "2")
        other.closeInput()
        #expect(other.waitForExit(timeout: 10) == 0)
    }

    @Test func aReplacementFromAnotherApplicationIsRefusedUntouched() throws {
        let path = folder.file("todo.sqlite")
        try database(at: path, names: ["Buy milk"])
        let controller = FetchedResultsController(repository: try TodoRepository(path: path))
        try controller.performFetch()
        let foreign = folder.file("foreign.sqlite")
        let made = try ProcessRunner.run("sqlite3", [foreign, "CREATE TABLE notes (body TEXT)"])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(rename(foreign, path) == 0)
        #expect(throws: TodoStoreError.foreignDatabase(path: path)) { try controller.processExternalChanges() }
        #expect(controller.fetchedObjects.map(\.name) == ["Buy milk"])
    }
}
