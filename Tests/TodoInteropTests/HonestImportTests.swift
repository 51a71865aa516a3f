// Issue 37: an honest import. Every record, field or value a reader does not keep is counted by
// name, with the record or line it was in; taskwarrior's user-defined attributes and the times
// of its annotations are kept in the note; the ids and field presence of todo's own JSON are
// read for the importer, which keeps ids and updates todos it holds.
import Foundation
import TestSupport
import Testing
import TodoInterop
import TodoStore

private let tokyo = LocalTimeZone.offset(seconds: 9 * 3600)

@Suite(.timed) struct HonestTaskwarriorImportTests {
    /// Three UDAs (a string, a number, a date) after the annotations, by name, each with its
    /// annotation's local date and time; bookkeeping is no attribute.
    @Test func attributesAndAnnotationTimesAreKeptInTheNote() throws {
        let read = try report(
            """
            [{"id":3,"uuid":"u1","description":"Write report","status":"pending","entry":"20240101T000000Z",
              "modified":"20240102T000000Z","urgency":4.2,"ticket":"T-101","estimate":2.5,"client":"ACME",
              "reviewed":"20240301T150000Z","due_soon":"20240302T013000Z","empty":"","nothing":null,"count":3,
              "annotations":[{"entry":"20240501T012200Z","description":"Called Ann"},
                             {"entry":"20240430T150000Z","description":"Left a message"}]}]
            """, .taskwarrior, timeZone: tokyo)
        #expect(
            read.todos[0].note == """
                2024-05-01 10:22 Called Ann
                2024-05-01 00:00 Left a message
                client: ACME
                count: 3
                due_soon: 2024-03-02 10:30
                estimate: 2.5
                reviewed: 2024-03-02
                ticket: T-101
                """)
        #expect(notKept(read).isEmpty, "id, modified, urgency are bookkeeping; empty and null values hold nothing")
    }

    /// The 610-task import of the issue printed no "Not kept" line while it lost deleted tasks,
    /// start times and times of day: each is counted now, by name, with where it was.
    @Test func everyDroppedThingIsCountedWithItsRecord() throws {
        let read = try report(
            """
            [{"uuid":"a","description":"Old idea","status":"deleted","end":"20240101T000000Z"},
             {"uuid":"b","description":"Active","status":"pending","start":"20240101T090000Z"},
             {"uuid":"c","description":"Done early","status":"completed","start":"20240101T090000Z","end":"20240102T000000Z"},
             {"uuid":"d","description":"Hidden","status":"waiting","wait":"20990101T013000Z","due":"20990110T150000Z"},
             {"uuid":"e","description":"Planned","status":"pending","scheduled":"20990101T013000Z"},
             {"uuid":"f","description":"Odd end","status":"pending","end":"20240102T000000Z"},
             {"uuid":"g","description":"Expires","status":"pending","until":"20990102T000000Z"}]
            """, .taskwarrior, timeZone: tokyo)
        #expect(read.todos.map(\.name) == ["Active", "Done early", "Hidden", "Planned", "Odd end", "Expires"])
        #expect(read.todos[0].status == .inProcess && read.todos[2].start == day("2099-01-01"))
        #expect(
            notKept(read) == [
                "1 deleted task", "wait: time of day on 1 todo", "scheduled: time of day on 1 todo",
                "start: (when work began) on 2 todos", "until: on 1 todo", "end: on a task not completed on 1 todo"
            ])
        #expect(
            read.dropped.map {
                "\($0.source.location) \($0.source.identity ?? "") \($0.source.name ?? "") \($0.what.label)"
            }
                == [
                    "record(1) a Old idea deleted task", "record(2) b Active start: (when work began)",
                    "record(3) c Done early start: (when work began)", "record(4) d Hidden wait: time of day",
                    "record(5) e Planned scheduled: time of day", "record(6) f Odd end end: on a task not completed",
                    "record(7) g Expires until:"
                ])
        #expect(read.sources.map(\.identity) == ["b", "c", "d", "e", "f", "g"])
        #expect(read.fieldsNeverGiven == ["percent"], "taskwarrior has no percent: an update keeps the todo's")
    }

    /// An instance annotated or retagged there is counted: the series is one todo, with the
    /// template's fields. A series' until at another time than midnight is counted; so is the
    /// recur of an instance whose template was deleted.
    @Test func whatASeriesCannotKeepIsCounted() throws {
        let read = try report(
            """
            [{"uuid":"t","description":"Water","status":"recurring","recur":"weekly","due":"20990104T150000Z",
              "until":"20990301T120000Z","tags":["home"]},
             {"uuid":"i0","parent":"t","imask":0,"description":"Water","status":"completed","recur":"weekly",
              "due":"20990104T150000Z","end":"20990105T000000Z","tags":["home"]},
             {"uuid":"i1","parent":"t","imask":1,"description":"Water","status":"pending","recur":"weekly",
              "due":"20990111T150000Z","tags":["home"],"annotations":[{"entry":"20990110T000000Z","description":"twice"}]},
             {"uuid":"gone","description":"Old","status":"deleted","recur":"weekly","due":"20990104T150000Z"},
             {"uuid":"o1","parent":"gone","imask":0,"description":"Old","status":"pending","recur":"weekly",
              "until":"20990301T000000Z","due":"20990104T150000Z"}]
            """, .taskwarrior, timeZone: tokyo)
        #expect(read.todos.map(\.name) == ["Water", "Old"])
        #expect(read.todos[0].repeatRule == "FREQ=WEEKLY;UNTIL=20990301" && read.todos[0].note == nil)
        #expect(
            notKept(read) == [
                "1 deleted task", "until: on 1 todo", "until: time of day on 1 todo",
                "recur: of a deleted series on 1 todo", "1 occurrence with fields of its own"
            ])
        #expect(read.sources[0].identity == "t", "the series is its template")
    }
}

@Suite(.timed) struct HonestTodoTxtImportTests {
    @Test func prioritiesAfterIAreCounted() throws {
        let read = try report("(J) Call Ann\n\n(A) Pay rent\nx pri:Z Done\n", .todotxt)
        #expect(read.todos.map(\.priority.rawValue) == [9, 1, 9])
        #expect(notKept(read) == ["priority (J) to (Z), read as (I) on 2 todos"])
        #expect(
            read.dropped.map(\.source) == [
                ImportSource(location: .line(1), name: "Call Ann"), ImportSource(location: .line(4), name: "Done")
            ])
    }
}

@Suite(.timed) struct HonestJSONImportTests {
    /// A key no field reads is counted by its name (`null` holds nothing to lose); a parent, a
    /// todo waited for or a list the file cannot give, and an id given twice, are counted.
    @Test func whatTheJSONReaderDoesNotKeepIsCounted() throws {
        let read = try report(
            """
            [{"id": 4, "name": "a", "colour": "red", "later": null, "parent": 99, "uid": "A"},
             {"id": 7, "name": "b", "colour": "blue", "weight": 3, "depends": [4, 98], "list": " "},
             {"id": 4, "name": "c", "children": [], "depth": 0, "list": "Work"}]
            """, .json)
        #expect(
            notKept(read) == [
                #""colour" on 2 todos"#, #""weight" on 1 todo"#, "parent not in the file on 1 todo",
                "depends on a todo not in the file on 1 todo", "list that is no list name on 1 todo",
                "id not free here (given a new one) on 1 todo"
            ])
        #expect(read.ids == [0: 4, 1: 7], "the first record of an id has it")
        #expect(read.dependencies == [1: [0]] && read.lists == [2: "Work"] && read.parents.isEmpty)
        #expect(read.sources[0] == ImportSource(location: .record(1), identity: "A", name: "a"))
        // The fields a record leaves out are the todo's own on an update.
        #expect(read.gives("name", todo: 0) && !read.gives("note", todo: 0) && !read.gives("deadline", todo: 2))
    }

    /// What `todo export` writes is read whole: nothing counted.
    @Test func anExportLosesNothing() throws {
        let read = try report(
            """
            [{"id": 1, "name": "a", "deadline": null, "done": false, "priority": 0, "tags": [], "note": null,
              "created": null, "completed": null, "repeat_rule": null, "repeat_from": "due", "due_time": null,
              "start_date": null, "status": "needs-action", "percent": null, "project": null, "parent": null, "children": [2],
              "depends": [], "list": "Todos", "uid": "x"},
             {"id": 2, "name": "b", "parent": 1, "children": [], "depends": [1], "list": "Todos"}]
            """, .json)
        #expect(notKept(read).isEmpty && read.parents == [1: 0] && read.dependencies == [1: [0]])
        #expect(read.fieldsNotGiven[0] == nil)
    }
}

@Suite(.timed) struct ImportReportWordingTests {
    @Test func eachKindReadsAsEnglish() {
        #expect(ImportReport.NotKept.deletedTask.describe(1) == "1 deleted task")
        #expect(ImportReport.NotKept.deletedTask.describe(32) == "32 deleted tasks")
        #expect(ImportReport.NotKept.changedOccurrence.describe(2) == "2 occurrences with fields of their own")
        #expect(ImportReport.NotKept.key("colour").describe(1) == #""colour" on 1 todo"#)
        #expect(ImportReport.NotKept.uidTwice.describe(2) == "2 records with a UID given twice in the file")
        #expect(ImportReport.NotKept.dependsLoop.describe(1) == "1 dependency that would make a loop")
        #expect(ImportReport.NotKept.deletedTask < .wait && ImportReport.NotKept.key("a") < .key("b"))
    }
}
