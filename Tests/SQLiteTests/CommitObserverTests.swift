import Foundation
import TestSupport
import Testing

@testable import SQLite

@Suite(.timed) struct CommitObserverTests {
    let folder = TemporaryFolder()

    /// A WAL database with two tables and a log of what the observer saw.
    private func makeDatabase() throws -> (Connection, Log) {
        let db = try Connection(path: folder.file("observed.sqlite"))
        try db.setJournalMode(.wal)
        try db.execute("CREATE TABLE todos (x INTEGER); CREATE TABLE other (y INTEGER)")
        let log = Log()
        log.token = db.addCommitObserver { log.commits.append($0) }
        return (db, log)
    }

    final class Log {
        var commits: [CommittedTransaction] = []
        var token: CommitObserverToken?
    }

    @Test func anAutocommitWriteIsOneCommit() throws {
        let (db, log) = try makeDatabase()
        try db.execute("INSERT INTO todos VALUES (1)", [])
        #expect(log.commits == [CommittedTransaction(tables: ["todos"], rowIDs: ["todos": [1]])])
    }

    @Test func aTransactionIsOneCommitNamingEveryTable() throws {
        let (db, log) = try makeDatabase()
        try db.transaction {
            try db.execute("INSERT INTO todos VALUES (1)", [])
            try db.execute("INSERT INTO todos VALUES (2)", [])
            try db.execute("INSERT INTO other VALUES (3)", [])
            #expect(log.commits.isEmpty, "nothing is announced before the commit")
        }
        #expect(
            log.commits == [CommittedTransaction(tables: ["todos", "other"], rowIDs: ["todos": [1, 2], "other": [1]])])
    }

    @Test func aRolledBackTransactionIsNeverAnnounced() throws {
        let (db, log) = try makeDatabase()
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try db.transaction {
                try db.execute("INSERT INTO todos VALUES (1)", [])
                throw Stop()
            }
        }
        try db.execute("INSERT INTO other VALUES (1)", [])
        // The rolled-back table does not leak into the next commit.
        #expect(log.commits == [CommittedTransaction(tables: ["other"], rowIDs: ["other": [1]])])
    }

    @Test func aSavepointRolledBackOnItsOwnIsNoCommit() throws {
        let (db, log) = try makeDatabase()
        struct Stop: Error {}
        // Outside a transaction a savepoint starts one; ROLLBACK TO then RELEASE ends it.
        #expect(throws: Stop.self) {
            try db.savepoint {
                try db.execute("INSERT INTO todos VALUES (1)", [])
                throw Stop()
            }
        }
        // The same in SQL of the app's own.
        try db.execute("SAVEPOINT mine; INSERT INTO other VALUES (1); ROLLBACK TO mine; RELEASE mine")
        #expect(log.commits.isEmpty)
        try db.execute("INSERT INTO other VALUES (2)", [])
        #expect(log.commits == [CommittedTransaction(tables: ["other"], rowIDs: ["other": [1]])])
    }

    @Test func aPartialRollbackAnnouncesOnlyWhatStayed() throws {
        let (db, log) = try makeDatabase()
        struct Stop: Error {}
        try db.transaction {
            try db.execute("INSERT INTO todos VALUES (1)", [])
            #expect(throws: Stop.self) {
                try db.transaction {  // nested: a savepoint
                    try db.execute("INSERT INTO todos VALUES (2)", [])
                    try db.execute("INSERT INTO other VALUES (3)", [])
                    throw Stop()
                }
            }
            try db.execute("INSERT INTO todos VALUES (4)", [])
        }
        // Rows 1 and 3 of todos (rowid 2 was rolled back and given out again); nothing in other.
        #expect(log.commits == [CommittedTransaction(tables: ["todos"], rowIDs: ["todos": [1, 2]])])
        // Quoted and nested names, in SQL: only the inner savepoint's work is rolled back.
        try db.execute(
            """
            SAVEPOINT "Outer"; INSERT INTO other VALUES (5);
            SAVEPOINT inner; DELETE FROM todos; ROLLBACK TRANSACTION TO SAVEPOINT INNER;
            RELEASE SAVEPOINT outer
            """)
        #expect(log.commits.last == CommittedTransaction(tables: ["other"], rowIDs: ["other": [1]]))
    }

    @Test func rowIDsAreListedUpToTheLimitThenUnknown() throws {
        let (db, log) = try makeDatabase()
        try db.transaction {
            for value in 0...CommittedTransaction.rowIDLimit {
                try db.execute("INSERT INTO todos VALUES (?)", [Int64(value)])
            }
            try db.execute("INSERT INTO other VALUES (1)", [])
        }
        #expect(log.commits == [CommittedTransaction(tables: ["todos", "other"], rowIDs: ["other": [1]])])
        #expect(log.commits.first?.changedRowIDs(in: "todos") == nil, "too many: unknown")
        #expect(log.commits.first?.changedRowIDs(in: "other") == [1])
        #expect(log.commits.first?.changedRowIDs(in: "missing") == [])
    }

    @Test func readsAndFailedWritesAreNotCommits() throws {
        let (db, log) = try makeDatabase()
        _ = try db.cachedStatement("SELECT count(*) FROM todos").scalarInt64()
        #expect(throws: SQLiteError.self) { try db.execute("INSERT INTO missing VALUES (1)", []) }
        #expect(log.commits.isEmpty)
    }

    @Test func theHandlerMayReadThroughTheConnection() throws {
        let db = try Connection(path: folder.file("reentrant.sqlite"))
        try db.setJournalMode(.wal)
        try db.execute("CREATE TABLE todos (x INTEGER)")
        var counts: [Int64] = []
        db.addCommitObserver { _ in
            counts.append((try? db.cachedStatement("SELECT count(*) FROM todos").scalarInt64()) ?? -1)
        }
        try db.execute("INSERT INTO todos VALUES (1)", [])
        try db.execute("INSERT INTO todos VALUES (2)", [])
        #expect(counts == [1, 2])
    }

    @Test func anUnqualifiedDeleteIsReportedAsUnknownTables() throws {
        let (db, log) = try makeDatabase()
        try db.execute("INSERT INTO todos VALUES (1)", [])
        try db.execute("DELETE FROM todos", [])
        #expect(log.commits.count == 2)
        #expect(log.commits.last?.mayHaveChanged("todos") == true)
    }

    @Test func dataVersionMovesOnlyForOtherConnectionsCommits() throws {
        let (db, _) = try makeDatabase()
        let before = try db.dataVersion()
        try db.execute("INSERT INTO todos VALUES (1)", [])
        #expect(try db.dataVersion() == before)
        let other = try Connection(path: db.path)
        try other.execute("INSERT INTO todos VALUES (2)", [])
        #expect(try db.dataVersion() != before)
    }

    @Test func removedObserversAreNotCalledAndOthersStillAre() throws {
        let (db, log) = try makeDatabase()
        var second = 0
        let token = db.addCommitObserver { _ in second += 1 }
        try db.execute("INSERT INTO todos VALUES (1)", [])
        db.removeCommitObserver(try #require(log.token))
        try db.execute("INSERT INTO todos VALUES (2)", [])
        #expect(log.commits.count == 1)
        #expect(second == 2)
        db.removeCommitObserver(token)
        try db.execute("INSERT INTO todos VALUES (3)", [])
        #expect(second == 2)
    }

    /// The observer works through the commit hook, not `sqlite3_wal_hook` (which replaces
    /// SQLite's automatic checkpoint): with an observer registered, SQLite's own checkpoint
    /// (every 1,000 pages) still keeps the log bounded.
    @Test func observingCommitsLeavesSQLitesAutomaticCheckpointAtWork() throws {
        let (db, _) = try makeDatabase()
        // No fsync per commit: durability is not what is tested, and 3,000 fsyncs take seconds.
        try db.execute("PRAGMA synchronous = OFF")
        // 3,000 one-page commits: without a checkpoint the -wal file would pass 12 MB.
        for value in 0..<3_000 { try db.execute("INSERT INTO todos VALUES (?)", [value]) }
        // The file must be there to be measured: a missing one is not a small one.
        let attributes = try FileManager.default.attributesOfItem(atPath: db.path + "-wal")
        let size = try #require((attributes[.size] as? NSNumber)?.intValue, "no size for the -wal file: \(attributes)")
        #expect(size < 1_100 * 4_096 + 32_768)
    }
}
