import Foundation
import TestSupport
import Testing

/// `todo watch`, seen from outside: its JSON lines rebuild `todo list --json` exactly.
@Suite(.timed) struct WatchTests {
    let sandbox = CLISandbox()

    private func json(_ line: String?) throws -> [String: Any] {
        let line = try #require(line, "no line from todo watch")
        return try parseJSON(line, as: [String: Any].self, "todo watch's line")
    }

    /// The `changes` of the next line; throws when there is none (never an empty list).
    private func changes(_ line: String?) throws -> [[String: Any]] {
        try field(try json(line), "changes", as: [[String: Any]].self)
    }

    /// Runs the sqlite3 shell on the sandbox's database and requires success.
    private func sqlite(_ sql: String) throws {
        let shell = try ProcessRunner.run("sqlite3", [sandbox.database, sql])
        #expect(shell.status == 0, "sqlite3 \(sql): \(shell.stderr)")
    }

    private func startWatch(_ arguments: String...) throws -> RunningProcess {
        try RunningProcess(ProcessRunner.todoBinary, ["watch"] + arguments, environment: ["TODO_DB": sandbox.database])
    }

    /// The batch semantics of `todo watch --json` (SnapshotDifference's, in flat list indexes),
    /// written independently of the Swift diff: remove deletes and move sources (highest
    /// `from` first), insert inserts and move targets (lowest `to` first), then replace updates
    /// at `to`. Also checks that no index is reported twice.
    static func apply(_ changes: [[String: Any]], to list: [[String: Any]]) -> [[String: Any]] {
        var list = list
        let removals = changes.filter { ["delete", "move"].contains($0["type"] as? String) }.compactMap {
            $0["from"] as? Int
        }
        let additions = changes.filter { ["insert", "move"].contains($0["type"] as? String) }
        #expect(Set(removals).count == removals.count, "an old index reported twice: \(changes)")
        #expect(
            Set(additions.compactMap { $0["to"] as? Int }).count == additions.count,
            "a new index reported twice: \(changes)")
        #expect(Set(changes.compactMap { $0["id"] as? Int }).count == changes.count, "an id reported twice: \(changes)")
        for index in removals.sorted(by: >) { list.remove(at: index) }
        for change in additions.sorted(by: { ($0["to"] as? Int ?? 0) < ($1["to"] as? Int ?? 0) }) {
            list.insert(change["todo"] as? [String: Any] ?? [:], at: change["to"] as? Int ?? 0)
        }
        for change in changes where change["type"] as? String == "update" {
            list[change["to"] as? Int ?? 0] = change["todo"] as? [String: Any] ?? [:]
        }
        return list
    }

    private func ids(_ list: [[String: Any]]) -> [String] {
        list.map { "\($0["id"] ?? "")|\($0["name"] ?? "")|\($0["deadline"] ?? "")|\($0["done"] ?? "")" }
    }

    @Test func jsonLinesRebuildTheListAfterEveryTransaction() throws {
        _ = try sandbox.ok("add", "Buy milk", "--due", "2024-05-01")
        let watch = try startWatch("--json")
        var list = try field(try json(watch.nextLine()), "items", as: [[String: Any]].self)
        #expect(ids(list) == ids(try sandbox.listJSON()))

        let seed = TestSeed.make("jsonLinesRebuildTheListAfterEveryTransaction")
        var generator = SeededGenerator(seed: seed)
        var transactions = 0
        for step in 0..<36 {
            let before = ids(try sandbox.listJSON())
            if step % 3 == 0 {
                // A second todo.
                let id = String(Int.random(in: 1...10, using: &generator))
                let command: [String] = [
                    ["add", "t\(step)", "--due", "2024-05-\(10 + step % 18)"], ["done", id], ["rm", id]
                ][step % 9 / 3]
                _ = try sandbox.todo(command)
            } else {
                // The sqlite3 shell, one to three statements in one transaction.
                let statements = (0..<Int.random(in: 1...3, using: &generator)).map { _ in
                    RandomSQL.statement(using: &generator)
                }
                let shell = try ProcessRunner.run(
                    "sqlite3", [sandbox.database, "BEGIN; " + statements.joined(separator: "; ") + "; COMMIT;"])
                #expect(shell.status == 0, "\(shell.stderr)")
            }
            let expected = try sandbox.listJSON()
            guard ids(expected) != before else { continue }
            let changes = try self.changes(watch.nextLine())
            #expect(!changes.isEmpty)
            list = Self.apply(changes, to: list)
            #expect(ids(list) == ids(expected), "seed \(seed) step \(step)")
            transactions += 1
        }
        #expect(transactions >= 20, "too few transactions changed the list: \(transactions)")
        #expect([0, 130].contains(watch.interrupt()))
    }

    @Test func singleEditsAreSingleChanges() throws {
        for (name, day) in [("a", "01"), ("b", "02"), ("c", "03")] {
            _ = try sandbox.ok("add", name, "--due", "2024-05-\(day)")
        }
        let watch = try startWatch("--json")
        #expect(try json(watch.nextLine())["items"] != nil, "todo watch did not print the list first")
        try sqlite("UPDATE todos SET name = 'B' WHERE id = 2")
        let rename = try changes(watch.nextLine())
        #expect(rename.count == 1)
        #expect(rename.first?["type"] as? String == "update")
        try sqlite("UPDATE todos SET deadline = '2024-06-01' WHERE id = 1")
        let reorder = try changes(watch.nextLine())
        #expect(reorder.count == 1)
        #expect(reorder.first?["type"] as? String == "move")
        #expect(reorder.first?["from"] as? Int == 0)
        #expect(reorder.first?["to"] as? Int == 2)
        #expect((reorder.first?["todo"] as? [String: Any])?["deadline"] as? String == "2024-06-01")
    }

    @Test func aRolledBackTransactionPrintsNothing() throws {
        let watch = try startWatch("--json")
        #expect(try json(watch.nextLine())["items"] != nil, "todo watch did not print the list first")
        try sqlite("BEGIN; INSERT INTO todos (name) VALUES ('never'); ROLLBACK;")
        _ = try sandbox.ok("add", "real")
        let changes = try self.changes(watch.nextLine())
        #expect(changes.count == 1)
        #expect((changes.first?["todo"] as? [String: Any])?["name"] as? String == "real")
    }

    @Test func textFormShowsOneLinePerChange() throws {
        _ = try sandbox.ok("add", "Buy milk")
        let watch = try startWatch()
        #expect(watch.nextLine()?.contains("Buy milk") == true)
        #expect(watch.nextLine()?.hasPrefix("Watching") == true)
        _ = try sandbox.ok("add", "Buy eggs")
        #expect(watch.nextLine() == "+ 2  Buy eggs")
        _ = try sandbox.ok("done", "1")
        #expect(watch.nextLine() == "✓ 1  Buy milk")
        _ = try sandbox.ok("rm", "2")
        #expect(watch.nextLine() == "- 2  Buy eggs")
        #expect(watch.interrupt() == 130)
    }

    /// Issue 25, bug 1: the list watch prints first has an id column as wide as the widest id
    /// it shows, as `todo list`'s; a larger id arriving later is a summary line, not a row.
    @Test func theListsIdColumnIsAsWideAsItsWidestId() throws {
        for name in (1...12).map({ "todo \($0)" }) { _ = try sandbox.ok("add", name) }
        _ = try sandbox.ok("done", "10-12")
        let watch = try startWatch("--undone")
        #expect(watch.nextLine() == "  1  [ ]              todo 1")
        for _ in 2...9 { _ = watch.nextLine() }
        #expect(watch.nextLine()?.hasPrefix("Watching") == true)
        _ = try sandbox.ok("add", "todo 13")
        #expect(watch.nextLine() == "+ 13  todo 13")
        #expect(watch.interrupt() == 130)
    }

    /// Issue 35: the rows watch prints first, and its change lines, name their list as `todo
    /// list`'s rows do (several lists, not one asked for, not grouped by list).
    @Test func theRowsNameTheirListAsTodoListsDo() throws {
        _ = try sandbox.ok("add", "Buy milk")
        _ = try sandbox.ok("lists", "new", "Work")
        _ = try sandbox.ok("add", "Report", "--list", "Work")
        let watch = try startWatch()
        #expect(watch.nextLine() == "  1  [ ]              Buy milk  in Todos")
        #expect(watch.nextLine() == "  2  [ ]              Report  in Work")
        #expect(watch.nextLine()?.hasPrefix("Watching") == true)
        _ = try sandbox.ok("add", "Slides", "--list", "Work")
        #expect(watch.nextLine() == "+ 3  Slides  in Work")
        _ = try sandbox.ok("move", "3", "--to", "Todos")
        #expect(watch.nextLine() == "~ 3  Slides  in Todos")
        #expect(watch.interrupt() == 130)
        let one = try startWatch("--list", "Work")
        #expect(one.nextLine() == "  2  [ ]              Report")
        #expect(one.interrupt() == 130)
    }

    @Test func aTodoLeavingAFilteredListReadsAsWhatHappenedToIt() throws {
        _ = try sandbox.ok("add", "Buy milk")
        _ = try sandbox.ok("add", "Buy eggs")
        let watch = try startWatch("--undone")
        #expect(watch.nextLine()?.contains("Buy milk") == true)
        #expect(watch.nextLine()?.contains("Buy eggs") == true)
        #expect(watch.nextLine()?.hasPrefix("Watching") == true)
        _ = try sandbox.ok("done", "1")
        #expect(watch.nextLine() == "✓ 1  Buy milk")  // done, not deleted
        _ = try sandbox.ok("rm", "2")
        #expect(watch.nextLine() == "- 2  Buy eggs")
        _ = try sandbox.ok("undone", "1")
        #expect(watch.nextLine() == "+ 1  Buy milk")
        #expect(watch.interrupt() == 130)
    }

    @Test func aStopSignalEndsBetweenLinesWithTheShellsStatus() throws {
        _ = try sandbox.ok("add", "x")
        let watch = try startWatch("--json")
        #expect(watch.nextLine() != nil)
        #expect(watch.interrupt() == 130)
    }

    /// Editors and file-sync tools save by renaming a new file over the old one: the watch
    /// follows the path to it, and says so in one error line when the file is deleted.
    @Test func followsAReplacedFileAndStopsWhenItIsDeleted() throws {
        _ = try sandbox.ok("add", "Buy milk")
        let watch = try startWatch()
        #expect(watch.nextLine()?.contains("Buy milk") == true)
        #expect(watch.nextLine()?.hasPrefix("Watching") == true)
        let saved = sandbox.folder.file("saved.sqlite")
        let made = try ProcessRunner.run(
            ProcessRunner.todoBinary, ["add", "Buy oat milk"], environment: ["TODO_DB": saved])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(rename(saved, sandbox.database) == 0)
        #expect(watch.nextLine() == "~ 1  Buy oat milk")
        _ = try sandbox.ok("add", "Call mum")
        #expect(watch.nextLine() == "+ 2  Call mum")
        for suffix in ["", "-wal", "-shm"] { unlink(sandbox.database + suffix) }
        let status = watch.waitForExit()
        #expect(status == 1)
        #expect(watch.errorOutput == "error: \(sandbox.database) was deleted or moved away\n")
        if status == nil { _ = watch.interrupt() }
    }

    /// A Ctrl-C that comes while the watch is still starting (it was once lost there, in the
    /// gap before the signal source was registered, and the watch never ended) ends it too.
    @Test func aStopSignalDuringStartIsNeverLost() throws {
        _ = try sandbox.ok("add", "x")
        for attempt in 0..<12 {
            let watch = try startWatch(attempt.isMultiple(of: 2) ? "--json" : "--undone")
            usleep(UInt32(attempt) * 2_000)  // 0 to 22 ms: before, during and after the first print
            // 130: caught and stopped cleanly; 2 (SIGINT's number, ended by the signal): it came
            // before `todo` reached main. 137 would mean it was lost and the watch was killed.
            let status = watch.interrupt(timeout: 5)
            #expect(status == 130 || status == SIGINT, "attempt \(attempt): status \(status)")
        }
    }
}
