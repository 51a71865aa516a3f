import Foundation
import SQLite
import TestSupport
import Testing

@testable import TodoStore

@Suite(.timed) struct MigrationTests {
    let folder = TemporaryFolder()

    @Test func embeddedMigrationsMatchTheMigrationsFolder() throws {
        let directory = ProcessRunner.packageRoot + "/Migrations"
        let files = try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasSuffix(".sql") }.sorted()
        #expect(!files.isEmpty, "no .sql file in \(directory)")
        #expect(files.count == Migration.embedded.count, "run scripts/embed-migrations")
        for (file, migration) in zip(files, Migration.embedded) {
            #expect(
                file == String(format: "%04d_%@.sql", migration.version, migration.name), "run scripts/embed-migrations"
            )
            var text = try String(contentsOfFile: directory + "/" + file, encoding: .utf8)
            if text.hasSuffix("\n") { text.removeLast() }
            #expect(text == migration.sql, "\(file) differs from its embedded copy: run scripts/embed-migrations")
        }
    }

    @Test func aNewDatabaseGetsTheWholeSchema() throws {
        let repository = try TodoRepository(path: folder.file("new.sqlite"))
        let db = repository.connection
        #expect(try db.pragmaInt64("user_version") == Int64(Migration.embedded.count))
        #expect(try db.pragmaInt64("application_id") == TodoRepository.applicationID)
        #expect(try db.setJournalMode(.wal) == "wal")
        // Every column but name has a default, as other SQLite clients expect.
        try db.execute("INSERT INTO todos (name) VALUES ('x')")
        #expect(try repository.fetch().map(\.name) == ["x"])
    }

    @Test func eachMigrationRunsOnceAndInOrder() throws {
        let path = folder.file("steps.sqlite")
        let first = Migrator(migrations: [Migration(version: 1, name: "a", sql: "CREATE TABLE a (x)")])
        let both = Migrator(
            migrations: first.migrations + [Migration(version: 2, name: "b", sql: "CREATE TABLE b (y)")])
        let db = try Connection(path: path)
        try first.migrate(db)
        #expect(try first.currentVersion(of: db) == 1)
        try both.migrate(db)
        try both.migrate(db)  // nothing left to do: CREATE TABLE would fail if it ran twice
        #expect(try both.currentVersion(of: db) == 2)
    }

    @Test func aFailingMigrationLeavesTheLastGoodVersion() throws {
        let db = try Connection(path: folder.file("fail.sqlite"))
        let migrator = Migrator(migrations: [
            Migration(version: 1, name: "good", sql: "CREATE TABLE a (x)"),
            Migration(version: 2, name: "bad", sql: "CREATE TABLE b (y); INSERT INTO nowhere VALUES (1)")
        ])
        #expect(throws: TodoStoreError.self) { try migrator.migrate(db) }
        #expect(try migrator.currentVersion(of: db) == 1)
        // Migration 2's first statement was rolled back with it.
        #expect(try db.cachedStatement("SELECT count(*) FROM sqlite_schema WHERE name = 'b'").scalarInt64() == 0)
    }

    @Test func aDatabaseFromANewerVersionIsRefusedUntouched() throws {
        let path = folder.file("newer.sqlite")
        do {
            let db = try Connection(path: path)
            try db.execute(
                "PRAGMA journal_mode = DELETE; CREATE TABLE todos (id INTEGER PRIMARY KEY, name TEXT); PRAGMA user_version = 99"
            )
        }
        let before = folder.contents(path)
        #expect(throws: TodoStoreError.newerSchema(found: 99, supported: Migration.embedded.count)) {
            try TodoRepository(path: path)
        }
        #expect(folder.contents(path) == before)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test func anotherApplicationsDatabaseIsRefusedUntouched() throws {
        let path = folder.file("other.sqlite")
        do {
            let db = try Connection(path: path)
            try db.execute("PRAGMA journal_mode = DELETE; CREATE TABLE contacts (name TEXT)")
        }
        let before = folder.contents(path)
        #expect(throws: TodoStoreError.foreignDatabase(path: path)) { try TodoRepository(path: path) }
        #expect(folder.contents(path) == before)
    }

    @Test func aFileThatIsNotADatabaseIsRefusedUntouched() throws {
        let path = folder.file("notes.txt")
        let content = Data("Shopping: milk, eggs\n".utf8)
        #expect(FileManager.default.createFile(atPath: path, contents: content))
        #expect(throws: TodoStoreError.notADatabase(path: path)) { try TodoRepository(path: path) }
        #expect(folder.contents(path) == content)
    }

    @Test func newFilesAndFoldersArePrivate() throws {
        let path = folder.file("a/b/todo.sqlite")
        _ = try TodoRepository(path: path)
        #expect(folder.mode(folder.file("a")) == 0o700)
        #expect(folder.mode(folder.file("a/b")) == 0o700)
        #expect(folder.mode(path) == 0o600)
    }

    @Test func anExistingFilesModeIsNeverChanged() throws {
        let path = folder.file("shared.sqlite")
        _ = try TodoRepository(path: path)
        chmod(path, 0o644)
        _ = try TodoRepository(path: path)
        #expect(folder.mode(path) == 0o644)
    }
}
