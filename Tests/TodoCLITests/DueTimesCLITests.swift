import Foundation
import TestSupport
import Testing
import TodoObservation
import TodoStore

@testable import todo

/// Issue 34's due times and start dates on the command line: `--due "fri 19:00"`, `--no-time`,
/// `--start`, `--no-start`, the time column of rows, `show`, todos not started yet left out of
/// the lists (`--all`, `--waiting`), and deadlines read in the time zone in force.
@Suite(.timed) struct DueTimesCLITests {
    let sandbox = CLISandbox()
    /// Every run in UTC, so that "today" is the tests' own, unless a test says otherwise.
    static let utc = ["TZ": "UTC"]

    private func ok(_ arguments: String..., zone: String = "UTC") throws -> String {
        try sandbox.ok(arguments, environment: ["TZ": zone])
    }

    private func run(_ arguments: String...) throws -> ProcessResult {
        try sandbox.todo(arguments, environment: Self.utc)
    }

    /// `deadline|due_time|start_date` of the todo `id`, as `list --all --json` gives them.
    private func due(_ id: Int) throws -> String {
        let todo = try #require(try sandbox.listJSON().first { $0["id"] as? Int == id })
        return ["deadline", "due_time", "start_date"].map { "\(todo[$0] ?? "-")" }.joined(separator: "|")
    }

    /// The lines of `todo show ID` that start with one of `labels`.
    private func shown(_ id: Int, _ labels: String..., zone: String = "UTC") throws -> [String] {
        try ok("show", "\(id)", zone: zone).split(separator: "\n").map(String.init).filter { line in
            labels.contains { line.hasPrefix($0 + ":") }
        }
    }

    /// Runs `sql` on the sandbox's database with the sqlite3 shell (another program sharing the file).
    private func sqlite(_ sql: String) throws {
        let result = try ProcessRunner.run("sqlite3", [sandbox.database, sql])
        #expect(result.status == 0, "\(sql): \(result.stderr)")
    }

    private func day(_ days: Int) -> String { CLISandbox.day(days) }

    private func onTerminal(_ arguments: String..., columns: String = "100") throws -> String {
        try sandbox.onTerminal(arguments, columns: columns)
    }

    // MARK: Parsing

    @Test func deadlineFormsWithATimeOfDay() throws {
        // 2026-11-25 is a Wednesday.
        let today = try #require(CalendarDate("2026-11-25"))
        func parse(_ text: String) throws(CLIError) -> String {
            let deadline = try DueDateParser.parseDeadline(text, today: today)
            return deadline.date.description + (deadline.secondOfDay.map { " " + TodoDueTime.clock($0) } ?? "")
        }
        let expected = [
            "fri 19:00": "2026-11-27 19:00", "Fri 7:05": "2026-11-27 07:05", "tomorrow 9:30": "2026-11-26 09:30",
            "2026-12-01T09:30": "2026-12-01 09:30", "2026-12-01t0:00": "2026-12-01 00:00",
            "2026-12-01 23:59": "2026-12-01 23:59", "Dec 24 18:00": "2026-12-24 18:00",
            "in 3 days 8:15": "2026-11-28 08:15", "next friday 12:00": "2026-11-27 12:00", "fri": "2026-11-27",
            "2026/12/01 10:00": "2026-12-01 10:00"
        ]
        for (text, deadline) in expected { #expect(try parse(text) == deadline, "\(text)") }
        #expect(
            try DueDateParser.parseDeadline("fri 19:00", today: today).dueTime == .wall(secondOfDay: 68_400, zone: nil))
        // Refused as usage errors, with the forms in the hint.
        for text in [
            "fri 24:00", "fri 19:60", "fri 19:0", "fri 123:00", "fri 19:00:00", "fri 7pm", "fri 7:30PM", "19:00",
            "2026-12-01T", "2026-12-01T25:00", "tomorow 9:30", "fri :30"
        ] {
            #expect(throws: CLIError.self, "\(text)") { try parse(text) }
            do {
                _ = try parse(text)
            } catch {
                #expect(error.kind == .usage, "\(text)")
            }
        }
        do {
            _ = try parse("fri 7pm")
        } catch {
            #expect(error.message == "'7pm' is not a time of day")
            #expect(
                error.hint?.contains("HH:MM on the 24-hour clock (fri 19:00, tomorrow 9:30, 2026-12-01T09:30)") == true)
        }
        // Where days are compared, a time is refused, naming the option.
        do {
            _ = try DueDateParser.parse("fri 19:00", today: today, option: "--due-before")
            Issue.record("a time was taken where a date is")
        } catch {
            #expect(error.message == "'--due-before' takes a date, not a time: 'fri 19:00'" && error.kind == .usage)
            #expect(error.hint == "Give the day alone: fri.")
        }
    }

    // MARK: Adding and editing

    @Test func addStoresAFloatingTimeAndAStart() throws {
        #expect(try ok("add", "Team call", "--due", "2026-12-04 19:00") == "1\n")
        #expect(try due(1) == "2026-12-04|19:00|\(NSNull())")
        _ = try ok("add", "Plan the trip", "--due", "2026-12-20T8:30", "--start", "2026-12-10")
        #expect(try due(2) == "2026-12-20|08:30|2026-12-10")
        _ = try ok("add", "Gym", "--due", "2026-12-04 18:00", "--every", "week")
        #expect(try due(3) == "2026-12-04|18:00|\(NSNull())")
        // On a terminal, the time after the date and the start after it.
        #expect(
            try onTerminal("add", "Dinner", "--due", "2026-12-04 20:00", "--start", "2026-12-01").contains(
                "+ 4  Dinner  due fri 2026-12-04 20:00  starts tue 2026-12-01\n"))
    }

    @Test func editSetsKeepsAndRemovesTheTimeAndTheStart() throws {
        _ = try ok("add", "Team call", "--due", "2026-12-04 19:00")
        _ = try ok("edit", "1", "--due", "2026-12-05")
        #expect(try due(1) == "2026-12-05|19:00|\(NSNull())", "a date alone keeps the time")
        _ = try ok("edit", "1", "--due", "2026-12-05 9:30")
        #expect(try due(1) == "2026-12-05|09:30|\(NSNull())")
        _ = try ok("edit", "1", "--start", "2026-12-01")
        #expect(try due(1) == "2026-12-05|09:30|2026-12-01")
        _ = try ok("edit", "1", "--due", "2026-12-08")
        #expect(try due(1) == "2026-12-08|09:30|2026-12-04", "the start moves with the deadline")
        _ = try ok("edit", "1", "--no-time")
        #expect(try due(1) == "2026-12-08|\(NSNull())|2026-12-04")
        _ = try ok("edit", "1", "--no-start")
        #expect(try due(1) == "2026-12-08|\(NSNull())|\(NSNull())")
        #expect(
            try onTerminal("edit", "1", "--due", "2026-12-09 7:45", "--start", "2026-12-02").contains(
                "~ 1  Team call  due wed 2026-12-09 07:45  starts wed 2026-12-02\n"))
        // --no-due takes the time with it; the start stays, the day it is shown again.
        _ = try ok("edit", "1", "--no-due")
        #expect(try due(1) == "\(NSNull())|\(NSNull())|2026-12-02")
    }

    @Test func undoOfAnEditPutsBackTheTimeAndTheStart() throws {
        _ = try ok("add", "Team call", "--due", "2026-12-04 19:00", "--start", "2026-12-01")
        _ = try ok("edit", "1", "--due", "2026-12-10 8:00", "--no-start")
        #expect(try due(1) == "2026-12-10|08:00|\(NSNull())")
        #expect(try ok("undo") == "Undid 'edit'.\n")
        #expect(try due(1) == "2026-12-04|19:00|2026-12-01")
        _ = try ok("edit", "1", "--no-time")
        _ = try ok("undo")
        #expect(try due(1) == "2026-12-04|19:00|2026-12-01")
        _ = try ok("redo")
        #expect(try due(1) == "2026-12-04|\(NSNull())|2026-12-01")
    }

    @Test func refusalsAreUsageErrorsThatChangeNothing() throws {
        _ = try ok("add", "Team call", "--due", "2026-12-04 19:00", "--start", "2026-12-01")
        let before = sandbox.fileState()
        for arguments in [
            ["add", "x", "--due", "fri 25:00"], ["add", "x", "--due", "19:00"], ["add", "x", "--due", "fri 7pm"],
            ["add", "x", "--due", "2026-12-04", "--start", "2026-12-04"],
            ["add", "x", "--due", "2026-12-04", "--start", "2026-12-05"], ["add", "x", "--start", "fri 9:00"],
            ["edit", "1", "--start", "2026-12-05"],
            ["edit", "1", "--due", "2026-12-05 9:00", "--no-time"], ["edit", "1", "--start", "mon", "--no-start"],
            ["list", "--due-before", "fri 19:00"], ["list", "--waiting", "--done"],
            ["edit", "1", "--every", "week", "--until", "2027-01-01 9:00"]
        ] {
            let result = try sandbox.todo(arguments, environment: Self.utc)
            #expect(result.status == 2 && result.stdout.isEmpty, "\(arguments): \(result)")
            #expect(
                result.stderrLines.first?.hasPrefix("error: ") == true && result.stderrLines.count <= 2,
                "\(arguments): \(result.stderr)")
        }
        #expect(sandbox.fileState() == before, "nothing changed")
        let late = try run("edit", "1", "--start", "2026-12-05")
        #expect(
            late.stderrLines == [
                "error: the todo would start on sat 2026-12-05, after it is due (fri 2026-12-04)",
                "Give --start a day before the deadline, or leave it out."
            ])
        // A deadline moved before the start takes the start with it: no refusal.
        _ = try ok("edit", "1", "--due", "2026-11-30")
        #expect(try due(1) == "2026-11-30|19:00|2026-11-27")
    }

    // MARK: Shown

    @Test func rowsCarryATimeColumnWhenATodoListedHasATime() throws {
        _ = try ok("add", "Buy milk", "--due", "2026-12-02")
        _ = try ok("add", "Call mom")
        #expect(
            try ok("list") == "  1  [ ]  2026-12-02  Buy milk\n  2  [ ]              Call mom\n", "no time: no column")
        _ = try ok("add", "Team call", "--due", "2026-12-04 19:00")
        _ = try ok("add", "Gym", "--due", "2026-12-01 7:30", "--every", "week")
        #expect(
            try ok("list") == """
                  4  [ ]  2026-12-01↻ 07:30  Gym
                  1  [ ]  2026-12-02         Buy milk
                  3  [ ]  2026-12-04  19:00  Team call
                  2  [ ]                     Call mom

                """)
        #expect(
            try ok("list", "--outline") == """
                Undone (4)
                ├─ 4  2026-12-01↻ 07:30  Gym
                ├─ 1  2026-12-02         Buy milk
                ├─ 3  2026-12-04  19:00  Team call
                └─ 2                     Call mom
                Done (0)

                """)
        // A filter that leaves out every timed todo leaves out the column.
        #expect(try ok("list", "--search", "milk") == "  1  [ ]  2026-12-02  Buy milk\n")
    }

    @Test func aNarrowTerminalDropsTheTimeBeforeTheHints() throws {
        _ = try ok("add", "A rather long name for a narrow terminal", "--due", "\(day(1)) 19:00", "--every", "week")
        _ = try ok("add", "Another long name", "--due", day(2))
        let wide = try onTerminal("list", columns: "100").split(separator: "\n").map(String.init)
        #expect(wide.first == "  1  [ ]  \(day(1))↻ 19:00  tomorrow    A rather long name for a narrow terminal")
        #expect(wide.last == "  2  [ ]  \(day(2))         in 2 days   Another long name")
        // 50 columns: the hints fit, the time beside them would leave the name too little.
        let medium = try onTerminal("list", columns: "50").split(separator: "\n").map(String.init)
        #expect(medium.first?.hasPrefix("  1  [ ]  \(day(1))↻ tomorrow    A rather") == true, "\(medium)")
        #expect(medium.allSatisfy { $0.count <= 50 }, "\(medium)")
        let narrow = try onTerminal("list", columns: "40").split(separator: "\n").map(String.init)
        #expect(narrow.first?.hasPrefix("  1  [ ]  \(day(1))↻ A rather") == true, "\(narrow)")
        #expect(narrow.allSatisfy { $0.count <= 40 }, "\(narrow)")
    }

    @Test func showGivesTheLocalTimeAndTheStart() throws {
        _ = try ok("add", "Team call", "--due", "2026-12-04 19:00", "--start", "2026-12-01")
        #expect(
            try shown(1, "deadline", "due_time", "starts") == [
                "deadline:  2026-12-04 19:00", "due_time:  19:00 (local time, in any time zone)",
                "starts:    2026-12-01"
            ])
        _ = try ok("add", "Buy milk")
        #expect(
            try shown(2, "deadline", "due_time", "starts") == ["deadline:  none", "due_time:  none", "starts:    none"])
        let json = try parseJSON(try ok("show", "1", "--json"), as: [String: Any].self, "show --json")
        #expect(json["due_time"] as? String == "19:00" && json["start_date"] as? String == "2026-12-01")
        // On a terminal the start says how far away it is.
        _ = try ok("edit", "1", "--start", day(3), "--due", day(5))
        #expect(try onTerminal("show", "1").contains("starts:    \(day(3)) (in 3 days)\n"))
    }

    // MARK: Not started yet

    @Test func todosNotStartedYetAreLeftOutUnlessAskedFor() throws {
        _ = try ok("add", "Buy milk", "--due", day(2))
        _ = try ok("add", "Plan the trip", "--due", day(20), "--start", day(5))
        _ = try ok("add", "Started", "--due", day(20), "--start", day(0))
        _ = try ok("add", "Pack", "--start", day(1))
        let started = "  1  [ ]  \(day(2))  Buy milk\n  3  [ ]  \(day(20))  Started\n"
        #expect(try ok("list") == started)
        #expect(try ok() == started)
        #expect(try ok("list", "--all").split(separator: "\n").count == 4)
        #expect(try ok("--all").split(separator: "\n").count == 4)
        #expect(try ok("list", "--waiting") == "  2  [ ]  \(day(20))  Plan the trip\n  4  [ ]              Pack\n")
        #expect(try parseJSON(try ok("list", "--json"), as: [[String: Any]].self, "list").count == 2)
        #expect(try sandbox.listJSON("--waiting").count == 2)
        // Export keeps every todo; --waiting narrows it as it narrows the list.
        let exported = try parseJSON(try ok("export"), as: [[String: Any]].self, "export")
        #expect(exported.count == 4)
        #expect(try parseJSON(try ok("export", "--waiting"), as: [[String: Any]].self, "export").count == 2)
        // Done, a todo waits for nothing.
        _ = try ok("done", "2")
        #expect(try ok("list", "--done") == "  2  [x]  \(day(20))  Plan the trip\n")
        #expect(try ok("list", "--waiting") == "  4  [ ]              Pack\n")
        // On a terminal, bare todo counts them under the list, and their rows say when they start.
        let screen = try onTerminal().split(separator: "\n").map(String.init)
        #expect(
            screen.suffix(2) == ["1 done todo hidden: todo list --done", "1 waiting todo hidden: todo list --waiting"],
            "\(screen)")
        _ = try ok("undone", "2")
        #expect(
            try onTerminal("list", "--waiting") == """
                  2  [ ]  \(day(20))  starts \(CLISandbox.weekday(5))  Plan the trip
                  4  [ ]              starts \(CLISandbox.weekday(1))  Pack

                """)
    }

    @Test func watchLeavesOutTheTodosNotStartedYet() throws {
        _ = try ok("add", "Buy milk", "--due", "2026-12-02 8:00")
        _ = try ok("add", "Plan the trip", "--due", day(20), "--start", day(5))
        let watch = try RunningProcess(
            ProcessRunner.todoBinary, ["watch"], environment: ["TODO_DB": sandbox.database, "TZ": "UTC"])
        #expect(watch.nextLine() == "  1  [ ]  2026-12-02  08:00  Buy milk")
        #expect(watch.nextLine() == "Watching for changes (Ctrl-C to stop)...")
        _ = try ok("edit", "2", "--no-start")
        #expect(watch.nextLine() == "+ 2  Plan the trip", "it joins the list once it has started")
        #expect(watch.interrupt() == 130)
    }

    // MARK: Time zones

    /// The issue's "Must show": one database, a date-time DUE another app wrote on Berlin's
    /// clock and a floating 19:00, read in Berlin and in New York.
    @Test func theSameFileReadInBerlinAndInNewYork() throws {
        let ics = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//other//app//EN", "BEGIN:VTODO", "UID:berlin-call",
            "DTSTAMP:20261120T080000Z", "SUMMARY:Call Berlin", "DUE;TZID=Europe/Berlin:20261130T003001", "END:VTODO",
            "END:VCALENDAR", ""
        ].joined(separator: "\r\n")
        let file = sandbox.folder.file("berlin.ics")
        try ics.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(
            try sandbox.ok(["import", "--from", "ics", file], environment: ["TZ": "America/New_York"])
                == "Imported 1 todo.\n")
        _ = try ok("add", "Floating", "--due", "2026-11-29 19:00", zone: "America/New_York")
        #expect(try due(1) == "2026-11-30|00:30:01 Europe/Berlin|\(NSNull())", "kept as written, whoever imported it")
        #expect(
            try ok("list", zone: "Europe/Berlin")
                == "  2  [ ]  2026-11-29  19:00  Floating\n  1  [ ]  2026-11-30  00:30  Call Berlin\n")
        #expect(
            try ok("list", zone: "America/New_York")
                == "  2  [ ]  2026-11-29  19:00  Floating\n  1  [ ]  2026-11-29  18:30  Call Berlin\n")
        #expect(
            try shown(1, "deadline", "due_time", zone: "Europe/Berlin") == [
                "deadline:  2026-11-30 00:30:01", "due_time:  00:30:01 Europe/Berlin"
            ])
        #expect(
            try shown(1, "deadline", "due_time", zone: "America/New_York") == [
                "deadline:  2026-11-29 18:30:01", "due_time:  00:30:01 Europe/Berlin (18:30:01 on sun 2026-11-29 here)"
            ])
        #expect(try shown(2, "deadline", zone: "Europe/Berlin") == ["deadline:  2026-11-29 19:00"])
        #expect(try shown(2, "deadline", zone: "America/New_York") == ["deadline:  2026-11-29 19:00"])
        // The JSON keeps the time as written, in every zone.
        let json = try parseJSON(
            try ok("show", "1", "--json", zone: "America/New_York"), as: [String: Any].self, "show")
        #expect(json["deadline"] as? String == "2026-11-30" && json["due_time"] as? String == "00:30:01 Europe/Berlin")
        // A date typed in New York is New York's: the todo moves to that day there.
        _ = try ok("edit", "1", "--due", "2026-12-01", zone: "America/New_York")
        #expect(try due(1) == "2026-12-02|00:30:01 Europe/Berlin|\(NSNull())")
        #expect(
            try ok("list", "--search", "berlin", zone: "America/New_York")
                == "  1  [ ]  2026-12-01  18:30  Call Berlin\n")
        // Without its time it is due on the day it was shown on.
        _ = try ok("edit", "1", "--no-time", zone: "America/New_York")
        #expect(try due(1) == "2026-12-01|\(NSNull())|\(NSNull())")
    }

    /// An instant, and a zone this system does not know (Outlook's names), as `show` says them.
    @Test func instantsAndUnknownZones() throws {
        _ = try ok("list")  // creates the file
        try sqlite(
            "INSERT INTO todos (name, deadline, due_time) VALUES ('Instant', '2026-11-27', '2026-11-27T18:00:00Z'), ('Outlook', '2026-11-27', '19:00 India Standard Time')"
        )
        #expect(
            try ok("list", zone: "America/New_York")
                == "  1  [ ]  2026-11-27  13:00  Instant\n  2  [ ]  2026-11-27  19:00  Outlook\n")
        #expect(
            try shown(1, "due_time", zone: "America/New_York") == ["due_time:  2026-11-27T18:00:00Z (13:00 here)"])
        #expect(
            try shown(2, "due_time", zone: "America/New_York") == [
                "due_time:  19:00 India Standard Time (a time zone this system does not know: shown as written)"
            ])
    }

    /// A weekly 19:00 chore finished across the end of daylight saving time in Berlin (25
    /// October 2026) stays at 19:00.
    @Test func daylightSavingDoesNotMoveAWeeklyChore() throws {
        let berlin = "Europe/Berlin"
        _ = try ok("add", "Take out the bins", "--due", "2026-10-23 19:00", "--every", "week", zone: berlin)
        #expect(try ok("done", "1", zone: berlin) == "✓ 1  Take out the bins  next 2026-10-30\n")
        #expect(try due(1) == "2026-10-30|19:00|\(NSNull())")
        #expect(try ok("list", zone: berlin) == "  1  [ ]  2026-10-30↻ 19:00  Take out the bins\n")
        #expect(try shown(1, "deadline", zone: berlin) == ["deadline:  2026-10-30 19:00"])
        let ics = try ok("export", "--format", "ics", zone: berlin)
        #expect(ics.contains("DUE:20261030T190000\r\n"), "floating: 19:00 on every clock\n\(ics)")
    }
}

/// The ui's rows follow `todo list`'s: the time column when a todo has a time, dropped first.
@Suite(.timed) struct DueTimesUIUnitTests {
    @Test func uiRowsCarryTheTimeColumnWhereThereIsRoom() {
        let todos = [
            Todo(
                id: 1,
                TodoFields(
                    name: "Buy milk", deadline: UIUnitTests.today, dueTime: .wall(secondOfDay: 68_400, zone: nil))),
            Todo(id: 2, TodoFields(name: "Call mum", deadline: CalendarDate("2024-05-02")))
        ]
        var list = UIList(TodoResultsSnapshot(order: .due, todos: todos), order: .due)
        var state = UIState(order: .due, searches: [])
        state.place(at: 1, in: list)
        state.follow(in: &list)
        var renderer = UIRenderer(
            style: TextStyle.resolve(option: "never", stdoutIsTerminal: false), today: UIUnitTests.today)
        renderer.configure(columns: 100, maxID: 2, timesAsked: true)
        let frame = renderer.frame(list: list, state: state, rows: 12)
        #expect(frame.contains("  [ ] 2  2024-05-02         tomorrow    Call mum"), "\(frame)")
        #expect(frame.contains { $0.hasSuffix("2024-05-01  19:00  today       Buy milk") }, "\(frame)")
        renderer.configure(columns: 40, maxID: 2)
        let narrow = renderer.frame(list: list, state: state, rows: 12)
        #expect(
            !narrow.contains { $0.contains("19:00") } && narrow.contains("  [ ] 2  2024-05-02  Call mum"), "\(narrow)")
    }
}
