import Foundation
import TestSupport
import Testing

/// Issue 34 on the command line: repeating todos added, finished, skipped, resumed, edited,
/// undone and shown through the built `todo` (RECURRENCE.md §5.6 and §6's vectors, local side).
@Suite(.timed) struct RepeatingCLITests {
    let sandbox = CLISandbox()
    /// Every run in UTC, so that "today" is the tests' own.
    static let utc = ["TZ": "UTC"]

    private func ok(_ arguments: String...) throws -> String {
        try sandbox.ok(arguments, environment: Self.utc)
    }

    private func run(_ arguments: String...) throws -> ProcessResult {
        try sandbox.todo(arguments, environment: Self.utc)
    }

    /// The todo `id` as `list --json` gives it.
    private func todo(_ id: Int) throws -> [String: Any] {
        try #require(try sandbox.listJSON().first { $0["id"] as? Int == id })
    }

    /// `deadline|done|repeat_rule|repeat_from` of the todo `id`.
    private func state(_ id: Int) throws -> String {
        let todo = try todo(id)
        let done = todo["done"] as? Bool == true ? "1" : "0"
        return ["\(todo["deadline"] ?? "-")", done, "\(todo["repeat_rule"] ?? "-")", "\(todo["repeat_from"] ?? "-")"]
            .joined(separator: "|")
    }

    /// Runs `sql` on the sandbox's database with the sqlite3 shell (another program sharing the
    /// file) and returns its lines.
    @discardableResult
    private func sqlite(_ sql: String) throws -> [String] {
        let result = try ProcessRunner.run("sqlite3", [sandbox.database, sql])
        #expect(result.status == 0, "\(sql): \(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    /// The log of finished occurrences: `todo_id|occurrence|source|pending` lines.
    private func log() throws -> [String] {
        try sqlite("SELECT todo_id, occurrence, source, pending FROM todo_completions ORDER BY 1, 2")
    }

    private func day(_ days: Int) -> String { CLISandbox.day(days) }

    private func onTerminal(_ arguments: String..., columns: String = "100") throws -> String {
        try sandbox.onTerminal(arguments, columns: columns)
    }

    // MARK: RECURRENCE.md §6

    @Test func tv1AMonthlyTodoIsOneObjectWithItsRule() throws {
        #expect(try ok("add", "Pay rent", "--due", "2026-12-01", "--every", "month") == "1\n")
        let ics = try ok("export", "--format", "ics")
        for line in ["DTSTART;VALUE=DATE:20261201\r\n", "DUE;VALUE=DATE:20261201\r\n", "RRULE:FREQ=MONTHLY\r\n"] {
            #expect(ics.contains(line), "\(ics)")
        }
        #expect(try ok("list") == "  1  [ ]  2026-12-01↻ Pay rent\n")
    }

    @Test func tv2DoneMovesTheDeadlineToTheNextOccurrenceAndLogsTheOneDone() throws {
        _ = try ok("add", "Pay rent", "--due", "2026-12-01", "--every", "month")
        // In a pipe the next date alone, last on the line: the same text every day.
        #expect(try ok("done", "1") == "✓ 1  Pay rent  next 2027-01-01\n")
        #expect(try state(1) == "2027-01-01|0|FREQ=MONTHLY|due")
        #expect(try log() == ["1|2026-12-01|here|1"], "one completion, pending for the next sync")
        #expect(try ok("show", "1").contains("repeats:   every month · next mon 2027-02-01 · done 1 time\n"))
        // On a terminal, with the weekday.
        #expect(try onTerminal("done", "1").contains("✓ 1  Pay rent  next mon 2027-02-01"))
    }

    @Test func tv6MonthEndsNeverDrift() throws {
        _ = try ok("add", "Send invoice", "--due", "2027-01-30", "--every", "month")
        _ = try ok("add", "Pay card", "--due", "2027-01-31", "--every", "month")
        _ = try ok("add", "Close books", "--due", "2026-11-30", "--every", "month")
        #expect(try state(1) == "2027-01-30|0|FREQ=MONTHLY;BYMONTHDAY=30,-1;BYSETPOS=1|due")
        #expect(try state(2) == "2027-01-31|0|FREQ=MONTHLY;BYMONTHDAY=-1|due")
        #expect(try state(3) == "2026-11-30|0|FREQ=MONTHLY;BYMONTHDAY=-1|due", "TV6 (c): a month's last day")
        var dates: [Int: [String]] = [:]
        for _ in 0..<3 {
            _ = try ok("done", "1", "2", "3")
            for id in 1...3 { dates[id, default: []].append(try todo(id)["deadline"] as? String ?? "-") }
        }
        #expect(dates[1] == ["2027-02-28", "2027-03-30", "2027-04-30"])
        #expect(dates[2] == ["2027-02-28", "2027-03-31", "2027-04-30"])
        #expect(dates[3] == ["2026-12-31", "2027-01-31", "2027-02-28"])
        #expect(try state(1) == "2027-04-30|0|FREQ=MONTHLY;BYMONTHDAY=30,-1;BYSETPOS=1|due", "the rule never changes")
        // eom from a mid-month date starts on that month's last day.
        _ = try sandbox.todo(["add", "Rent", "--due", "2026-11-15", "--every", "eom"], environment: Self.utc)
        #expect(try state(4) == "2026-11-30|0|FREQ=MONTHLY;BYMONTHDAY=-1|due")
    }

    @Test func tv11ADeadlineOffTheRuleMovesToItsFirstDateAndSaysSo() throws {
        let piped = try run("add", "Gym", "--due", "2026-12-01", "--every", "mon,thu")
        #expect(piped.status == 0 && piped.stdout == "1\n", "\(piped)")
        #expect(
            piped.stderr == "note: 2026-12-01 is not on the repeat: the first occurrence of todo 1 is thu 2026-12-03\n")
        #expect(try state(1) == "2026-12-03|0|FREQ=WEEKLY;BYDAY=MO,TH|due")
        #expect(
            try onTerminal("add", "Swim", "--due", "2026-12-01", "--every", "mon,thu").contains(
                "+ 2  Swim  first occurrence thu 2026-12-03  ↻ every week on Mon, Thu"))
        #expect(try ok("done", "1") == "✓ 1  Gym  next 2026-12-07\n")
        #expect(try ok("done", "1") == "✓ 1  Gym  next 2026-12-10\n")
    }

    // MARK: Ends, counting, catching up

    @Test func timesEndsTheSeriesOnItsLastOccurrence() throws {
        _ = try ok("add", "Backup", "--due", "2026-12-01", "--every", "2w", "--times", "2")
        #expect(try state(1) == "2026-12-01|0|FREQ=WEEKLY;INTERVAL=2;COUNT=2|due")
        #expect(try ok("done", "1") == "✓ 1  Backup  next 2026-12-15\n")
        #expect(try state(1) == "2026-12-15|0|FREQ=WEEKLY;INTERVAL=2;COUNT=1|due")
        #expect(try ok("done", "1") == "✓ 1  Backup  series over\n")
        #expect(try state(1) == "2026-12-15|1|FREQ=WEEKLY;INTERVAL=2;COUNT=1|due")
        #expect(try ok("done", "1") == "  1  Backup: already done\n")
        #expect(try ok("show", "1").contains("repeats:   every 2 weeks, once · series over · done 2 times\n"))
        // --until: the last day the series may fall on.
        _ = try ok("add", "Standup", "--due", "2026-12-03", "--every", "weekdays", "--until", "2026-12-04")
        #expect(try ok("done", "2", "2") == "✓ 2  Standup  next 2026-12-04\n")
        #expect(try ok("done", "2") == "✓ 2  Standup  series over\n")
    }

    @Test func afterCountsFromTheDayDone() throws {
        _ = try ok("add", "Water the fern", "--due", day(-10), "--after", "3d")
        #expect(try state(1) == "\(day(-10))|0|FREQ=DAILY;INTERVAL=3|done")
        #expect(try ok("done", "1") == "✓ 1  Water the fern  next \(day(3))\n")
        _ = try ok("add", "Water plants", "rec:3d")
        #expect(try state(2) == "\(day(0))|0|FREQ=DAILY;INTERVAL=3|done", "no --due: today's first occurrence")
        _ = try ok("add", "Check mail", "rec:+3d", "--due", day(-10))
        #expect(try ok("done", "3") == "✓ 3  Check mail  next \(day(-7))\n", "strict: still in the past")
        #expect(try ok("show", "1").contains("repeats:   every 3 days (from done) · done 1 time\n"))
    }

    @Test func seriesAndCatchUp() throws {
        _ = try ok("add", "Water plants", "--due", day(-20), "--every", "week")
        _ = try ok("add", "Tax", "--due", "2026-12-01", "--every", "year")
        #expect(try ok("done", "1", "--catch-up") == "✓ 1  Water plants  next \(day(1))\n")
        #expect(try ok("done", "2", "--series") == "✓ 2  Tax  series over\n")
        #expect(try state(2) == "2026-12-01|1|FREQ=YEARLY|due")
        #expect(try log().contains("2|2026-12-01|series|1"))
        let both = try run("done", "1", "--series", "--catch-up")
        #expect(both.status == 2 && both.stderrLines.first?.hasPrefix("error: ") == true, "\(both)")
    }

    @Test func skipPassesAnOccurrenceWithoutDoingIt() throws {
        _ = try ok("add", "Pay rent", "--due", "2026-12-01", "--every", "month")
        _ = try ok("add", "Buy milk")
        #expect(try ok("skip", "1") == "→ 1  Pay rent  next 2027-01-01\n")
        #expect(try state(1) == "2027-01-01|0|FREQ=MONTHLY|due")
        #expect(try log() == ["1|2026-12-01|skip|1"])
        #expect(try ok("show", "1").contains("· done 0 times\n"), "a skip is not done")
        let before = sandbox.fileState()
        let refused = try run("skip", "1", "2")
        #expect(refused.status == 1 && refused.stdout.isEmpty, "\(refused)")
        #expect(
            refused.stderrLines == [
                "error: todo 2 \"Buy milk\" does not repeat", "Nothing was changed. 'todo done 2' marks it done."
            ])
        #expect(sandbox.fileState() == before, "all or nothing")
    }

    @Test func undoneNextResumesAnEndedSeries() throws {
        _ = try ok("add", "Water plants", "--due", "2026-12-01", "--every", "week")
        _ = try ok("add", "Buy milk")
        _ = try ok("done", "1", "--series")
        #expect(try ok("undone", "1", "--next") == "○ 1  Water plants  next 2026-12-08\n")
        #expect(try state(1) == "2026-12-08|0|FREQ=WEEKLY|due")
        _ = try ok("done", "1", "--series")
        #expect(try ok("undone", "1") == "○ 1  Water plants\n", "plain undone: on its own date")
        #expect(try state(1) == "2026-12-08|0|FREQ=WEEKLY|due")
        _ = try ok("done", "2")
        let refused = try run("undone", "2", "--next")
        #expect(refused.status == 1 && refused.stderr.contains("todo 2 \"Buy milk\" does not repeat"), "\(refused)")
        #expect(try todo(2)["done"] as? Bool == true)
    }

    @Test func undoPutsADoneBackInOneStep() throws {
        _ = try ok("add", "Backup", "--due", "2026-12-01", "--every", "2w", "--times", "3")
        _ = try ok("add", "Buy milk")
        _ = try ok("done", "1", "2")
        #expect(try state(1) == "2026-12-15|0|FREQ=WEEKLY;INTERVAL=2;COUNT=2|due")
        #expect(try ok("undo") == "Undid 'done'.\n")
        #expect(try state(1) == "2026-12-01|0|FREQ=WEEKLY;INTERVAL=2;COUNT=3|due", "the date and the count")
        #expect(try todo(2)["done"] as? Bool == false, "one step for every todo of the command")
        #expect(try ok("show", "1").contains("· done 0 times\n"), "the occurrence is open again")
        _ = try ok("redo")
        #expect(try state(1) == "2026-12-15|0|FREQ=WEEKLY;INTERVAL=2;COUNT=2|due")
    }

    // MARK: Shown

    @Test func listShowAndJSONSayHowATodoRepeats() throws {
        _ = try ok("add", "Pay rent", "--due", "2026-12-01", "--every", "month")
        _ = try ok("add", "Buy milk", "--due", "2026-12-02")
        #expect(try ok("list") == "  1  [ ]  2026-12-01↻ Pay rent\n  2  [ ]  2026-12-02  Buy milk\n")
        #expect(
            try ok("list", "--outline")
                == "Undone (2)\n├─ 1  2026-12-01↻ Pay rent\n└─ 2  2026-12-02  Buy milk\nDone (0)\n")
        let shown = try ok("show", "1")
        #expect(shown.contains("completed: not done\nrepeats:   every month · next fri 2027-01-01 · done 0 times\n"))
        #expect(!shown.contains("repeat_rule") && !shown.contains("repeat_from"))
        #expect(try ok("show", "2").contains("repeats:   no\n"))
        let json = try parseJSON(try ok("show", "1", "--json"), as: [String: Any].self, "show --json")
        let repeats = try #require(json["repeat"] as? [String: Any])
        #expect(repeats["rule"] as? String == "FREQ=MONTHLY" && repeats["text"] as? String == "every month")
        #expect(repeats["from"] as? String == "due" && repeats["next"] as? String == "2027-01-01")
        #expect(repeats["done"] as? Int == 0)
        let plain = try parseJSON(try ok("show", "2", "--json"), as: [String: Any].self, "show --json")
        #expect(plain["repeat"] is NSNull)
        // The list keeps the flat keys of the field table.
        let listed = try todo(1)
        #expect(listed["repeat_rule"] as? String == "FREQ=MONTHLY" && listed["repeat_from"] as? String == "due")
        #expect(listed["repeat"] == nil)
    }

    @Test func aFortyColumnRowKeepsTheMarkAndItsWidth() throws {
        _ = try ok("add", "A rather long name for a narrow terminal", "--due", day(1), "--every", "week")
        _ = try ok("add", "Another long name for the same narrow terminal", "--due", day(2))
        let rows = try onTerminal("list", columns: "40").split(separator: "\n").map(String.init)
        #expect(rows.count == 2 && rows.allSatisfy { $0.count <= 40 }, "\(rows)")
        #expect(rows.first?.hasPrefix("  1  [ ]  \(day(1))↻ A rather") == true, "\(rows)")
        #expect(rows.last?.hasPrefix("  2  [ ]  \(day(2))  Another") == true, "\(rows)")
        // Wide enough for hints: the mark stays right after the date.
        let wide = try onTerminal("list", columns: "80").split(separator: "\n").map(String.init)
        #expect(wide.first == "  1  [ ]  \(day(1))↻ tomorrow    A rather long name for a narrow terminal", "\(wide)")
    }

    // MARK: Refusals

    @Test func aRuleTodoCannotFollowIsRefusedAndNothingChanges() throws {
        _ = try ok("add", "Buy milk")
        try sqlite(
            "INSERT INTO todos (name, deadline, repeat_rule) VALUES ('Week 20', '2026-05-11', 'FREQ=YEARLY;BYWEEKNO=20'), ('Odd', '2026-05-11', 'FREQ=SOMETIMES')"
        )
        let before = sandbox.fileState()
        for arguments in [["done", "1", "2"], ["done", "2", "--series"], ["skip", "2"], ["done", "3"]] {
            let refused = try sandbox.todo(arguments, environment: Self.utc)
            #expect(refused.status == 1 && refused.stdout.isEmpty, "\(arguments): \(refused)")
            #expect(refused.stderrLines.count == 2 && refused.stderrLines[1].hasPrefix("Nothing was changed."))
        }
        let refused = try run("done", "1", "2")
        #expect(
            refused.stderrLines.first
                == "error: todo 2 \"Week 20\" cannot be finished here: its repeat rule (FREQ=YEARLY;BYWEEKNO=20) is not one todo can follow"
        )
        #expect(
            try run("done", "3").stderr.contains(
                "todo 3 \"Odd\" cannot be finished here: repeats by a rule todo cannot read (FREQ=SOMETIMES)"))
        #expect(sandbox.fileState() == before, "all or nothing")
        #expect(
            try ok("show", "2").contains(
                "repeats:   every year (FREQ=YEARLY;BYWEEKNO=20) · todo cannot follow this rule"))
        // --no-repeat is the way out.
        _ = try ok("edit", "2", "--no-repeat")
        #expect(try ok("done", "2") == "✓ 2  Week 20\n")
    }

    @Test func anObjectRepeatingOnListedDatesAloneIsStillRefused() throws {
        _ = try ok("add", "Lessons", "--due", "2026-12-01")
        // The todo as a sync left it: its object repeats by RDATE, with no rule todo carries.
        let ics = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//other//app//EN", "BEGIN:VTODO", "UID:lessons",
            "DTSTAMP:20261120T080000Z", "SUMMARY:Lessons", "DUE;VALUE=DATE:20261201",
            "RDATE;VALUE=DATE:20261208,20261215", "END:VTODO", "END:VCALENDAR", ""
        ].joined(separator: "\r\n")
        try sqlite(
            "INSERT INTO todo_uids VALUES (1, 'lessons'); INSERT INTO sync_items (uid, href, ics, name, deadline, done) VALUES ('lessons', '/cal/lessons.ics', '\(ics)', 'Lessons', '2026-12-01', 0)"
        )
        let before = sandbox.fileState()
        let refused = try run("done", "1")
        #expect(refused.status == 1 && refused.stdout.isEmpty, "\(refused)")
        #expect(
            refused.stderrLines == [
                "error: todo 1 \"Lessons\" repeats on dates set in another app, which todo cannot follow: marking it done would end the series on every device",
                "Nothing was changed. Finish this occurrence in the app that set the dates."
            ])
        #expect(sandbox.fileState() == before)
    }

    @Test func badFormsAndOptionsAreUsageErrorsThatChangeNothing() throws {
        _ = try ok("add", "x", "--every", "week")
        _ = try ok("add", "y")
        let before = sandbox.fileState()
        for arguments in [
            ["add", "z", "--every", "hourly"], ["add", "z", "--every", "sometimes"],
            ["add", "z", "--until", "2027-01-01"],
            ["add", "z", "--every", "week", "--until", "2027-01-01", "--times", "3"],
            ["add", "z", "--every", "week", "--times", "0"], ["add", "z", "--every", "week", "--after", "3d"],
            ["add", "z", "rec:1d", "recur:weekly"], ["add", "z", "rec:1d", "--every", "week"],
            ["add", "z", "rec:soon"], ["add", "z", "--after", "last fri"],
            ["add", "z", "--every", "mon", "--due", "2026-12-01", "--until", "2026-12-02"],
            ["edit", "1", "--no-repeat", "--every", "day"], ["edit", "1", "--every", "rrule:FREQ=MINUTELY"],
            ["done", "1", "--series", "--catch-up"]
        ] {
            let result = try sandbox.todo(arguments, environment: Self.utc)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(
                result.stderrLines.first?.hasPrefix("error: ") == true && result.stderrLines.count <= 2,
                "\(arguments): \(result.stderr)")
        }
        let form = try run("add", "z", "--every", "sometimes")
        #expect(form.stderrLines.last?.contains("mon,thu") == true, "the hint lists the forms: \(form.stderr)")
        let notRepeating = try run("edit", "2", "--times", "3")
        #expect(notRepeating.status == 1 && notRepeating.stderr.contains("todo 2 \"y\" does not repeat"))
        #expect(sandbox.fileState() == before, "nothing changed")
    }

    // MARK: Adding and editing

    @Test func repeatWordsLeaveTheNameUnlessQuoted() throws {
        _ = try ok("add", "Water", "plants", "rec:+1w", "+home")
        _ = try ok("add", "Check rec:3d notes")
        _ = try ok("add", "Pay", "bills", "recur:monthly", "--due", "2026-12-01")
        #expect(try todo(1)["name"] as? String == "Water plants" && todo(1)["tags"] as? [String] == ["+home"])
        #expect(try state(1) == "\(day(0))|0|FREQ=WEEKLY|due")
        #expect(try todo(2)["name"] as? String == "Check rec:3d notes" && todo(2)["repeat_rule"] is NSNull)
        #expect(try state(3) == "2026-12-01|0|FREQ=MONTHLY|due")
        #expect(
            try onTerminal("add", "Standup", "--due", "2026-12-07", "--every", "weekdays").contains(
                "+ 4  Standup  due mon 2026-12-07  ↻ every weekday"))
    }

    @Test func editChangesTheRepeatInOneUndoableStep() throws {
        _ = try ok("add", "Pay rent", "--due", "2026-12-01", "--every", "month", "--times", "12")
        let edited = try run("edit", "1", "--name", "Rent", "--every", "last fri")
        #expect(edited.status == 0 && edited.stdout == "~ 1  Rent\n", "\(edited)")
        #expect(
            edited.stderr == "note: 2026-12-01 is not on the repeat: the first occurrence of todo 1 is fri 2026-12-25\n"
        )
        #expect(try state(1) == "2026-12-25|0|FREQ=MONTHLY;BYDAY=-1FR;COUNT=12|due", "the end is kept")
        #expect(try ok("undo") == "Undid 'edit'.\n")
        #expect(try todo(1)["name"] as? String == "Pay rent")
        #expect(try state(1) == "2026-12-01|0|FREQ=MONTHLY;COUNT=12|due")
        _ = try ok("edit", "1", "--until", "2027-06-30")
        #expect(try state(1) == "2026-12-01|0|FREQ=MONTHLY;UNTIL=20270630|due")
        _ = try ok("edit", "1", "--after", "1m", "--times", "2")
        #expect(try state(1) == "2026-12-01|0|FREQ=MONTHLY;COUNT=2|done")
        _ = try ok("edit", "1", "--no-repeat")
        #expect(try state(1) == "2026-12-01|0|\(NSNull())|due")
        _ = try ok("edit", "1", "--every", "day")
        #expect(try state(1) == "2026-12-01|0|FREQ=DAILY|due")
        #expect(
            try onTerminal("edit", "1", "--every", "mon,thu").contains(
                "~ 1  Pay rent  first occurrence thu 2026-12-03  ↻ every week on Mon, Thu"))
        // A deadline moved off the rule is said, and kept.
        let moved = try run("edit", "1", "--due", "2026-12-08")
        #expect(moved.status == 0 && moved.stdout == "~ 1  Pay rent\n", "\(moved)")
        #expect(
            moved.stderr
                == "note: todo 1 is now due tue 2026-12-08, which is not on its repeat (every week on Mon, Thu); the occurrence after it follows the rule\n"
        )
        #expect(try ok("done", "1") == "✓ 1  Pay rent  next 2026-12-10\n")
    }
}
