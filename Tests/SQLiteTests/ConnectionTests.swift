import CSQLite
import Foundation
import TestSupport
import Testing

@testable import SQLite

@Suite(.timed) struct ConnectionTests {
    let folder = TemporaryFolder()

    @Test func bindsAndReadsEveryType() throws {
        let db = try Connection(path: folder.file("types.sqlite"))
        try db.execute("CREATE TABLE t (i INTEGER, r REAL, s TEXT, n TEXT, b INTEGER)")
        let text = "naïve 日本語 🎉 with a \0 NUL inside"
        try db.execute(
            "INSERT INTO t VALUES (?, ?, ?, ?, ?)",
            [Int64.max, 2.5, text, String?.none, true])
        let statement = try db.prepare("SELECT i, r, s, n, b FROM t")
        var rows = 0
        try statement.forEachRow { row in
            #expect(row.int64(0) == Int64.max)
            #expect(row.double(1) == 2.5)
            #expect(row.string(2) == text)
            #expect(row.isNull(3))
            #expect(row.optionalString(3) == nil)
            #expect(row.bool(4))
            rows += 1
        }
        #expect(rows == 1)
    }

    @Test func cachedStatementsAreReused() throws {
        let db = try Connection(path: folder.file("cache.sqlite"))
        let first = try db.cachedStatement("SELECT 1")
        let second = try db.cachedStatement("SELECT 1")
        #expect(first === second)
        #expect(try db.cachedStatement("SELECT 2") !== first)
    }

    /// As GRDB does: no cached statement outlives the schema it was compiled against, whoever
    /// changed the schema (SQLite would recompile each one on its next step).
    @Test func cachedStatementsArePreparedAgainAfterTheSchemaChanges() throws {
        let db = try Connection(path: folder.file("schema.sqlite"))
        try db.execute("CREATE TABLE t (x INTEGER)")
        let count = try db.cachedStatement("SELECT count(*) FROM t")
        let insert = try db.cachedStatement("INSERT INTO t VALUES (?)")
        #expect(try db.cachedStatement("SELECT count(*) FROM t") === count)

        try db.execute("CREATE INDEX t_by_x ON t (x)")  // this connection
        let countAfter = try db.cachedStatement("SELECT count(*) FROM t")
        #expect(countAfter !== count)
        #expect(try db.cachedStatement("INSERT INTO t VALUES (?)") !== insert)
        #expect(try db.cachedStatement("SELECT count(*) FROM t") === countAfter, "cached again")

        let other = try Connection(path: db.path)  // another connection
        try other.execute("ALTER TABLE t ADD COLUMN y TEXT")
        #expect(try countAfter.scalarInt64() == 0)  // SQLite recompiles it: the change is seen here
        #expect(try db.cachedStatement("SELECT count(*) FROM t") !== countAfter)
    }

    @Test func errorsCarryCodesMessageAndSQL() throws {
        let db = try Connection(path: folder.file("errors.sqlite"))
        try db.execute("CREATE TABLE t (x TEXT NOT NULL)")
        let error = #expect(throws: SQLiteError.self) {
            try db.execute("INSERT INTO t (x) VALUES (?)", [String?.none])
        }
        #expect(error?.code == SQLITE_CONSTRAINT)
        #expect(error?.extendedCode == SQLITE_CONSTRAINT | (5 << 8))  // SQLITE_CONSTRAINT_NOTNULL
        #expect(error?.message.contains("NOT NULL") == true)
        #expect(error?.sql == "INSERT INTO t (x) VALUES (?)")
        #expect(error?.isConstraintViolation == true)
    }

    @Test func syntaxErrorsNameTheFailingStatementOfAScript() throws {
        let db = try Connection(path: folder.file("script.sqlite"))
        let error = #expect(throws: SQLiteError.self) {
            try db.execute("CREATE TABLE a (x); SELEC oops; CREATE TABLE b (y);")
        }
        #expect(error?.code == SQLITE_ERROR)
        #expect(error?.sql?.hasPrefix("SELEC oops") == true)
        // The statement before the error ran; the one after did not.
        #expect(try db.cachedStatement("SELECT count(*) FROM sqlite_schema").scalarInt64() == 1)
    }

    @Test func refusesAFileThatIsNotADatabaseWithoutWritingToIt() throws {
        let path = folder.file("notes.txt")
        let content = Data(String(repeating: "not a database, just my notes\n", count: 200).utf8)
        try content.write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: SQLiteError.self) { try Connection(path: path) }
        #expect(error?.isNotADatabase == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == content)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: path + "-journal"))
    }

    @Test func readWriteModeDoesNotCreateFiles() throws {
        var options = Connection.Options()
        options.mode = .readWrite
        let path = folder.file("missing.sqlite")
        let error = #expect(throws: SQLiteError.self) { try Connection(path: path, options: options) }
        #expect(error?.code == SQLITE_CANTOPEN)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func foreignKeysAreOnByDefault() throws {
        let db = try Connection(path: folder.file("fk.sqlite"))
        #expect(try db.pragmaInt64("foreign_keys") == 1)
        try db.execute("CREATE TABLE parent (id INTEGER PRIMARY KEY); CREATE TABLE child (p REFERENCES parent(id))")
        let error = #expect(throws: SQLiteError.self) { try db.execute("INSERT INTO child VALUES (42)", []) }
        #expect(error?.extendedCode == SQLITE_CONSTRAINT | (3 << 8))  // SQLITE_CONSTRAINT_FOREIGNKEY
    }

    @Test func walModeIsReportedBack() throws {
        let db = try Connection(path: folder.file("wal.sqlite"))
        #expect(try db.setJournalMode(.wal) == "wal")
    }
}
