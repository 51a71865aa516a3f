import Foundation
import TestSupport
import Testing

/// Issue 34, "Interop": repeating todos through `todo import` and `todo export`, end to end.
/// taskwarrior's recurring template and its instances are one todo with their history, todo.txt's
/// `rec:` is read and written, iCalendar and JSON carry the rule, start dates and due times come
/// along, and the summary names what has no place.
@Suite(.timed) struct RepeatImportExportTests {
    let sandbox = CLISandbox()
    let fixtures = ProcessRunner.packageRoot + "/Tests/TodoInteropTests/Fixtures"

    private func write(_ text: String, to name: String) throws -> String {
        let file = sandbox.folder.file(name)
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    /// `SELECT ...` on the sandbox's database, one line per row.
    private func sql(_ query: String, _ database: String? = nil) throws -> String {
        let result = try ProcessRunner.run("sqlite3", [database ?? sandbox.database, query])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    /// Each todo's name, deadline, done, rule and where it counts from.
    private func repeats(_ database: String? = nil) throws -> [String] {
        try sandbox.listJSON(database.map { ["--db", $0] } ?? []).map { todo in
            ["name", "deadline", "done", "repeat_rule", "repeat_from"].map { "\(todo[$0] ?? "-")" }
                .joined(separator: "|")
        }
    }

    /// A monthly template (from a month's last day, with an end), two completed instances, one
    /// deleted, one pending, and a replica's duplicate of a completed one; and a plain task.
    /// Written in Tokyo: `20261230T150000Z` is 2026-12-31 there.
    static let taskwarrior = """
        [
        {"id":1,"description":"Pay rent","due":"20261230T150000Z","entry":"20261101T000000Z","mask":"++X-","recur":"monthly","rtype":"periodic","status":"recurring","until":"20271231T150000Z","uuid":"tmpl-1","wait":"20261225T150000Z"},
        {"id":0,"description":"Pay rent","due":"20261230T150000Z","end":"20261231T090000Z","imask":0,"parent":"tmpl-1","recur":"monthly","status":"completed","uuid":"c-0"},
        {"id":0,"description":"Pay rent","due":"20270130T150000Z","end":"20270129T090000Z","imask":1,"parent":"tmpl-1","recur":"monthly","status":"completed","uuid":"c-1"},
        {"id":0,"description":"Pay rent","due":"20270227T150000Z","imask":2,"parent":"tmpl-1","recur":"monthly","status":"deleted","uuid":"c-2"},
        {"id":2,"description":"Pay rent","due":"20270330T150000Z","imask":3,"parent":"tmpl-1","recur":"monthly","status":"pending","uuid":"c-3"},
        {"id":0,"description":"Pay rent","due":"20270130T150000Z","end":"20270129T100000Z","imask":1,"parent":"tmpl-1","recur":"monthly","status":"completed","uuid":"c-1-replica"},
        {"id":3,"description":"Ping the server","due":"20261230T150000Z","recur":"2h","status":"recurring","uuid":"tmpl-2","scheduled":"20261201T000000Z"},
        {"id":4,"description":"Ping the server","due":"20261230T150000Z","imask":0,"parent":"tmpl-2","recur":"2h","status":"pending","uuid":"p-0"},
        {"id":5,"description":"Ping the server","due":"20261230T170000Z","imask":1,"parent":"tmpl-2","recur":"2h","status":"pending","uuid":"p-1"}
        ]
        """

    @Test func aTaskwarriorSeriesIsOneRepeatingTodoWithItsHistoryAndImportsOnce() throws {
        let file = try write(Self.taskwarrior, to: "task.json")
        let tokyo = ["TZ": "Asia/Tokyo"]
        #expect(
            try sandbox.ok(["import", "--from", "taskwarrior", file], environment: tokyo)
                == "Imported 2 todos. Not kept: 1 deleted task, scheduled: time of day on 1 todo, "
                + "recur: in hours or minutes on 1 todo.\n")
        #expect(
            try repeats() == [
                "Ping the server|2026-12-31|0|<null>|due",
                "Pay rent|2027-03-31|0|FREQ=MONTHLY;BYMONTHDAY=-1;UNTIL=20280101|due"
            ])
        let history = "2026-12-31|2026-12-31T09:00:00Z|advance|0\n2027-01-31|2027-01-29T09:00:00Z|advance|0\n"
        let query = "SELECT occurrence, completed_at, source, pending FROM todo_completions ORDER BY occurrence"
        #expect(try sql(query) == history)
        // The uuids are the UIDs: a second import adds nothing, history included.
        let again = try sandbox.ok(["import", "--from", "taskwarrior", file], environment: tokyo)
        #expect(again.hasPrefix("Imported 0 new todos, updated 0, 2 unchanged."), "\(again)")
        #expect(try sql(query) == history && (try repeats()).count == 2)

        // Without the pending instance (taskwarrior makes it only when its date comes), the
        // todo stands at the first occurrence after the last one done.
        let nonePending = try write(
            Self.taskwarrior.split(separator: "\n").filter { !$0.contains(#""uuid":"c-3""#) }.joined(separator: "\n"),
            to: "none-pending.json")
        let other = sandbox.folder.file("other.sqlite")
        _ = try sandbox.ok(["--db", other, "import", "--from", "taskwarrior", nonePending], environment: tokyo)
        #expect(try repeats(other).last == "Pay rent|2027-02-28|0|FREQ=MONTHLY;BYMONTHDAY=-1;UNTIL=20280101|due")
    }

    /// The real tool (`Fixtures/capture-taskwarrior.sh OUTPUT recurring`): each series had its first
    /// instance completed and none pending; the import stands each at its next occurrence, the
    /// fern's wait two days before it, as taskwarrior would make it.
    @Test func aLiveTaskwarriorExportStandsAtTheNextOccurrence() throws {
        try #require(
            (try? ProcessRunner.which("task")) != nil, "taskwarrior is not installed (scripts/setup installs it)")
        let file = sandbox.folder.file("live.json")
        let run = try ProcessRunner.run("sh", [fixtures + "/capture-taskwarrior.sh", file, "recurring"])
        try #require(run.status == 0, "\(run.stderr)")
        let output = try sandbox.ok(["import", file], environment: ["TZ": "Asia/Tokyo"])
        #expect(output == "Imported 4 todos (read as taskwarrior).\n")
        #expect(
            Set(try repeats()) == [
                "Water the fern|2099-01-12|0|FREQ=WEEKLY;UNTIL=20990301|due",
                "Pay rent|2099-02-28|0|FREQ=MONTHLY;BYMONTHDAY=-1|due", "Plant bulbs|2099-10-15|0|<null>|due",
                "Call the plumber|2099-11-02|0|<null>|due"
            ])
        #expect(
            try sql("SELECT name, due_time, start_date FROM todos ORDER BY name")
                == "Call the plumber|18:30|2099-10-30\nPay rent||\nPlant bulbs||2099-10-01\nWater the fern||2099-01-10\n"
        )
        #expect(
            try sql("SELECT occurrence, source, pending FROM todo_completions ORDER BY occurrence")
                == "2099-01-05|advance|0\n2099-01-31|advance|0\n")
    }

    /// RECURRENCE.md TV10: `rec:3d` repeats from the day done, `rec:+3d` from the due date; the
    /// ics export says so as the VTODO.
    @Test func tv10ThroughImportAndTheICSExport() throws {
        let file = try write(
            "2026-11-20 Water the fern due:2026-11-27 rec:3d\n2026-11-20 Water the cactus due:2026-11-27 rec:+3d\n",
            to: "todo.txt")
        #expect(try sandbox.ok("import", "--from", "todotxt", file) == "Imported 2 todos.\n")
        #expect(
            try repeats() == [
                "Water the fern|2026-11-27|0|FREQ=DAILY;INTERVAL=3|done",
                "Water the cactus|2026-11-27|0|FREQ=DAILY;INTERVAL=3|due"
            ])
        let ics = try sandbox.ok("export", "--format", "ics")
        let objects = ics.components(separatedBy: "BEGIN:VTODO").dropFirst()
        let fern = try #require(objects.first { $0.contains("SUMMARY:Water the fern") })
        for line in [
            "DTSTART;VALUE=DATE:20261127", "DUE;VALUE=DATE:20261127", "RRULE:FREQ=DAILY;INTERVAL=3",
            "STATUS:NEEDS-ACTION", "X-TODO-REPEAT-FROM:COMPLETION"
        ] {
            #expect(fern.contains(line + "\r\n"), "\(line) in \(fern)")
        }
        let cactus = try #require(objects.first { $0.contains("SUMMARY:Water the cactus") })
        #expect(cactus.contains("RRULE:FREQ=DAILY;INTERVAL=3\r\n") && !cactus.contains("X-TODO-REPEAT-FROM"))
    }

    /// `export --format todotxt` writes `rec:` back, and reading it back gives the same rules;
    /// a rule with no `rec:` form is written without one, and counted on stderr.
    @Test func theTodoTxtExportWritesRecBack() throws {
        let lines = [
            "2026-11-20 Water the fern due:2026-11-27 rec:3d", "2026-11-20 Pay rent due:2026-11-30 rec:+1m",
            "2026-11-20 Stand-up due:2026-11-30 rec:+1b", "2026-11-20 Renew passport due:2027-06-15 rec:+10y"
        ]
        let file = try write(lines.joined(separator: "\n") + "\n", to: "todo.txt")
        _ = try sandbox.ok("import", "--from", "todotxt", file)
        let export = try sandbox.ok("export", "--format", "todotxt")
        #expect(Set(export.split(separator: "\n").map(String.init)) == Set(lines))
        let other = sandbox.folder.file("other.sqlite")
        _ = try sandbox.ok(["--db", other, "import", "--from", "todotxt", "-"], stdin: export)
        #expect(try repeats(other) == repeats())

        // A rule written by another app (through todo's JSON): no rec: form, said once.
        let json = #"[{"name": "Gym", "deadline": "2026-11-26", "repeat_rule": "FREQ=WEEKLY;BYDAY=MO,TH"}]"#
        _ = try sandbox.ok(["import", "--from", "json", "-"], stdin: json)
        let result = try sandbox.todo("export", "--format", "todotxt")
        #expect(result.status == 0)
        #expect(result.stdout.contains("Gym due:2026-11-26\n"), "\(result.stdout)")
        #expect(result.stderr == "1 repeat rule has no rec: form: written without one.\n")
    }

    /// taskwarrior's wait (else scheduled) and todo.txt's t: are the start, a taskwarrior due at
    /// a time of day its due time; the summary counts only what has no place (a start after the
    /// due date, a scheduled beside another wait), and the todo.txt export writes t: back.
    @Test func startDatesAndDueTimesComeAlong() throws {
        // Written in Tokyo: 20991014T150000Z is 2099-10-15 there, 20991102T093000Z 18:30.
        let file = try write(
            """
            [{"description":"Plant bulbs","status":"waiting","due":"20991014T150000Z","wait":"20990930T150000Z","uuid":"u-1"},
             {"description":"Call the plumber","status":"pending","due":"20991102T093000Z","scheduled":"20991029T150000Z","wait":"20991030T150000Z","uuid":"u-2"},
             {"description":"Water the fern","due":"20990105T093000Z","recur":"weekly","status":"recurring","uuid":"t-1","wait":"20990102T150000Z"},
             {"description":"Water the fern","due":"20990105T093000Z","end":"20990104T100000Z","imask":0,"parent":"t-1","recur":"weekly","status":"completed","uuid":"i-1","wait":"20990102T150000Z"},
             {"description":"Late","status":"pending","due":"20990228T150000Z","wait":"20990310T150000Z","uuid":"u-3"}]
            """, to: "task.json")
        #expect(
            try sandbox.ok(["import", file], environment: ["TZ": "Asia/Tokyo"])
                == "Imported 4 todos (read as taskwarrior). Not kept: "
                + "wait: after the due date on 1 todo, scheduled: other than wait: on 1 todo.\n")
        // The fern's occurrence was done: it stands at the next one, its start as far before it.
        #expect(
            try sql("SELECT name, deadline, due_time, start_date FROM todos ORDER BY id")
                == "Plant bulbs|2099-10-15||2099-10-01\nCall the plumber|2099-11-02|18:30|2099-10-31\n"
                + "Water the fern|2099-01-12|18:30|2099-01-10\nLate|2099-03-01||\n")

        let text = try write(
            "Plant bulbs t:2026-10-01 due:2026-10-15\nTimesheet rec:+2b t:2026-11-20\nLate due:2026-10-15 t:2026-10-20\n",
            to: "todo.txt")
        let other = sandbox.folder.file("other.sqlite")
        #expect(
            try sandbox.ok("--db", other, "import", text)
                == "Imported 3 todos (read as todotxt). Not kept: "
                + "t: after the due date on 1 todo, rec: of 2 or more business days on 1 todo.\n")
        let starts = "Late|\nPlant bulbs|2026-10-01\nTimesheet|2026-11-20\n"
        let query = "SELECT name, start_date FROM todos ORDER BY name"
        #expect(try sql(query, other) == starts)
        let export = try sandbox.ok("--db", other, "export", "--format", "todotxt")
        #expect(export.contains(" Plant bulbs due:2026-10-15 t:2026-10-01\n"), "\(export)")
        let back = sandbox.folder.file("back.sqlite")
        _ = try sandbox.ok(["--db", back, "import", "--from", "todotxt", "-"], stdin: export)
        #expect(try sql(query, back) == starts)

        // A t: that is no date is a bad line: nothing is imported.
        let before = sandbox.fileState()
        let bad = try sandbox.todo(["import", "--from", "todotxt", "-"], stdin: "Fine\nRead t:soon\n")
        #expect(
            bad.status == 1 && bad.stderr.hasPrefix("error: standard input: line 2: t:soon is not a YYYY-MM-DD date\n"),
            "\(bad.stderr)")
        #expect(sandbox.fileState() == before)
    }

    /// iCalendar and todo's JSON carry the rule and where it counts from, both ways.
    @Test func icsAndJSONRoundTripsKeepTheRule() throws {
        let json = """
            [{"name": "Water the fern", "deadline": "2026-11-27", "repeat_rule": "FREQ=DAILY;INTERVAL=3", "repeat_from": "done"},
             {"name": "Pay rent", "deadline": "2026-11-30", "repeat_rule": "FREQ=MONTHLY;BYMONTHDAY=-1;UNTIL=20271231"},
             {"name": "Other app's rule", "repeat_rule": "FREQ=MONTHLY;BYDAY=MO;BYSETPOS=2;X-NAME=1"}]
            """
        _ = try sandbox.ok(["import", "-"], stdin: json)
        let expected = try repeats()
        #expect(expected.count == 3 && expected.contains("Water the fern|2026-11-27|0|FREQ=DAILY;INTERVAL=3|done"))

        let viaJSON = sandbox.folder.file("json.sqlite")
        _ = try sandbox.ok(["--db", viaJSON, "import", "-"], stdin: try sandbox.ok("export"))
        #expect(try repeats(viaJSON) == expected)

        let viaICS = sandbox.folder.file("ics.sqlite")
        let ics = try sandbox.ok("export", "--format", "ics")
        #expect(try sandbox.ok(["--db", viaICS, "import", "--from", "ics", "-"], stdin: ics) == "Imported 3 todos.\n")
        #expect(try repeats(viaICS) == expected)
        // A repeat_from of another word is a bad record: nothing is imported.
        let bad = try sandbox.todo(["import", "-"], stdin: #"[{"name": "a", "repeat_from": "later"}]"#)
        #expect(
            bad.status == 1
                && bad.stderr.hasPrefix(#"error: standard input: record 1: "repeat_from" cannot be "later""#))
    }

    /// RECURRENCE.md TV7: Thunderbird marks an occurrence done with a RECURRENCE-ID component;
    /// imported, it is the todo's history, and the todo stands at the next occurrence.
    @Test func aThunderbirdOccurrenceDoneIsTheHistory() throws {
        let text = """
            BEGIN:VCALENDAR
            PRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN
            VERSION:2.0
            BEGIN:VTODO
            UID:e0600bbe-b9d0-ba48-80b0-998409625d03
            DTSTAMP:20261201T230139Z
            SUMMARY:Recurring
            RRULE:FREQ=DAILY
            DTSTART:20261201T230000Z
            DUE:20261201T230000Z
            END:VTODO
            BEGIN:VTODO
            UID:e0600bbe-b9d0-ba48-80b0-998409625d03
            DTSTAMP:20261201T230139Z
            SUMMARY:Recurring
            STATUS:COMPLETED
            RECURRENCE-ID:20261201T230000Z
            COMPLETED:20261201T230139Z
            END:VTODO
            END:VCALENDAR

            """.replacing("\n", with: "\r\n")
        let file = try write(text, to: "thunderbird.ics")
        let chicago = ["TZ": "America/Chicago"]
        #expect(try sandbox.ok(["import", file], environment: chicago) == "Imported 1 todo.\n")
        #expect(try repeats() == ["Recurring|2026-12-02|0|FREQ=DAILY|due"])
        #expect(
            try sql("SELECT occurrence, completed_at, source, pending FROM todo_completions")
                == "2026-12-01|2026-12-01T23:01:39Z|override|0\n")
        #expect(
            try sandbox.ok(["import", file], environment: chicago)
                == "Imported 0 new todos, updated 0, 1 unchanged.\n")
    }
}
