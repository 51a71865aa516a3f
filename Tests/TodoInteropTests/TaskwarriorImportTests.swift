// Fixture provenance: Fixtures/taskwarrior-export.json is the unedited output of the real tool,
// captured on Debian 12 (bookworm) with `taskwarrior` 2.6.2+dfsg-1 (`task --version`: 2.6.2),
// installed by `apt-get install taskwarrior`, by running
//     Tests/TodoInteropTests/Fixtures/capture-taskwarrior.sh Tests/TodoInteropTests/Fixtures/taskwarrior-export.json
// That script, checked in beside the fixture, points HOME, TASKRC and TASKDATA at a throwaway
// folder, sets TZ=Asia/Tokyo, and runs:
//     task add "Buy milk" due:2024-05-01
//     task add "Write report" project:work +office
//     task add '牛乳を買う ☕️ café "quoted"' due:2024-12-31
//     task add "File taxes" due:2024-04-15
//     task add "Call mom"
//     task 4 done
//     task 5 delete
//     task add "Water plants" due:2099-06-01 wait:2099-05-25
//     task add "Pay rent" due:2099-01-01 recur:yearly until:2100-06-01
//     task export
// (each `task` with rc.verbose=nothing rc.confirmation=off, and since the script gained its
// `recurring` list, rc.recurrence.confirmation=off). Taskwarrior stores a due date as
// the UTC instant of local midnight: `due:2024-05-01` in Tokyo is `20240430T150000Z`. The export
// holds a recurring template ("status":"recurring") and its first instance (a pending task whose
// "parent" is the template's uuid). `entry`, `modified`, `end` and the uuids depend on when it
// ran: the tests that compare a whole list compare names, deadlines and states (``core(_:)``);
// the created and completed times are checked on their own.
//
// Time zones: the importer takes a `LocalTimeZone`. Most tests pass a fixed offset
// (`.offset(seconds:)`), so they are deterministic whatever TZ the machine has. The suite
// `TaskwarriorSystemTimeZoneTests` checks the `.system` path (glibc `localtime_r`, the one
// `todo import` uses) by setting TZ with `setenv` + `tzset()` and restoring it afterwards; it is
// serialized, and no other test in this target reads the process's zone.
import Foundation
import TestSupport
import Testing
import TodoInterop
import TodoStore

private let tokyo = LocalTimeZone.offset(seconds: 9 * 3600)

/// What the fixture holds, read in the zone it was written in.
private let expectedInTokyo = [
    ImportedTodo(name: "Buy milk", deadline: day("2024-05-01")),
    ImportedTodo(name: "Write report"),
    ImportedTodo(name: "牛乳を買う ☕️ café \"quoted\"", deadline: day("2024-12-31")),
    ImportedTodo(name: "Water plants", deadline: day("2099-06-01")),
    // The template and its instance: one todo (repeating: see RepeatImportTests).
    ImportedTodo(name: "Pay rent", deadline: day("2099-01-01")),
    ImportedTodo(name: "File taxes", deadline: day("2024-04-15"), isDone: true)
    // "Call mom" was deleted: skipped.
]

/// The name, deadline and state of each todo: what depends on the tasks as typed, not on when
/// taskwarrior ran.
private func core(_ todos: [ImportedTodo]) -> [ImportedTodo] {
    todos.map { ImportedTodo(name: $0.name, deadline: $0.deadline, isDone: $0.isDone) }
}

@Suite(.timed) struct TaskwarriorImportTests {
    /// The summary's counts in English: "2 priorities", not "2 prioritys".
    @Test func whatIsNotKeptIsCountedInPlainEnglish() {
        #expect(ImportReport.NotKept.priority.describe(2) == "2 priorities")
        #expect(ImportReport.NotKept.priority.describe(1) == "1 priority")
        #expect(ImportReport.NotKept.project.describe(2) == "2 projects")
        #expect(ImportReport.NotKept.annotation.describe(3) == "3 annotations")
        #expect(ImportReport.NotKept.tag.describe(1) == "1 tag")
    }

    @Test func readsTheRealExportInTheZoneItWasWrittenIn() throws {
        let todos = try TodoImporter.parse(
            try Fixture.bytes("taskwarrior-export.json"), format: .taskwarrior, timeZone: tokyo)
        #expect(core(todos) == expectedInTokyo)
    }

    @Test func readsTheRealExportElsewhereAsThatZonesCalendarDay() throws {
        // The same instants seen from UTC: local midnight in Tokyo is 15:00 the day before.
        let todos = try TodoImporter.parse(
            try Fixture.bytes("taskwarrior-export.json"), format: .taskwarrior,
            timeZone: .offset(seconds: 0))
        #expect(
            todos.map(\.deadline) == [
                day("2024-04-30"), nil, day("2024-12-30"), day("2099-05-31"), day("2098-12-31"), day("2024-04-14")
            ])
        #expect(todos.map(\.name) == expectedInTokyo.map(\.name))
    }

    @Test func readsALiveExportFromTheInstalledTool() throws {
        try #require(Fixture.isInstalled("task"), "taskwarrior is not installed (scripts/setup installs it)")
        // Runs the same capture script with the taskwarrior on this machine: its output today
        // must import as the checked-in fixture does.
        let folder = TemporaryFolder()
        let output = folder.file("export.json")
        let run = try ProcessRunner.run("sh", [Fixture.path("capture-taskwarrior.sh"), output])
        try #require(run.status == 0, "\(run.stderr)")
        let todos = try TodoImporter.parse(try Fixture.bytes(output), format: .taskwarrior, timeZone: tokyo)
        #expect(core(todos) == expectedInTokyo)
    }

    @Test func mapsEveryStatus() throws {
        let text = """
            [
            {"description": "p", "status": "pending"},
            {"description": "w", "status": "waiting", "wait": "20990101T000000Z"},
            {"description": "c", "status": "completed", "end": "20240101T000000Z"},
            {"description": "d", "status": "deleted"},
            {"description": "r", "status": "recurring", "uuid": "lonely-template", "due": "20240501T000000Z"}
            ]
            """
        #expect(
            try importing(text, .taskwarrior) == [
                ImportedTodo(name: "p"),
                ImportedTodo(name: "w", start: day("2099-01-01")),
                ImportedTodo(name: "c", isDone: true, completed: UTCTimestamp(iso: "2024-01-01T00:00:00Z")),
                // A template with no instance in the file is the only trace of that task: kept.
                ImportedTodo(name: "r", deadline: day("2024-05-01"))
            ])
    }

    /// Issue 26: priority, project and tags, annotations, entry and end are kept (the project
    /// apart from the tags since issue 37).
    @Test func keepsPriorityProjectTagsAnnotationsAndTimes() throws {
        let text = """
            [{"description": "Write report", "status": "completed", "project": "work", "tags": ["office", "q3"],
              "priority": "H", "entry": "20240101T080000Z", "end": "20240105T170000Z",
              "annotations": [{"entry": "20240102T090000Z", "description": "asked Ann"},
                              {"entry": "20240103T090000Z", "description": "draft sent"}]},
             {"description": "x", "status": "pending", "project": "Home\\tGarden", "tags": ["ok", "two  spaces", "Two Words"],
              "priority": "URGENT"}]
            """
        let report = try TodoImporter.read(Array(text.utf8), format: .taskwarrior, timeZone: tokyo)
        let first = try #require(report.todos.first)
        // The project is the project, never a tag (issue 37, point 2).
        #expect(first.priority == .high && first.tags.storage == "+office +q3" && first.project?.path == "work")
        // Each annotation a line, with its local date and time (Tokyo: UTC+9) to the minute.
        #expect(first.note == "2024-01-02 18:00 asked Ann\n2024-01-03 18:00 draft sent")
        #expect(first.created == UTCTimestamp(iso: "2024-01-01T08:00:00Z"))
        #expect(first.completed == UTCTimestamp(iso: "2024-01-05T17:00:00Z"))
        #expect(report.todos[1].tags.storage == #"+ok +"Two Words""# && report.todos[1].priority == .none)
        // What still has no place is said: a project that names none or a tag that is no tag (a
        // tab, two spaces in a row; one with a space is a tag since issue 36), an unknown priority.
        #expect(report.notKept.map { $0.what.describe($0.count) } == ["1 project", "1 tag", "1 priority"])
        // The fixture, from the real tool: project:work +office became the project and a tag.
        let fixture = try TodoImporter.parse(
            try Fixture.bytes("taskwarrior-export.json"), format: .taskwarrior, timeZone: tokyo)
        #expect(
            fixture[1].tags.storage == "+office" && fixture[1].project?.path == "work"
                && fixture.allSatisfy { $0.created != nil })
        #expect(fixture.last?.completed != nil, "File taxes was done: its end is its completed time")
    }

    @Test func convertsDueToTheCalendarDateAtThatInstant() throws {
        func date(_ due: String, _ zone: LocalTimeZone) throws -> CalendarDate? {
            try importing(
                #"[{"description": "x", "status": "pending", "due": "\#(due)"}]"#, .taskwarrior, timeZone: zone)[0]
                .deadline
        }
        #expect(try date("20240501T000000Z", .offset(seconds: 0)) == day("2024-05-01"))
        #expect(try date("20240501T000000Z", .offset(seconds: -3600)) == day("2024-04-30"))
        #expect(try date("20240430T150000Z", .offset(seconds: 9 * 3600)) == day("2024-05-01"))
        #expect(try date("20240430T145959Z", .offset(seconds: 9 * 3600)) == day("2024-04-30"))
        #expect(try date("20241231T235959Z", .offset(seconds: 14 * 3600)) == day("2025-01-01"))  // Kiritimati
        #expect(try date("19691231T235959Z", .offset(seconds: 0)) == day("1969-12-31"))  // before the epoch
        #expect(try date("20240228T233000Z", .offset(seconds: 3600)) == day("2024-02-29"))
    }

    @Test func readsOneTaskPerLineToo() throws {
        // `task export rc.json.array=off` prints one object a line, without brackets or commas.
        let text = """
            {"id":1,"description":"Buy milk","due":"20240430T150000Z","status":"pending"}
            {"id":0,"description":"Call mom","status":"deleted"}
            {"id":0,"description":"File taxes","status":"completed"}

            """
        #expect(
            try importing(text, .taskwarrior, timeZone: tokyo) == [
                ImportedTodo(name: "Buy milk", deadline: day("2024-05-01")),
                ImportedTodo(name: "File taxes", isDone: true)
            ])
        #expect(
            importError(text + #"{"description":"x","status":"gone"}"#, .taskwarrior)?.description
                == #"record 4: unknown status "gone" (expected pending, waiting, recurring, completed or deleted)"#)
    }

    @Test(arguments: [
        (
            #"[{"description": "a", "status": "deleted"}, {"description": "b", "status": "pending"}, {"description": "c", "status": "done"}]"#,
            #"record 3: unknown status "done" (expected pending, waiting, recurring, completed or deleted)"#
        ),
        (#"[{"description": "a"}]"#, #"record 1: "status" is missing"#),
        (#"[{"description": "a", "status": 1}]"#, #"record 1: "status" must be a string, found a number"#),
        (#"[{"status": "pending"}]"#, #"record 1: "description" is missing"#),
        (#"[{"description": "  ", "status": "pending"}]"#, #"record 1: "description" is empty"#),
        (
            #"[{"description": "a", "status": "pending", "due": "2024-05-01"}]"#,
            #"record 1: "due" is not a UTC timestamp like 20240501T000000Z"#
        ),
        (
            #"[{"description": "a", "status": "pending", "due": "20240501T000000"}]"#,
            #"record 1: "due" is not a UTC timestamp like 20240501T000000Z"#
        ),
        (
            #"[{"description": "a", "status": "pending", "due": "20230229T000000Z"}]"#,
            #"record 1: "due" 20230229T000000Z is not a real date and time"#
        ),
        (
            #"[{"description": "a", "status": "pending", "due": "20240501T250000Z"}]"#,
            #"record 1: "due" 20240501T250000Z is not a real date and time"#
        ),
        (
            #"[{"description": "a", "status": "pending", "due": 1714521600}]"#,
            #"record 1: "due" must be a timestamp like 20240501T000000Z, found a number"#
        ),
        (
            #"[{"description": "a", "status": "pending", "due": "99991231T230000Z"}]"#,
            #"record 1: "due" 99991231T230000Z is outside the years 1 to 9999"#
        ),
        (#"[{"description": "a", "status": "pending"}, "b"]"#, "record 2: expected a task object, found a string"),
        (#"{"description": "a", "status": "pending"} oops"#, "line 1, column 43: unexpected 'o', expected a value"),
        ("[", "line 1, column 2: unexpected end of input, expected a value"),
        ("", "line 1, column 1: unexpected end of input, expected a value")
    ])
    func namesTheBadRecord(_ text: String, _ message: String) {
        // The zone is UTC+1 so that the last day of year 9999 runs past the supported years.
        #expect(importError(text, .taskwarrior, timeZone: .offset(seconds: 3600))?.description == message)
    }

    @Test func deletedTasksAreSkippedWhateverElseTheyHold() throws {
        let text =
            #"[{"description": "", "status": "deleted", "due": "garbage"}, {"description": "kept", "status": "pending"}]"#
        #expect(try importing(text, .taskwarrior) == [ImportedTodo(name: "kept")])
    }
}

/// The `.system` zone, through glibc: TZ is changed for the duration of each test.
@Suite(.timed, .serialized) struct TaskwarriorSystemTimeZoneTests {
    /// Runs `body` with TZ set to `zone`, then restores the previous TZ (or its absence).
    private func withTZ<T>(_ zone: String, _ body: () throws -> T) rethrows -> T {
        let previous = getenv("TZ").map { String(cString: $0) }
        setenv("TZ", zone, 1)
        tzset()
        defer {
            if let previous { setenv("TZ", previous, 1) } else { unsetenv("TZ") }
            tzset()
        }
        return try body()
    }

    private func deadline(_ due: String) throws -> CalendarDate? {
        try importing(
            #"[{"description": "x", "status": "pending", "due": "\#(due)"}]"#, .taskwarrior, timeZone: .system)[0]
            .deadline
    }

    @Test func theFixtureReadsBackInTokyoAsItWasTyped() throws {
        let bytes = try Fixture.bytes("taskwarrior-export.json")
        let todos = try withTZ("Asia/Tokyo") { try TodoImporter.parse(bytes, format: .taskwarrior) }
        #expect(core(todos) == expectedInTokyo)
    }

    @Test func theSameInstantIsTheDayBeforeInLosAngeles() throws {
        // 20240430T150000Z is 08:00 on April 30 in Los Angeles (PDT, UTC-7).
        let bytes = try Fixture.bytes("taskwarrior-export.json")
        let todos = try withTZ("America/Los_Angeles") { try TodoImporter.parse(bytes, format: .taskwarrior) }
        #expect(core(todos).first == ImportedTodo(name: "Buy milk", deadline: day("2024-04-30")))
    }

    @Test func daylightSavingTimeIsTheOneInForceAtThatInstant() throws {
        // 04:30 UTC is 00:30 in New York in July (EDT, UTC-4) but 23:30 the evening before in
        // January (EST, UTC-5): one fixed offset could not get both right.
        try withTZ("America/New_York") { () throws in
            #expect(try deadline("20240701T043000Z") == day("2024-07-01"))
            #expect(try deadline("20240101T043000Z") == day("2023-12-31"))
        }
        try withTZ("UTC") { () throws in
            #expect(try deadline("20240701T043000Z") == day("2024-07-01"))
            #expect(try deadline("20240101T043000Z") == day("2024-01-01"))
        }
    }
}
