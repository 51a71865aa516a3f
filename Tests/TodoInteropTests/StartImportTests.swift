// Issue 34: start dates and due times through taskwarrior's export and todo.txt. taskwarrior's
// `wait` (else `scheduled`) and todo.txt's `t:` are the start; taskwarrior's due time of day is
// the due time. A start on the deadline's day is no separate start; one after it is counted.
import Foundation
import TestSupport
import Testing
import TodoInterop
import TodoStore

private let tokyo = LocalTimeZone.offset(seconds: 9 * 3600)

/// 18:30, floating: how a taskwarrior due time reads.
private let halfPastSix = TodoDueTime.wall(secondOfDay: 18 * 3600 + 30 * 60, zone: nil)

@Suite(.timed) struct TaskwarriorStartTests {
    /// Written in Tokyo: `20991014T150000Z` is 2099-10-15 there.
    @Test func waitElseScheduledIsTheStart() throws {
        let read = try report(
            """
            [{"description":"Plant bulbs","status":"waiting","due":"20991014T150000Z","wait":"20990930T150000Z"},
             {"description":"Call the plumber","status":"pending","due":"20991102T093000Z","scheduled":"20991029T150000Z"},
             {"description":"Both","status":"pending","due":"20990228T150000Z","wait":"20990224T150000Z","scheduled":"20990219T150000Z"},
             {"description":"Both alike","status":"pending","wait":"20990224T150000Z","scheduled":"20990225T010000Z"},
             {"description":"No due","status":"waiting","wait":"20990101T000000Z"},
             {"description":"On the due date","status":"pending","due":"20990228T150000Z","wait":"20990301T020000Z"},
             {"description":"Wait after due","status":"pending","due":"20990228T150000Z","wait":"20990310T150000Z"},
             {"description":"Scheduled after due","status":"pending","due":"20990228T150000Z","scheduled":"20990302T150000Z"},
             {"description":"Done","status":"completed","due":"20990228T150000Z","wait":"20990227T150000Z","end":"20990101T000000Z"}]
            """, .taskwarrior, timeZone: tokyo)
        #expect(
            read.todos.map(\.start) == [
                day("2099-10-01"), day("2099-10-30"),
                day("2099-02-25"),  // wait, not scheduled
                day("2099-02-25"),  // the same day: one start, scheduled's 10:00 counted
                day("2099-01-01"),  // without a deadline any start is one (its 09:00 counted)
                nil,  // on the due date: no separate start, its 11:00 counted
                nil, nil,  // after the due date: no place, counted
                day("2099-02-28")
            ])
        #expect(read.todos[1].deadline == day("2099-11-02") && read.todos[1].dueTime == halfPastSix)
        #expect(
            notKept(read) == [
                "wait: after the due date on 1 todo", "scheduled: after the due date on 1 todo",
                "scheduled: other than wait: on 1 todo", "wait: time of day on 2 todos",
                "scheduled: time of day on 1 todo"
            ])
    }

    /// taskwarrior stores a due date typed without a time as local midnight: no due time. Any
    /// other time of day, to the second, is one, read on the importing zone's clock.
    @Test func aDueTimeOtherThanMidnightIsKeptFloating() throws {
        func due(_ stamp: String, _ zone: LocalTimeZone) throws -> (CalendarDate?, TodoDueTime?) {
            let todo = try importing(
                #"[{"description": "x", "status": "pending", "due": "\#(stamp)"}]"#, .taskwarrior, timeZone: zone)[0]
            return (todo.deadline, todo.dueTime)
        }
        #expect(try due("20240430T150000Z", tokyo) == (day("2024-05-01"), nil))
        #expect(try due("20240501T000000Z", .offset(seconds: 0)) == (day("2024-05-01"), nil))
        #expect(try due("20240501T093000Z", tokyo) == (day("2024-05-01"), halfPastSix))
        #expect(try due("20240430T150001Z", tokyo) == (day("2024-05-01"), .wall(secondOfDay: 1, zone: nil)))
        // The same instant in New York (UTC-4 in May) is 05:30 on the 1st.
        let newYork = LocalTimeZone.offset(seconds: -4 * 3600)
        #expect(try due("20240501T093000Z", newYork) == (day("2024-05-01"), .wall(secondOfDay: 19_800, zone: nil)))
        #expect(try due("20240501T000000Z", tokyo) == (day("2024-05-01"), .wall(secondOfDay: 9 * 3600, zone: nil)))
    }

    @Test(arguments: [
        (
            #"[{"description": "a", "status": "pending", "wait": "soon"}]"#,
            #"record 1: "wait" is not a UTC timestamp like 20240501T000000Z"#
        ),
        (
            #"[{"description": "a", "status": "pending", "scheduled": 5}]"#,
            #"record 1: "scheduled" must be a timestamp like 20240501T000000Z, found a number"#
        ),
        (
            #"[{"description": "a", "status": "pending", "wait": "20230229T000000Z"}]"#,
            #"record 1: "wait" 20230229T000000Z is not a real date and time"#
        )
    ])
    func aBadWaitOrScheduledNamesTheRecord(_ text: String, _ message: String) {
        #expect(importError(text, .taskwarrior)?.description == message)
    }

    /// taskwarrior gives each instance of a series the template's wait moved by as much as its
    /// due (`wait:due-2d` stays two days ahead): the todo's start keeps that distance.
    @Test func aSeriesKeepsItsStartBeforeTheDeadline() throws {
        let template =
            #"{"description":"Fern","due":"20990105T093000Z","recur":"weekly","status":"recurring","uuid":"t","wait":"20990102T150000Z"}"#
        let done =
            #"{"description":"Fern","due":"20990105T093000Z","end":"20990104T100000Z","imask":0,"parent":"t","recur":"weekly","status":"completed","uuid":"a","wait":"20990102T150000Z"}"#
        let pending =
            #"{"description":"Fern","due":"20990112T093000Z","imask":1,"parent":"t","recur":"weekly","status":"pending","uuid":"b","wait":"20990109T150000Z"}"#
        func fern(_ records: String...) throws -> ImportedTodo {
            try #require(
                try report("[" + records.joined(separator: ",\n") + "]", .taskwarrior, timeZone: tokyo).todos.first)
        }
        // None pending: the series stands at the occurrence done, its start two days before.
        let standing = try fern(template, done)
        #expect(standing.deadline == day("2099-01-05") && standing.start == day("2099-01-03"))
        #expect(standing.dueTime == halfPastSix && standing.repeatRule == "FREQ=WEEKLY")
        // An instance pending: its own start (here edited to three days before).
        let edited = pending.replacingOccurrences(of: "20990109T150000Z", with: "20990108T150000Z")
        let current = try fern(template, done, edited)
        #expect(current.deadline == day("2099-01-12") && current.start == day("2099-01-09"))
        // An instance without a wait: the template's, moved to its due date.
        let unwaited = pending.replacingOccurrences(of: #","wait":"20990109T150000Z""#, with: "")
        let moved = try fern(template, done, unwaited)
        #expect(moved.deadline == day("2099-01-12") && moved.start == day("2099-01-10"))
        #expect(moved.dueTime == halfPastSix)
        // The instances without their template: the pending one's start.
        #expect(try fern(done, pending).start == day("2099-01-10"))
    }
}

@Suite(.timed) struct TodoTxtStartTests {
    @Test func tIsTheStartAndLeavesTheName() throws {
        let read = try report(
            """
            Plant bulbs t:2026-10-01 due:2026-10-15
            t:2026-10-01 Leading tag
            No deadline t:2026-10-01
            x 2026-10-03 Done due:2026-10-15 t:2026-10-01
            Same day due:2026-10-15 t:2026-10-15
            After due:2026-10-15 t:2026-10-16
            T:2026-10-01 and at:2026-10-01 are not the tag
            """, .todotxt)
        #expect(
            read.todos.map(\.name) == [
                "Plant bulbs", "Leading tag", "No deadline", "Done", "Same day", "After",
                "T:2026-10-01 and at:2026-10-01 are not the tag"
            ])
        #expect(
            read.todos.map(\.start) == [
                day("2026-10-01"), day("2026-10-01"), day("2026-10-01"), day("2026-10-01"), nil, nil, nil
            ])
        #expect(notKept(read) == ["t: after the due date on 1 todo"], "on the due date it is no separate start")
    }

    @Test(arguments: [
        ("Read t:soon", "line 1: t:soon is not a YYYY-MM-DD date"),
        ("Read t:", "line 1: t: is not a YYYY-MM-DD date"),
        ("Read t:2026/10/01", "line 1: t:2026/10/01 is not a YYYY-MM-DD date"),
        ("ok\nRead t:2026-02-30", "line 2: t:2026-02-30 is not a day in the calendar"),
        ("Read t:2026-10-01 t:2026-10-02", "line 1: more than one t: tag"),
        ("t:2026-10-01", "line 1: the todo has no name")
    ])
    func aBadTNamesTheLine(_ text: String, _ message: String) {
        #expect(importError(text, .todotxt)?.description == message)
    }

    /// The writer writes `t:` after `due:`, and the lines read back as the same todos. A due
    /// time has no todo.txt form.
    @Test func theWriterWritesTAndItReadsBack() throws {
        let todos = [
            ImportedTodo(name: "Plant bulbs", deadline: day("2026-10-15"), start: day("2026-10-01")),
            ImportedTodo(name: "No deadline", start: day("2026-10-01")),
            ImportedTodo(
                name: "Timesheet", deadline: day("2026-11-27"), priority: .high, repeatRule: "FREQ=WEEKLY",
                start: day("2026-11-20")),
            ImportedTodo(
                name: "Done", deadline: day("2026-10-15"), isDone: true,
                completed: UTCTimestamp(iso: "2026-10-03T12:00:00Z"), start: day("2026-10-01"))
        ]
        let lines = todos.map(TodoTxtWriter.line)
        #expect(
            lines == [
                "Plant bulbs due:2026-10-15 t:2026-10-01", "No deadline t:2026-10-01",
                "(A) Timesheet due:2026-11-27 t:2026-11-20 rec:+1w",
                "x 2026-10-03 Done due:2026-10-15 t:2026-10-01"
            ])
        #expect(try importing(lines.joined(separator: "\n"), .todotxt) == todos)
        let timed = ImportedTodo(name: "Call", deadline: day("2026-11-02"), dueTime: halfPastSix)
        #expect(TodoTxtWriter.line(timed) == "Call due:2026-11-02")
    }
}
