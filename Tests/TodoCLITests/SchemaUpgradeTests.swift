import Foundation
import TestSupport
import Testing

/// A file from before issue 26 (schema version 6, made by the sqlite3 shell from the migrations
/// of the time): `todo check` reads it as an older version, not as a damaged one; the next write
/// upgrades it, keeping its todos; undo history from before is dropped (its changesets are of
/// four columns), and todos another program inserts by name still work.
@Suite(.timed) struct SchemaUpgradeTests {
    let sandbox = CLISandbox()

    @Test func aVersionSixFileIsCheckedReadAndUpgradedKeepingItsTodos() throws {
        let migrations = ProcessRunner.packageRoot + "/Migrations"
        let old = try FileManager.default.contentsOfDirectory(atPath: migrations).filter { $0.hasSuffix(".sql") }
            .sorted().prefix(6)
        let sql =
            "\n"  // not "--...": the shell would read that as an option
            + (try old.map { try String(contentsOfFile: migrations + "/" + $0, encoding: .utf8) }.joined(
                separator: "\n"))
                + """
                PRAGMA user_version = 6;
                INSERT INTO todos (name, deadline, done) VALUES ('Buy milk', '2024-05-01', 0), ('Paid', NULL, 1);
                INSERT INTO todo_history (command, changeset) VALUES ('add', x'00');
                """
        _ = try Reliability.sqlite(sandbox.database, sql)

        let check = try sandbox.todo("check")
        #expect(check.status == 0, "\(check.stdout) \(check.stderr)")
        #expect(check.stdout.contains("schema: version 6 (this todo knows"), "\(check.stdout)")

        #expect(try sandbox.ok("list").contains("Buy milk"))
        _ = try sandbox.ok("add", "New one")
        let todos = try sandbox.listJSON()
        #expect(todos.map { $0["name"] as? String } == ["Buy milk", "Paid", "New one"])
        #expect(
            try Reliability.sqlite(sandbox.database, "SELECT count(*) FROM todo_history").stdout == "1\n",
            "the history from before is dropped; the new add is in it")
        _ = try Reliability.sqlite(sandbox.database, "INSERT INTO todos(name) VALUES ('from the shell')")
        #expect(try sandbox.listJSON().count == 4)
        #expect(try sandbox.todo("check").stdout.contains("(current)"))
    }
}
