// Issue 34: repeating todos through taskwarrior's export and todo.txt, read and written.
// RECURRENCE.md §2.12, §2.13 and §5.6 ("Import/export") are the rules; TV10 is the todo.txt
// vector. The RRULE texts are checked against the recurrence engine in TodoSyncTests
// (RepeatPeriodEngineTests); here, what each reader makes of a file.
import Foundation
import TestSupport
import Testing
import TodoInterop
import TodoStore

private let tokyo = LocalTimeZone.offset(seconds: 9 * 3600)

@Suite(.timed) struct TodoTxtRepeatTests {
    /// TV10: `rec:3d` counts from the day done, `rec:+3d` from the due date.
    @Test func tv10FromCompletionAndStrict() throws {
        let todos = try importing(
            """
            2026-11-20 Water the fern due:2026-11-27 rec:3d
            2026-11-20 Water the fern due:2026-11-27 rec:+3d
            """, .todotxt)
        let fern = ImportedTodo(
            name: "Water the fern", deadline: day("2026-11-27"), created: UTCTimestamp(iso: "2026-11-20T12:00:00Z"),
            repeatRule: "FREQ=DAILY;INTERVAL=3", repeatFrom: .done)
        var strict = fern
        strict.repeatFrom = .due
        #expect(todos == [fern, strict])
    }

    @Test func everyUnitAndForm() throws {
        let lines: [(String, String?, TodoRepeatFrom)] = [
            ("a due:2026-11-27 rec:1d", "FREQ=DAILY", .done),
            ("a due:2026-11-27 rec:+2w", "FREQ=WEEKLY;INTERVAL=2", .due),
            ("a due:2026-11-27 rec:w", "FREQ=WEEKLY", .done),  // N is 1 when left out
            ("a due:2026-11-27 rec:+1W", "FREQ=WEEKLY", .due),  // the letter in either case
            ("a due:2026-11-27 rec:+1m", "FREQ=MONTHLY", .due),
            ("a due:2026-01-31 rec:+1m", "FREQ=MONTHLY;BYMONTHDAY=-1", .due),  // month end kept
            ("a due:2026-01-30 rec:3m", "FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=30,-1;BYSETPOS=1", .done),
            ("a due:2028-02-29 rec:+1y", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29,-1;BYSETPOS=1", .due),
            ("a due:2026-11-27 rec:+1b", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", .due),
            // Business days counted from the day done read from the due date (see TodoTxtReader).
            ("a due:2026-11-27 rec:1b", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", .due),
            ("a rec:+1m", "FREQ=MONTHLY", .due)  // no deadline: the plain rule
        ]
        for (line, rule, from) in lines {
            let todo = try #require(try importing(line, .todotxt).first)
            #expect(todo.name == "a" && todo.repeatRule == rule && todo.repeatFrom == from, "\(line)")
        }
        // The tag may come before due: and still keep the month's end.
        #expect(try importing("a rec:+1m due:2026-04-30", .todotxt).first?.repeatRule == "FREQ=MONTHLY;BYMONTHDAY=-1")
    }

    @Test func whatHasNoPlaceIsCountedByName() throws {
        let read = try report(
            """
            Plant bulbs t:2026-10-01 due:2026-10-15
            Timesheet rec:+2b due:2026-11-27 t:2026-11-20
            Late start due:2026-10-15 t:2026-10-16
            """, .todotxt)
        #expect(read.todos.map(\.name) == ["Plant bulbs", "Timesheet", "Late start"])
        #expect(read.todos.map(\.start) == [day("2026-10-01"), day("2026-11-20"), nil], "t: is the start")
        #expect(read.todos[1].repeatRule == nil, "every second business day has no rule")
        #expect(notKept(read) == ["t: after the due date on 1 todo", "rec: of 2 or more business days on 1 todo"])
    }

    @Test(arguments: [
        ("Water rec:3x", "line 1: rec:3x is not a repeat like rec:3d or rec:+1w"),
        ("Water rec:", "line 1: rec: is not a repeat like rec:3d or rec:+1w"),
        ("Water rec:+", "line 1: rec:+ is not a repeat like rec:3d or rec:+1w"),
        ("Water rec:0d", "line 1: rec:0d is not a repeat like rec:3d or rec:+1w"),
        ("Water rec:-1d", "line 1: rec:-1d is not a repeat like rec:3d or rec:+1w"),
        ("Water rec:9999999999d", "line 1: rec:9999999999d is not a repeat like rec:3d or rec:+1w"),
        ("ok\nWater rec:1d rec:2d", "line 2: more than one rec: tag")
    ])
    func aBadRecNamesTheLine(_ text: String, _ message: String) {
        #expect(importError(text, .todotxt)?.description == message)
    }

    /// Our own export reads back with the same rule and the same counting.
    @Test func theWriterWritesRecAndItReadsBack() throws {
        let todos = [
            ImportedTodo(
                name: "Fern", deadline: day("2026-11-27"), repeatRule: "FREQ=DAILY;INTERVAL=3", repeatFrom: .done),
            ImportedTodo(name: "Rent", deadline: day("2026-01-31"), repeatRule: "FREQ=MONTHLY;BYMONTHDAY=-1"),
            ImportedTodo(name: "Standup", deadline: day("2026-11-27"), repeatRule: "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"),
            ImportedTodo(
                name: "Leap", deadline: day("2028-02-29"),
                repeatRule: "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29,-1;BYSETPOS=1"),
            // Case and order as another app wrote them.
            ImportedTodo(name: "Other app", repeatRule: "interval=2;freq=weekly"),
            ImportedTodo(
                name: "Done series", deadline: day("2026-11-01"), isDone: true,
                completed: UTCTimestamp(iso: "2026-11-02T12:00:00Z"), repeatRule: "FREQ=MONTHLY")
        ]
        let lines = todos.map(TodoTxtWriter.line)
        #expect(
            lines == [
                "Fern due:2026-11-27 rec:3d", "Rent due:2026-01-31 rec:+1m", "Standup due:2026-11-27 rec:+1b",
                "Leap due:2028-02-29 rec:+1y", "Other app rec:+2w", "x 2026-11-02 Done series due:2026-11-01 rec:+1m"
            ])
        var back = try importing(lines.joined(separator: "\n"), .todotxt)
        #expect(back[4].repeatRule == "FREQ=WEEKLY;INTERVAL=2", "read back in the form written here")
        back[4].repeatRule = todos[4].repeatRule
        #expect(back == todos)
    }

    @Test func rulesWithNoRecFormAreNotWritten() {
        let rules: [(String, CalendarDate?, TodoRepeatFrom)] = [
            ("FREQ=WEEKLY;BYDAY=MO,TH", day("2026-11-26"), .due),
            ("FREQ=MONTHLY;COUNT=3", day("2026-11-26"), .due),
            ("FREQ=MONTHLY;UNTIL=20270101", day("2026-11-26"), .due),
            ("FREQ=MONTHLY;BYDAY=-1FR", day("2026-11-27"), .due),
            ("FREQ=MONTHLY;BYMONTHDAY=-1", day("2026-11-27"), .due),  // the 27th is no month end
            ("FREQ=WEEKLY;WKST=SU", day("2026-11-26"), .due),
            ("FREQ=HOURLY", day("2026-11-26"), .due),
            ("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", day("2026-11-26"), .done),  // rec:1b reads back from due
            ("not a rule", nil, .due)
        ]
        for (rule, deadline, from) in rules {
            let todo = ImportedTodo(name: "x", deadline: deadline, repeatRule: rule, repeatFrom: from)
            #expect(TodoTxtWriter.repeatTag(todo) == nil, "\(rule)")
            #expect(!TodoTxtWriter.line(todo).contains("rec:"), "\(rule)")
        }
    }
}

@Suite(.timed) struct TaskwarriorRepeatTests {
    /// A monthly template, two completed instances, one pending, one deleted and a replica's
    /// duplicate of a completed one: one repeating todo at the pending instance, two completions.
    static let series = """
        [
        {"id":1,"description":"Pay rent","due":"20261230T150000Z","entry":"20261101T000000Z","mask":"++X-","recur":"monthly","rtype":"periodic","status":"recurring","until":"20271231T150000Z","uuid":"tmpl-1","project":"home","wait":"20261225T150000Z"},
        {"id":0,"description":"Pay rent","due":"20261230T150000Z","end":"20261231T090000Z","imask":0,"parent":"tmpl-1","recur":"monthly","status":"completed","uuid":"c-0","project":"home"},
        {"id":0,"description":"Pay rent","due":"20270130T150000Z","end":"20270129T090000Z","imask":1,"parent":"tmpl-1","recur":"monthly","status":"completed","uuid":"c-1","project":"home"},
        {"id":0,"description":"Pay rent","due":"20270227T150000Z","imask":2,"parent":"tmpl-1","recur":"monthly","status":"deleted","uuid":"c-2","project":"home"},
        {"id":2,"description":"Pay rent","due":"20270330T150000Z","imask":3,"parent":"tmpl-1","recur":"monthly","status":"pending","uuid":"c-3","wait":"20270325T150000Z","project":"home"},
        {"id":0,"description":"Pay rent","due":"20270130T150000Z","end":"20270129T100000Z","imask":1,"parent":"tmpl-1","recur":"monthly","status":"completed","uuid":"c-1-replica","project":"home"},
        {"id":3,"description":"Buy milk","status":"pending","uuid":"plain-1","scheduled":"20261130T150000Z"}
        ]
        """

    @Test func aTemplateAndItsInstancesAreOneRepeatingTodo() throws {
        let read = try report(Self.series, .taskwarrior, timeZone: tokyo)
        #expect(read.todos.count == 2)
        let rent = try #require(read.todos.first)
        #expect(rent.name == "Pay rent" && !rent.isDone && rent.project?.path == "home" && rent.tags.isEmpty)
        #expect(rent.deadline == day("2027-03-31"), "the pending instance's due, in Tokyo")
        // The series began on a month's last day (due:eom recur:monthly): the rule keeps it, and
        // until is the local date.
        #expect(rent.repeatRule == "FREQ=MONTHLY;BYMONTHDAY=-1;UNTIL=20280101")
        #expect(rent.repeatFrom == .due && rent.created == UTCTimestamp(iso: "2026-11-01T00:00:00Z"))
        #expect(
            read.history[0] == [
                ImportedCompletion(
                    occurrence: day("2026-12-31"), completedAt: UTCTimestamp(iso: "2026-12-31T09:00:00Z"),
                    source: .advance),
                ImportedCompletion(
                    occurrence: day("2027-01-31"), completedAt: UTCTimestamp(iso: "2027-01-29T09:00:00Z"),
                    source: .advance)
            ])
        #expect(read.uids == [0: "tmpl-1", 1: "plain-1"], "the template's uuid is the series' UID")
        // The pending instance's own wait is the start; the plain task's scheduled, in Tokyo.
        #expect(read.todos.map(\.start) == [day("2027-03-26"), day("2026-12-01")])
        // The instance deleted there is counted: deleted tasks are never brought back.
        #expect(notKept(read) == ["1 deleted task"])
        #expect(read.dropped.map(\.source.identity) == ["c-2"])
    }

    /// The checked-in export of the real tool (TaskwarriorImportTests): its yearly series keeps
    /// its rule and end, and the wait date is a start.
    @Test func theFixturesSeriesRepeats() throws {
        let read = try TodoImporter.read(
            try Fixture.bytes("taskwarrior-export.json"), format: .taskwarrior, timeZone: tokyo)
        let rent = try #require(read.todos.first { $0.name == "Pay rent" })
        #expect(rent.repeatRule == "FREQ=YEARLY;UNTIL=21000601" && rent.deadline == day("2099-01-01"))
        #expect(read.uids.count == 6 && read.history.isEmpty)
        #expect(read.todos.first { $0.name == "Water plants" }?.start == day("2099-05-25"))
        #expect(notKept(read) == ["1 deleted task"], "Call mom")
    }

    @Test func theTemplateMayComeLastOrNotAtAll() throws {
        let records = try #require(
            try JSONSerialization.jsonObject(with: Data(Self.series.utf8)) as? [[String: Any]])
        func read(_ records: [[String: Any]]) throws -> ImportReport {
            let data = try JSONSerialization.data(withJSONObject: records)
            return try TodoImporter.read(Array(data), format: .taskwarrior, timeZone: tokyo)
        }
        let last = try read(Array(records.dropFirst()) + [records[0]])
        #expect(last.todos.map(\.name) == ["Buy milk", "Pay rent"], "at the template's place")
        #expect(last.todos[1].deadline == day("2027-03-31") && last.history[1]?.count == 2)
        // `task export status:pending` leaves the template out: the instances are still one
        // todo, with their own recur and until, at the first instance's place.
        let orphans = try read(Array(records.dropFirst()))
        #expect(orphans.todos.map(\.name) == ["Pay rent", "Buy milk"])
        #expect(orphans.todos[0].repeatRule == "FREQ=MONTHLY;BYMONTHDAY=-1")
        #expect(orphans.todos[0].deadline == day("2027-03-31") && orphans.uids[0] == "tmpl-1")
        #expect(orphans.history[0]?.count == 2)
        // No instance pending: the series stands at the last one done, for the importer to move on.
        let nonePending = try read(records.filter { $0["uuid"] as? String != "c-3" })
        #expect(nonePending.todos[0].deadline == day("2027-01-31") && nonePending.history[0]?.count == 2)
    }

    @Test func instancesOfADeletedTemplateImportAsTheyAre() throws {
        let text = """
            [{"description":"Old","due":"20260105T000000Z","recur":"weekly","status":"deleted","uuid":"gone"},
             {"description":"Old","due":"20260105T000000Z","end":"20260105T100000Z","imask":0,"parent":"gone","recur":"weekly","status":"completed","uuid":"a"},
             {"description":"Old","due":"20260112T000000Z","imask":1,"parent":"gone","recur":"weekly","status":"pending","uuid":"b"}]
            """
        let read = try report(text, .taskwarrior)
        #expect(read.todos.map(\.isDone) == [true, false] && read.todos.allSatisfy { $0.repeatRule == nil })
        #expect(read.uids == [0: "a", 1: "b"] && read.history.isEmpty)
    }

    @Test func recurInHoursImportsWithoutRepeatingAndIsCounted() throws {
        let text = """
            [{"description":"Ping","due":"20260105T000000Z","recur":"2h","status":"recurring","uuid":"t","until":"20260301T000000Z"},
             {"description":"Ping","due":"20260105T000000Z","imask":0,"parent":"t","recur":"2h","status":"pending","uuid":"a"},
             {"description":"Ping","due":"20260105T020000Z","imask":1,"parent":"t","recur":"2h","status":"pending","uuid":"b"},
             {"description":"Odd","due":"20260105T000000Z","recur":"P1DT12H","status":"recurring","uuid":"o"},
             {"description":"Expires","status":"pending","until":"20260301T000000Z","depends":"x","start":"20260101T000000Z"}]
            """
        let read = try report(text, .taskwarrior)
        #expect(read.todos.map(\.name) == ["Ping", "Odd", "Expires"], "no duplicates for the hourly instances")
        #expect(read.todos.allSatisfy { $0.repeatRule == nil })
        // A pending task's start (it is active) is kept: the todo is in progress (issue 36); the
        // time it started has no place (issue 37).
        #expect(read.todos.map(\.status) == [.needsAction, .needsAction, .inProcess])
        #expect(
            notKept(read) == [
                // `depends` names a task the file does not hold (issue 36: one it holds is a link).
                "start: (when work began) on 1 todo", "until: on 2 todos",
                "depends: on a task not imported (deleted or not in the file) on 1 todo",
                "recur: in hours or minutes on 1 todo",
                "recur: of another form on 1 todo"
            ])
    }

    @Test func aBadUntilNamesTheRecord() {
        let text = #"[{"description":"x","status":"recurring","recur":"weekly","until":"soon"}]"#
        #expect(
            importError(text, .taskwarrior)?.description
                == #"record 1: "until" is not a UTC timestamp like 20240501T000000Z"#)
    }

    /// taskwarrior's durations (taskwarrior.org/docs/durations and `man task`, FREQUENCIES).
    @Test func everyTaskwarriorDuration() {
        let cases: [(String, RepeatPeriod.TaskwarriorRecur)] = [
            ("daily", period(.day)), ("day", period(.day)), ("weekdays", period(.weekday)),
            ("weekly", period(.week)), ("biweekly", period(.week, 2)), ("fortnight", period(.week, 2)),
            ("monthly", period(.month)), ("bimonthly", period(.month, 2)), ("quarterly", period(.month, 3)),
            ("semiannual", period(.month, 6)), ("annual", period(.year)), ("yearly", period(.year)),
            ("biannual", period(.year, 2)), ("biyearly", period(.year, 2)), ("3d", period(.day, 3)),
            ("2da", period(.day, 2)), ("5days", period(.day, 5)), ("2w", period(.week, 2)), ("3wks", period(.week, 3)),
            ("1mo", period(.month)), ("6mo", period(.month, 6)), ("2m", period(.month, 2)), ("1q", period(.month, 3)),
            ("2qtrs", period(.month, 6)), ("1y", period(.year)), ("2yrs", period(.year, 2)), ("P2W", period(.week, 2)),
            ("P1M", period(.month)), ("P1Y", period(.year)), ("P3D", period(.day, 3)), ("Weekly", period(.week)),
            ("2h", .shorterThanADay), ("1hr", .shorterThanADay), ("30min", .shorterThanADay),
            ("hourly", .shorterThanADay), ("PT1H", .shorterThanADay), ("PT30M", .shorterThanADay),
            ("P1DT12H", .other), ("P1Y2M", .other), ("0d", .other), ("fortnightly-ish", .other), ("", .other),
            ("-1d", .other), ("99999999999d", .other)
        ]
        for (text, expected) in cases {
            #expect(RepeatPeriod.taskwarrior(text) == expected, "\(text)")
        }
    }

    private func period(_ unit: RepeatPeriod.Unit, _ interval: Int = 1) -> RepeatPeriod.TaskwarriorRecur {
        RepeatPeriod(unit, every: interval).map(RepeatPeriod.TaskwarriorRecur.period) ?? .other
    }

    /// The real tool: a weekly series with an end and a wait date and a monthly one from a month's
    /// end, each with its first instance completed, a task with a wait date and one with a
    /// scheduled date and a due time (`Fixtures/capture-taskwarrior.sh OUTPUT recurring`).
    @Test func readsALiveRecurringExport() throws {
        try #require(Fixture.isInstalled("task"), "taskwarrior is not installed (scripts/setup installs it)")
        let folder = TemporaryFolder()
        let output = folder.file("export.json")
        let run = try ProcessRunner.run("sh", [Fixture.path("capture-taskwarrior.sh"), output, "recurring"])
        try #require(run.status == 0, "\(run.stderr)")
        let read = try TodoImporter.read(try Fixture.bytes(output), format: .taskwarrior, timeZone: tokyo)
        #expect(read.todos.map(\.name) == ["Water the fern", "Pay rent", "Plant bulbs", "Call the plumber"])
        #expect(
            read.todos.map(\.repeatRule) == ["FREQ=WEEKLY;UNTIL=20990301", "FREQ=MONTHLY;BYMONTHDAY=-1", nil, nil])
        // taskwarrior makes the next instance only when its date comes: the series stand at
        // the occurrence done last, and the importer moves them on.
        #expect(
            read.todos.map(\.deadline) == [day("2099-01-05"), day("2099-01-31"), day("2099-10-15"), day("2099-11-02")])
        #expect(read.history[0]?.map(\.occurrence) == [day("2099-01-05")])
        #expect(read.history[1]?.map(\.occurrence) == [day("2099-01-31")])
        // wait, else scheduled, is the start; a due time other than midnight is kept, floating.
        #expect(read.todos.map(\.start) == [day("2099-01-03"), nil, day("2099-10-01"), day("2099-10-30")])
        #expect(read.todos.map(\.dueTime) == [nil, nil, nil, .wall(secondOfDay: 18 * 3600 + 30 * 60, zone: nil)])
        #expect(notKept(read).isEmpty)
    }
}

@Suite(.timed) struct JSONRepeatTests {
    /// `todo export` writes repeat_rule and repeat_from (the field table's rows): they read back,
    /// a rule another app wrote as it was.
    @Test func readsTheRuleAndWhereItCountsFrom() throws {
        let text = """
            [{"name": "Fern", "deadline": "2026-11-27", "repeat_rule": "FREQ=DAILY;INTERVAL=3", "repeat_from": "done"},
             {"name": "Rent", "repeat_rule": "FREQ=MONTHLY;X-OTHER-APP=1", "repeat_from": "due"},
             {"name": "Once", "repeat_rule": null, "repeat_from": null},
             {"name": "Old file"}]
            """
        #expect(
            try importing(text, .json) == [
                ImportedTodo(
                    name: "Fern", deadline: day("2026-11-27"), repeatRule: "FREQ=DAILY;INTERVAL=3", repeatFrom: .done),
                ImportedTodo(name: "Rent", repeatRule: "FREQ=MONTHLY;X-OTHER-APP=1"),
                ImportedTodo(name: "Once"), ImportedTodo(name: "Old file")
            ])
    }

    @Test func aRepeatFromOfAnotherWordNamesTheRecord() {
        #expect(
            importError(#"[{"name": "a"}, {"name": "b", "repeat_from": "completion"}]"#, .json)?.description
                == #"record 2: "repeat_from" cannot be "completion" (expected "due" or "done")"#)
        #expect(
            importError(#"[{"name": "b", "repeat_from": 3}]"#, .json)?.description
                == #"record 1: "repeat_from" must be a string or null, found a number"#)
    }
}
