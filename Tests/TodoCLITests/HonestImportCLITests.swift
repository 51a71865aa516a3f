import Foundation
import TestSupport
import Testing

/// Issue 37, points 1 and 3: an import says by name everything it did not keep, for every
/// format (`--verbose` says where each was), and a source's identity is kept, so that importing
/// again updates the todos instead of adding them twice, and `export`/`import` keeps ids.
@Suite(.timed) struct HonestImportCLITests {
    let sandbox = CLISandbox()
    let fixtures = ProcessRunner.packageRoot + "/Tests/TodoInteropTests/Fixtures"
    let utc = ["TZ": "UTC"]

    private func write(_ text: String, to name: String) throws -> String {
        let path = sandbox.folder.file(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func sql(_ query: String, _ database: String? = nil) throws -> String {
        let result = try ProcessRunner.run("sqlite3", [database ?? sandbox.database, query])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    /// Each format's summary names what it did not keep; on the main of before issue 37 the
    /// deleted task, the (K) priority, the JSON key and the iCalendar properties went unsaid.
    @Test func everyFormatsSummaryCountsWhatItDidNotKeep() throws {
        let tasks = try write(
            """
            [{"uuid":"a","description":"Old idea","status":"deleted"},
             {"uuid":"b","description":"Buy milk","status":"pending","start":"20240101T090000Z"}]
            """, to: "task.json")
        #expect(
            try sandbox.ok(["import", "--from", "taskwarrior", tasks], environment: utc)
                == "Imported 1 todo. Not kept: 1 deleted task, start: (when work began) on 1 todo.\n")

        let lines = try write("(K) Call Ann due:2024-05-01\nPlant bulbs t:2024-05-10 due:2024-05-01\n", to: "todo.txt")
        #expect(
            try sandbox.ok("import", lines)
                == "Imported 2 todos (read as todotxt). Not kept: t: after the due date on 1 todo, "
                + "priority (J) to (Z), read as (I) on 1 todo.\n")

        let json = try write(
            #"[{"name": "a", "colour": "red", "size": null}, {"name": "b", "parent": 9}]"#, to: "a.json")
        #expect(
            try sandbox.ok("import", json)
                == #"Imported 2 todos. Not kept: "colour" on 1 todo, parent not in the file on 1 todo."#
                + "\n")

        let ics = try write(
            """
            BEGIN:VCALENDAR
            VERSION:2.0
            PRODID:-//Example//Tasks//EN
            X-WR-CALNAME:Home
            BEGIN:VTODO
            UID:ics-1
            DTSTAMP:20240101T000000Z
            SUMMARY:Buy stamps
            LOCATION:Post office
            URL:https://example.com/stamps
            END:VTODO
            BEGIN:VEVENT
            UID:ev-1
            DTSTART:20240101T100000Z
            SUMMARY:Party
            END:VEVENT
            END:VCALENDAR

            """.replacingOccurrences(of: "\n", with: "\r\n"), to: "a.ics")
        #expect(
            try sandbox.ok("import", ics)
                == "Imported 1 todo. Not kept: 1 X-WR-CALNAME property, 1 event, 1 LOCATION property, 1 URL property.\n"
        )
    }

    /// The issue's 610-task import printed no "Not kept" line at all: a small import that drops
    /// something says so, and what it keeps of taskwarrior's attributes and annotations is in
    /// the note.
    @Test func aSmallImportThatDropsSomethingSaysSo() throws {
        let file = try write(
            """
            [{"uuid":"u1","description":"Write report","status":"pending","entry":"20240101T000000Z",
              "client":"ACME","estimate":3,"ticket":"T-101",
              "annotations":[{"entry":"20240501T102200Z","description":"Called the client"}]},
             {"uuid":"u2","description":"Old idea","status":"deleted","entry":"20240101T000000Z"},
             {"uuid":"u3","description":"Pay rent","status":"completed","entry":"20240101T000000Z","end":"20240102T000000Z"}]
            """, to: "task.json")
        let output = try sandbox.ok(["import", file], environment: utc)
        #expect(output == "Imported 2 todos (read as taskwarrior). Not kept: 1 deleted task.\n")
        let report = try #require(try sandbox.listJSON().first { $0["name"] as? String == "Write report" })
        #expect(
            report["note"] as? String == "2024-05-01 10:22 Called the client\nclient: ACME\nestimate: 3\nticket: T-101")
    }

    /// `--verbose` names each thing not kept by its record, uuid and name (made safe for a
    /// terminal), and each todo updated with the fields that changed.
    @Test func verboseSaysWhereEachWas() throws {
        let file = try write(
            """
            [{"uuid":"a","description":"Old \\u001b[31midea","status":"deleted"},
             {"uuid":"b","description":"Buy milk","status":"pending","until":"20990101T000000Z"}]
            """, to: "task.json")
        let output = try sandbox.ok(["import", "--verbose", "--from", "taskwarrior", file], environment: utc)
        #expect(
            output == """
                Imported 1 todo. Not kept: 1 deleted task, until: on 1 todo.
                not kept: record 1 (a) "Old ^[[31midea": deleted task
                not kept: record 2 (b) "Buy milk": until:

                """)
        #expect(!output.contains("\u{1B}"))
    }

    /// The same export twice adds nothing and says it found everything unchanged: the real
    /// tool's checked-in export, its deleted task counted each time.
    @Test func importingTheSameExportTwiceAddsNothing() throws {
        let file = fixtures + "/taskwarrior-export.json"
        let tokyo = ["TZ": "Asia/Tokyo"]
        #expect(
            try sandbox.ok(["import", "--from", "taskwarrior", file], environment: tokyo)
                == "Imported 6 todos. Not kept: 1 deleted task.\n")
        let before = try sql("SELECT * FROM todos ORDER BY id")
        #expect(
            try sandbox.ok(["import", "--from", "taskwarrior", file], environment: tokyo)
                == "Imported 0 new todos, updated 0, 6 unchanged. Not kept: 1 deleted task.\n")
        #expect(try sql("SELECT * FROM todos ORDER BY id") == before)
        #expect(try sql("SELECT count(*) FROM todo_uids") == "6\n")
    }

    /// A newer export of the same tasks updates the todos it names (what the file gives; the
    /// percent, which taskwarrior has not, stays), adds the new ones, and is one undo step.
    @Test func aChangedTaskReimportedUpdatesTheTodo() throws {
        let first = try write(
            """
            [{"uuid":"a","description":"Buy milk","status":"pending","priority":"L","entry":"20240101T000000Z"},
             {"uuid":"b","description":"Pay rent","status":"pending","entry":"20240101T000000Z","due":"20240501T000000Z"},
             {"uuid":"c","description":"Call mum","status":"pending","entry":"20240101T000000Z","depends":["a"]}]
            """, to: "first.json")
        #expect(try sandbox.ok(["import", first], environment: utc) == "Imported 3 todos (read as taskwarrior).\n")
        _ = try sandbox.ok("start", "3", "--percent", "40")
        let second = try write(
            """
            [{"uuid":"a","description":"Buy oat milk","status":"pending","priority":"H","entry":"20240101T000000Z"},
             {"uuid":"b","description":"Pay rent","status":"completed","entry":"20240101T000000Z","due":"20240501T000000Z",
              "end":"20240502T080000Z"},
             {"uuid":"c","description":"Call mum","status":"pending","entry":"20240101T000000Z","depends":["a"],
              "start":"20240103T000000Z"},
             {"uuid":"d","description":"Water plants","status":"pending","entry":"20240103T000000Z"}]
            """, to: "second.json")
        func state() throws -> [String] {
            try sandbox.listJSON().map { todo in
                ["id", "name", "status", "priority", "percent", "completed"].map { "\(todo[$0] ?? "")" }
                    .joined(separator: "|")
            }.sorted()
        }
        let before = try state()
        #expect(
            try sandbox.ok(["import", "--verbose", second], environment: utc) == """
                Imported 1 new todo, updated 2, 1 unchanged (read as taskwarrior). Not kept: start: (when work began) on 1 todo.
                not kept: record 3 (c) "Call mum": start: (when work began)
                updated: 1 "Buy oat milk": name, priority
                updated: 2 "Pay rent": completed, status, percent

                """)
        #expect(
            try state() == [
                "1|Buy oat milk|needs-action|1|<null>|<null>", "2|Pay rent|completed|0|100|2024-05-02T08:00:00Z",
                "3|Call mum|in-process|0|40|<null>", "4|Water plants|needs-action|0|<null>|<null>"
            ])
        #expect(try sandbox.ok("undo").hasPrefix("Undid 'import'."))
        #expect(try state() == before, "one undo step takes the whole import back")
    }

    /// A re-import whose file has a bad record changes nothing, the updates it would have made
    /// included.
    @Test func aFailedReimportChangesNothing() throws {
        let first = try write(#"[{"uuid":"a","description":"Buy milk","status":"pending"}]"#, to: "first.json")
        _ = try sandbox.ok(["import", first], environment: utc)
        let state = sandbox.fileState()
        let bad = try sandbox.todo(
            ["import", "--from", "taskwarrior", "-"],
            stdin: #"[{"uuid":"a","description":"Buy oat milk","status":"pending"},{"uuid":"b","status":"pending"}]"#)
        #expect(bad.status == 1 && bad.stderr.hasPrefix(#"error: standard input: record 2: "description" is missing"#))
        #expect(sandbox.fileState() == state)
    }

    /// `todo export` then `todo import` into a new file keeps every id (gaps too) and UID, and
    /// the subtasks and links between them; into a file where an id was given, that todo gets
    /// a new one, and the summary says so.
    @Test func exportThenImportKeepsIdsAndUIDs() throws {
        for name in ["one", "two", "three", "four", "five"] { _ = try sandbox.ok("add", name) }
        _ = try sandbox.ok("add", "five's part", "--under", "5")
        _ = try sandbox.ok("edit", "3", "--waits-for", "5")
        _ = try sandbox.ok("export", "--format", "ics")  // gives every todo a UID
        _ = try sandbox.ok("rm", "2", "4")
        let export = try sandbox.ok("export")
        let file = try write(export, to: "todos.json")
        let fresh = sandbox.folder.file("fresh.sqlite")
        #expect(try sandbox.ok("--db", fresh, "import", file) == "Imported 4 todos.\n")
        #expect(try sandbox.ok("--db", fresh, "export") == export, "the same ids, UIDs, parent and links")
        _ = try sandbox.ok("--db", fresh, "add", "six")
        #expect(try sql("SELECT max(id) FROM todos", fresh) == "7\n", "new ids follow the kept ones")

        let busy = sandbox.folder.file("busy.sqlite")
        _ = try sandbox.ok("--db", busy, "add", "here first")
        #expect(
            try sandbox.ok("--db", busy, "import", file)
                == "Imported 4 todos. Not kept: id not free here (given a new one) on 1 todo.\n")
        #expect(
            try sql("SELECT id, name FROM todos ORDER BY id", busy)
                == "1|here first\n3|three\n5|five\n6|five's part\n7|one\n")
        #expect(
            try sql("SELECT count(*) FROM todo_uids u JOIN todos t ON t.id = u.todo_id", busy) == "4\n",
            "every todo kept its UID")
    }

    /// An iCalendar file imported again updates the todo whose object changed.
    @Test func aChangedICSObjectUpdatesItsTodo() throws {
        func calendar(_ summary: String) -> String {
            """
            BEGIN:VCALENDAR
            VERSION:2.0
            PRODID:-//Example//Tasks//EN
            BEGIN:VTODO
            UID:ics-1
            DTSTAMP:20240101T000000Z
            SUMMARY:\(summary)
            END:VTODO
            BEGIN:VTODO
            UID:ics-2
            DTSTAMP:20240101T000000Z
            SUMMARY:Post the letter
            END:VTODO
            END:VCALENDAR

            """.replacingOccurrences(of: "\n", with: "\r\n")
        }
        #expect(try sandbox.ok("import", try write(calendar("Buy stamps"), to: "a.ics")) == "Imported 2 todos.\n")
        #expect(
            try sandbox.ok("import", "--verbose", try write(calendar("Buy 10 stamps"), to: "b.ics"))
                == "Imported 0 new todos, updated 1, 1 unchanged.\nupdated: 1 \"Buy 10 stamps\": name\n")
        #expect(try sql("SELECT name FROM todos ORDER BY id") == "Buy 10 stamps\nPost the letter\n")
    }
}
