import Foundation
import TestSupport
import Testing
import TodoStore

/// Many writers at once, and a lock held by another client: every acknowledged write lands
/// exactly once, a short lock is waited out, a long one is a clear, bounded `busy` error.
@Suite(.timed) struct ReliabilityConcurrencyTests {
    let sandbox = CLISandbox()

    static let processes = 8
    static let addsPerProcess = 50

    /// One writer: a shell loop of `todo add`, printing "name status id" per add. It waits for
    /// the `go` file, so all writers start together.
    private static let writerScript = #"""
        while [ ! -e "$GO" ]; do sleep 0.005; done
        for i in $(seq 1 "$COUNT"); do
            name="writer $WRITER todo $i"
            id=$("$TODO" add "$name" 2>>"$ERRORS")
            echo "$WRITER $i $? $id"
        done
        """#

    @Test("8 processes x 50 adds at once: 400 acknowledged, 400 distinct todos, unique ids")
    func concurrentWritersLoseAndDuplicateNothing() throws {
        let clock = Date()
        let go = sandbox.folder.file("go")
        let errors = sandbox.folder.file("errors.txt")
        // The file exists (empty list); creating it in a race is `concurrentFirstUse`.
        _ = try sandbox.ok("list")
        let writers = try (1...Self.processes).map { writer in
            try LaunchedProcess(
                "bash", ["-c", Self.writerScript],
                environment: [
                    "GO": go, "ERRORS": errors, "COUNT": "\(Self.addsPerProcess)", "WRITER": "\(writer)",
                    "TODO": ProcessRunner.todoBinary, "TODO_DB": sandbox.database, "HOME": sandbox.folder.path
                ], outputFolder: sandbox.folder)
        }
        #expect(FileManager.default.createFile(atPath: go, contents: nil))
        let outcomes = writers.map { $0.wait(timeout: 120) }

        var acknowledged: [String: Int] = [:]
        for (index, outcome) in outcomes.enumerated() {
            #expect(outcome.status == 0 && !outcome.timedOut, "writer \(index + 1) ended badly: \(outcome)")
            for line in outcome.stdout.split(separator: "\n") {
                let fields = line.split(separator: " ", omittingEmptySubsequences: false)
                guard fields.count == 4 else {
                    Issue.record("writer \(index + 1) printed \(line)")
                    continue
                }
                #expect(fields[2] == "0", "add \(fields[0])/\(fields[1]) failed with status \(fields[2])")
                if fields[2] == "0", let id = Int(fields[3]) {
                    acknowledged["writer \(fields[0]) todo \(fields[1])"] = id
                }
            }
        }
        let stderr = String(decoding: sandbox.folder.contents(errors) ?? Data(), as: UTF8.self)
        #expect(stderr.isEmpty, "writers reported errors: \(stderr.prefix(2000))")

        let total = Self.processes * Self.addsPerProcess
        #expect(acknowledged.count == total)
        #expect(Set(acknowledged.values).count == total, "two adds printed the same id")
        let list = try sandbox.listJSON()
        #expect(list.count == total)
        let stored = Dictionary(list.map { ($0["name"] as? String ?? "", $0["id"] as? Int ?? -1) }) { first, _ in first
        }
        #expect(stored.count == total, "names are not distinct")
        #expect(Set(list.compactMap { $0["id"] as? Int }).count == total, "ids are not unique")
        #expect(stored == acknowledged, "the list differs from what the adds printed")
        #expect(try Reliability.integrity(sandbox.database) == "ok")
        Reliability.report(
            "concurrent writers",
            "\(Self.processes) processes x \(Self.addsPerProcess) adds = \(total) acknowledged and stored in \(String(format: "%.1f", Date().timeIntervalSince(clock))) s"
        )
    }

    static let firstUseRounds = 20

    @Test("8 processes x 1 add on a file that does not exist yet, 20 rounds: every add succeeds")
    func concurrentFirstUse() throws {
        var failures: [String] = []
        for round in 0..<Self.firstUseRounds {
            let database = sandbox.folder.file("first-use-\(round).sqlite")
            let go = sandbox.folder.file("go-\(round)")
            let writers = try (1...Self.processes).map { writer in
                try LaunchedProcess(
                    "bash", ["-c", #"while [ ! -e "$GO" ]; do sleep 0.002; done; exec "$TODO" add "$NAME""#],
                    environment: [
                        "GO": go, "NAME": "writer \(writer)", "TODO": ProcessRunner.todoBinary, "TODO_DB": database,
                        "HOME": sandbox.folder.path
                    ], outputFolder: sandbox.folder)
            }
            #expect(FileManager.default.createFile(atPath: go, contents: nil))
            let outcomes = writers.map { $0.wait(timeout: 30) }
            for outcome in outcomes where outcome.status != 0 {
                failures.append(
                    "round \(round): exit \(String(describing: outcome.status)): \(outcome.stderrLines.first ?? "")")
            }
            // Whatever failed, the file is sound and holds exactly the acknowledged adds.
            let acknowledged = outcomes.filter { $0.status == 0 }.count
            #expect(try Reliability.integrity(database) == "ok")
            #expect(try Reliability.scalar(database, "SELECT count(*) FROM todos") == acknowledged)
            if acknowledged > 0 {
                #expect(try Reliability.scalar(database, "PRAGMA user_version") == Migrator().latestVersion)
            }
        }
        // Guards two races of TodoRepository.init: the ownership check must read the version
        // and the table count in one snapshot, and `PRAGMA journal_mode = wal`, for which SQLite
        // calls no busy handler, must wait out another process's lock itself.
        #expect(
            failures.isEmpty,
            "\(failures.count) of \(Self.firstUseRounds * Self.processes) first adds failed: \(failures.prefix(5))")
        Reliability.report(
            "first use",
            "\(Self.firstUseRounds) rounds x \(Self.processes) processes on a new file: \(failures.count) adds failed")
    }

    // MARK: A lock held by another client

    /// Python's sqlite3 as another client: takes the write lock (`BEGIN IMMEDIATE`), inserts a
    /// row, prints "locked", holds it for `seconds`, then commits or rolls back and closes.
    private func holdWriteLock(seconds: Double, commit: Bool) throws -> RunningProcess {
        let script = """
            import sqlite3, sys, time
            connection = sqlite3.connect(sys.argv[1], isolation_level=None)
            connection.execute("BEGIN IMMEDIATE")
            connection.execute("INSERT INTO todos (name) VALUES ('from the lock holder')")
            print("locked", flush=True)
            time.sleep(float(sys.argv[2]))
            connection.execute("\(commit ? "COMMIT" : "ROLLBACK")")
            connection.close()
            print("released", flush=True)
            """
        let holder = try RunningProcess(
            try ProcessRunner.which("python3"), ["-c", script, sandbox.database, "\(seconds)"])
        #expect(holder.nextLine(timeout: 10) == "locked", "the lock holder did not start")
        return holder
    }

    @Test("A write lock held 1.5 s is waited out: the add succeeds after it")
    func aShortLockIsWaitedOut() throws {
        _ = try sandbox.ok("add", "before")
        let holder = try holdWriteLock(seconds: 1.5, commit: true)
        let clock = Date()
        let add = try sandbox.todo("add", "during the lock")
        let elapsed = Date().timeIntervalSince(clock)
        #expect(add.status == 0, "\(add.stderr)")
        #expect(add.stderr.isEmpty)
        #expect(holder.nextLine(timeout: 10) == "released")
        // The order of the commits, not a stopwatch, shows the add waited: the holder's row,
        // inserted under the lock, took id 2 when it committed, so the add came after it.
        #expect(
            add.stdout == "3\n",
            "the add did not wait for the lock holder's commit: it printed \(add.stdout.debugDescription)")
        let list = try sandbox.listJSON()
        #expect(
            list.map { "\($0["id"] ?? "-") \($0["name"] ?? "-")" }.sorted() == [
                "1 before", "2 from the lock holder", "3 during the lock"
            ])
        #expect(try Reliability.integrity(sandbox.database) == "ok")
        Reliability.report("short lock", "waited \(String(format: "%.2f", elapsed)) s, then added")
    }

    @Test(
        "A write lock held 9 s: the add gives up before the lock is released, with one 'busy' error line; nothing changes"
    )
    func aLongLockIsABoundedBusyError() throws {
        _ = try sandbox.ok("add", "before")
        let before = try Reliability.dump(sandbox.database)
        let holder = try holdWriteLock(seconds: 9, commit: false)
        let clock = Date()
        let add = try sandbox.todo("add", "during the lock")
        let elapsed = Date().timeIntervalSince(clock)
        // A busy error at all means the add gave up while the lock was held (had it waited for
        // the release it would have succeeded). How long it waits (the 5 s busy timeout) is a
        // figure, printed below, not asserted: a stopwatch flakes on a loaded 2-core machine.
        Reliability.expectOneError(add, status: 1, mentioning: ["busy"], "todo add under a held lock")
        #expect(add.stdout.isEmpty)
        // A reader is not blocked by the writer (WAL): list works while the lock is held.
        let list = try sandbox.todo("list", "--json")
        #expect(list.status == 0, "\(list.stderr)")
        #expect(holder.nextLine(timeout: 15) == "released")
        #expect(try Reliability.dump(sandbox.database) == before, "the database changed")
        #expect(try Reliability.integrity(sandbox.database) == "ok")
        // And the next add works.
        #expect(try sandbox.ok("add", "after").trimmingCharacters(in: .whitespacesAndNewlines) == "2")
        Reliability.report("long lock", "busy error after \(String(format: "%.2f", elapsed)) s")
    }
}
