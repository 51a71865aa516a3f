import CSQLite
import Foundation
import TestSupport
import Testing

@testable import SQLite

@Suite(.timed) struct TransactionTests {
    let folder = TemporaryFolder()

    private func makeDatabase(_ name: String = "tx.sqlite") throws -> Connection {
        let db = try Connection(path: folder.file(name))
        try db.setJournalMode(.wal)
        try db.execute("CREATE TABLE IF NOT EXISTS t (x INTEGER)")
        return db
    }

    private func count(_ db: Connection) throws -> Int64 {
        try db.cachedStatement("SELECT count(*) FROM t").scalarInt64() ?? -1
    }

    struct Boom: Error {}

    @Test func commitsWhenTheBodyReturns() throws {
        let db = try makeDatabase()
        try db.transaction { try db.execute("INSERT INTO t VALUES (1)", []) }
        #expect(try count(db) == 1)
        #expect(!db.isInTransaction)
    }

    @Test func rollsBackWhenTheBodyThrows() throws {
        let db = try makeDatabase()
        #expect(throws: Boom.self) {
            try db.transaction {
                try db.execute("INSERT INTO t VALUES (1)", [])
                throw Boom()
            }
        }
        #expect(try count(db) == 0)
        #expect(!db.isInTransaction)
    }

    @Test func nestedTransactionsBecomeSavepoints() throws {
        let db = try makeDatabase()
        try db.transaction {
            try db.execute("INSERT INTO t VALUES (1)", [])
            #expect(throws: Boom.self) {
                try db.transaction {
                    try db.execute("INSERT INTO t VALUES (2)", [])
                    throw Boom()
                }
            }
            #expect(db.isInTransaction)
        }
        // The inner failure undid only the inner insert.
        #expect(try count(db) == 1)
    }

    @Test func immediateTransactionsWaitThenReportBusy() throws {
        let holder = try makeDatabase("busy.sqlite")
        var options = Connection.Options()
        options.busyTimeoutMilliseconds = 200
        let waiter = try Connection(path: folder.file("busy.sqlite"), options: options)
        try holder.execute("BEGIN IMMEDIATE", [])
        let start = ContinuousClock.now
        let error = #expect(throws: SQLiteError.self) {
            try waiter.transaction { try waiter.execute("INSERT INTO t VALUES (1)", []) }
        }
        let waited = ContinuousClock.now - start
        #expect(error?.isBusy == true)
        // A lower bound on the waiter's own 200 ms timeout, on a monotonic clock: it shows the
        // transaction waited before giving up, and load can only lengthen the wait, never make
        // it fail. (No upper bound: that would be a speed figure, and flake on 2 cores.)
        #expect(waited >= .milliseconds(150))
        try holder.execute("ROLLBACK", [])
        // Once the lock is released the same connection writes normally.
        try waiter.transaction { try waiter.execute("INSERT INTO t VALUES (1)", []) }
        #expect(try count(holder) == 1)
    }

    @Test func readersSeeOnlyCommittedData() throws {
        let writer = try makeDatabase("readers.sqlite")
        let reader = try Connection(path: folder.file("readers.sqlite"))
        try writer.execute("BEGIN IMMEDIATE", [])
        try writer.execute("INSERT INTO t VALUES (1)", [])
        #expect(try count(reader) == 0)
        try writer.execute("COMMIT", [])
        #expect(try count(reader) == 1)
    }
}
