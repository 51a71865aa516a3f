import TestSupport
import Testing
import TodoStore

@testable import TodoSync

/// `todo` never ends a series that goes on (issue 34's first point): which objects repeat past
/// their current occurrence, and what a sync does with a repeating todo marked done here.
@Suite(.timed) struct RepeatingSeriesTests {
    let folder = TemporaryFolder()

    @Test func aSeriesGoesOnUnlessItsRuleEndsAtTheCurrentOccurrence() throws {
        let cases: [(lines: [String], continues: Bool)] = [
            (["DUE;VALUE=DATE:20261201"], false),
            (["DUE;VALUE=DATE:20261201", "RRULE:FREQ=WEEKLY"], true),
            // Tasks.org's shape: a date-time DUE in a zone, no DTSTART.
            (["DUE;TZID=Europe/Berlin:20261127T190001", "RRULE:FREQ=WEEKLY;BYDAY=FR"], true),
            (["DUE;VALUE=DATE:20261201", "rrule:freq=daily;count=1"], false),
            (["DUE;VALUE=DATE:20261201", "RRULE:FREQ=DAILY;COUNT=2"], true),
            (["DTSTART;VALUE=DATE:20261215", "DUE;VALUE=DATE:20261215", "RRULE:FREQ=WEEKLY;UNTIL=20261215"], false),
            (["DTSTART;VALUE=DATE:20261208", "DUE;VALUE=DATE:20261208", "RRULE:FREQ=WEEKLY;UNTIL=20261215"], true),
            // A date-time UNTIL ends the series only when it is more than a day before.
            (["DUE:20261215T090000Z", "RRULE:FREQ=WEEKLY;UNTIL=20261215T235959Z"], true),
            (["DUE:20261215T090000Z", "RRULE:FREQ=WEEKLY;UNTIL=20261213T000000Z"], false),
            (["DUE;VALUE=DATE:20261201", "RDATE;VALUE=DATE:20261224"], true),
            (["DUE;VALUE=DATE:20261201", "RRULE:FREQ=WEEKLY;UNTIL=garbage"], true)
        ]
        for (lines, continues) in cases {
            let object = try VTodoObject(
                parsing: Fixtures.todoObject(["SUMMARY:Water plants"] + lines), timeZone: .offset(seconds: 0))
            #expect(object.seriesContinues == continues, "\(lines)")
        }
        #expect(try VTodoObject(parsing: Fixtures.recurring, timeZone: .offset(seconds: 0)).seriesContinues)
    }

    @Test func aRepeatingTodoMarkedDoneHereIsKeptOpenAndTheSeriesStaysOnTheServer() throws {
        let server = InMemoryCollection()
        let weekly = Fixtures.todoObject([
            "SUMMARY:Water plants", "DUE;VALUE=DATE:20261127", "RRULE:FREQ=WEEKLY;BYDAY=FR", "STATUS:NEEDS-ACTION"
        ])
        let last = Fixtures.todoObject([
            "SUMMARY:Last lesson", "DUE;VALUE=DATE:20261127", "RRULE:FREQ=WEEKLY;COUNT=1"
        ]).replacing("UID:t1", with: "UID:t2")
        server.put("/cal/t1.ics", weekly)
        server.put("/cal/t2.ics", last)
        let laptop = try Device(folder, "laptop", server)
        try laptop.sync()
        let plants = try laptop.id("Water plants")
        let lesson = try laptop.id("Last lesson")
        let state = SyncState(repository: laptop.repository)
        #expect(try state.todosInContinuingSeries(among: [lesson, plants]) == [plants])

        // Marked done some other way than `todo done` (the sqlite3 shell, an older todo), and renamed.
        _ = try laptop.repository.setDone(true, ids: [plants, lesson])
        _ = try laptop.repository.rename(id: plants, to: "Water the plants")
        let report = try laptop.sync()
        #expect(report.keptRepeating == [SyncReport.Named(todoID: plants, name: "Water the plants")])
        let kept = try #require(try laptop.repository.todo(id: plants))
        #expect(!kept.isDone && kept.completed == nil && kept.name == "Water the plants")
        let onServer = try #require(server.objects["/cal/t1.ics"]).text
        #expect(onServer.contains("STATUS:NEEDS-ACTION") && !onServer.contains("COMPLETED"), "\(onServer)")
        #expect(onServer.contains("SUMMARY:Water the plants") && onServer.contains("RRULE:FREQ=WEEKLY;BYDAY=FR"))
        // The series that ended at its occurrence is completed as any todo.
        #expect(try #require(server.objects["/cal/t2.ics"]).text.contains("STATUS:COMPLETED"))
        #expect(try laptop.sync() == SyncReport(), "nothing left to send")
    }

    /// TV12 (a): todoman's `done` takes the rule off the todo as it completes it and puts the
    /// series in a new todo (a new UID). The report names both, and only when both came in one
    /// sync with the same SUMMARY and rule: another new series, or a rule taken off alone, is
    /// no moved series.
    @Test func aSeriesAnotherAppMovedToANewTodoIsReported() throws {
        let server = InMemoryCollection()
        let study = "3f9c2e1a-7b4d-4c8e-9a2f-1d6e5b7c8a90"
        server.put("/cal/t1.ics", RecurrenceVectors.tv1.replacing(study, with: "t1"))
        server.put(
            "/cal/t2.ics", RecurrenceVectors.tv1.replacing(study, with: "t2").replacing("Pay rent", with: "Pay tax"))
        let laptop = try Device(folder, "laptop", server)
        try laptop.sync()
        let rent = try laptop.id("Pay rent")
        let tax = try laptop.id("Pay tax")
        server.put("/cal/t1.ics", RecurrenceVectors.tv12aDone.replacing(study, with: "t1"))
        server.put("/cal/clone.ics", RecurrenceVectors.tv12aNext)
        // The rule taken off "Pay tax" too, but its series went nowhere; a new series of another name.
        server.put(
            "/cal/t2.ics",
            RecurrenceVectors.tv12aDone.replacing(study, with: "t2").replacing("Pay rent", with: "Pay tax"))
        server.put(
            "/cal/other.ics",
            RecurrenceVectors.tv12aNext.replacing("todoman-clone", with: "other").replacing(
                "Pay rent", with: "Pay the gas"))
        let report = try laptop.sync()
        let clone = try #require(try laptop.repository.fetch().first { $0.name == "Pay rent" && $0.id != rent })
        #expect(
            report.seriesMoved == [
                SyncReport.Moved(
                    ended: SyncReport.Named(todoID: rent, name: "Pay rent"),
                    continued: SyncReport.Named(todoID: clone.id, name: "Pay rent"))
            ])
        #expect(clone.fields.repeatRule == "FREQ=MONTHLY" && clone.fields.deadline == CalendarDate("2027-01-01"))
        let ended = try #require(try laptop.repository.todo(id: rent))
        #expect(ended.isDone && ended.fields.repeatRule == nil)
        #expect(try laptop.repository.todo(id: tax)?.isDone == true)
        #expect(try laptop.sync() == SyncReport(), "nothing more to say or send")
    }

    /// TV9: a series another app marked done as a whole is reported when the todo is first
    /// seen too (a new device, a new collection), with where it would go on.
    @Test func aSeriesEndedElsewhereIsReportedWhenFirstSeen() throws {
        let server = InMemoryCollection()
        server.put("/cal/plants.ics", RecurrenceVectors.tv9)
        let laptop = try Device(folder, "laptop", server)
        let report = try laptop.sync()
        let plants = try laptop.id("Water plants")
        #expect(
            report.seriesEndedElsewhere == [
                SyncReport.Ended(
                    todo: SyncReport.Named(todoID: plants, name: "Water plants"), rule: "every week",
                    next: CalendarDate("2026-12-08"))
            ])
        #expect(try laptop.repository.todo(id: plants)?.isDone == true, "done here too, as the server says")
    }

    @Test func anOccurrenceFinishedAndUndoneHereIsNotSentLater() throws {
        let server = InMemoryCollection()
        let laptop = try Device(folder, "laptop", server)
        let december = try #require(CalendarDate(year: 2026, month: 12, day: 1))
        let id = try laptop.repository.add(
            TodoFields(name: "Backup", deadline: december, repeatRule: "FREQ=WEEKLY;COUNT=5")
        ).id
        try laptop.sync()
        _ = try laptop.repository.recordingUndo("done") { () throws(TodoStoreError) in
            try laptop.repository.finishOccurrence(of: id, .done, today: december)
        }
        #expect(try laptop.repository.pendingCompletions(ofTodo: id).map(\.occurrence) == [december])
        // Undo brings the todo back to the occurrence: the log keeps it, but it is open again.
        _ = try laptop.repository.undo()
        #expect(try laptop.repository.pendingCompletions(ofTodo: id).isEmpty)
        #expect(try laptop.repository.completions(ofTodo: id).count == 1)
        _ = try laptop.repository.rename(id: id, to: "Back up")
        try laptop.sync()
        let text = try #require(server.objects.values.first).text
        #expect(text.contains("SUMMARY:Back up") && text.contains("DUE;VALUE=DATE:20261201"), "\(text)")
        #expect(text.contains("RRULE:FREQ=WEEKLY;COUNT=5"), "the count is the one before the done: \(text)")

        // A todo that repeats from the day done, done early, stands before the occurrence it
        // finished: that one is still to send.
        let fern = try laptop.repository.add(
            TodoFields(
                name: "Fern", deadline: CalendarDate(year: 2026, month: 12, day: 10),
                repeatRule: "FREQ=DAILY;INTERVAL=3",
                repeatFrom: .done)
        ).id
        let finished = try laptop.repository.finishOccurrence(of: fern, .done, today: december)
        #expect(finished?.todo.deadline == CalendarDate(year: 2026, month: 12, day: 4))
        #expect(
            try laptop.repository.pendingCompletions(ofTodo: fern).map(\.occurrence) == [
                CalendarDate(year: 2026, month: 12, day: 10)
            ])
    }
}
