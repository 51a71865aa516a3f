import Foundation
import TestSupport
import Testing

/// The file is a plain SQLite database that other clients share.
@Suite(.timed) struct InteropTests {
    let sandbox = CLISandbox()

    @Test func theSQLiteShellReadsTheFile() throws {
        _ = try sandbox.ok("add", "Buy milk", "--due", "2024-05-01")
        let result = try ProcessRunner.run("sqlite3", [sandbox.database, "SELECT id, name, deadline, done FROM todos"])
        #expect(result.status == 0)
        #expect(result.stdout == "1|Buy milk|2024-05-01|0\n")
    }

    @Test func aRowInsertedByPythonWithOnlyANameShowsUp() throws {
        _ = try sandbox.ok("add", "first")
        let script = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("INSERT INTO todos(name) VALUES ('from python')")
            db.commit()
            """
        let python = try ProcessRunner.run("python3", ["-c", script, sandbox.database])
        #expect(python.status == 0, "\(python.stderr)")
        let list = try sandbox.listJSON()
        #expect(list.map { $0["name"] as? String } == ["first", "from python"])
        #expect(list.last?["done"] as? Bool == false)
        #expect(list.last?["deadline"] is NSNull)
    }

    @Test func aDeadlineReadsBackTheSameInEveryTimeZone() throws {
        let zones = ["UTC", "Pacific/Kiritimati", "Etc/GMT+12", "Asia/Tokyo", "America/St_Johns", "Europe/Lisbon"]
        for (index, zone) in zones.enumerated() {
            _ = try sandbox.ok("add", "t\(index)", "--due", "2024-03-31", environment: ["TZ": zone])
        }
        for zone in zones {
            let deadlines = try sandbox.ok(["list", "--json"], environment: ["TZ": zone])
            let list = try parseJSON(deadlines, as: [[String: Any]].self, "todo list --json under TZ=\(zone)")
            #expect(
                list.map { $0["deadline"] as? String } == Array(repeating: "2024-03-31", count: zones.count),
                "under TZ=\(zone)")
        }
        let stored = try ProcessRunner.run("sqlite3", [sandbox.database, "SELECT DISTINCT deadline FROM todos"])
        #expect(stored.stdout == "2024-03-31\n")
    }
}
