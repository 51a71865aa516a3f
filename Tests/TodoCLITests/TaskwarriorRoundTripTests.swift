import Foundation
import TestSupport
import Testing

/// Issue 37's round trip against the real `task`: a database built with `task add` and `task
/// import` (Fixtures/build-taskwarrior-database.sh), `task export`, `todo import --from
/// taskwarrior`, then every value of every task accounted for, field by field: kept in the todo
/// it became, or counted in the summary (and named by `--verbose`). Importing again adds nothing.
@Suite(.timed) struct TaskwarriorRoundTripTests {
    let sandbox = CLISandbox()
    let script = ProcessRunner.packageRoot + "/Tests/TodoInteropTests/Fixtures/build-taskwarrior-database.sh"
    let tokyo = ["TZ": "Asia/Tokyo"]

    /// What taskwarrior computes or keeps for itself, derived from the rest: the working-set
    /// number, the urgency, the time of the last change, and a series' bookkeeping (the template's
    /// mask, an instance's place in it and its template, the kind of recurrence). The import's
    /// list of taskwarrior's own attributes (TaskwarriorReader.attributes) says the same.
    static let bookkeeping: Set<String> = ["id", "urgency", "modified", "mask", "imask", "parent", "rtype"]

    /// `20990430T150000Z` in Tokyo: its date and its time of day (`HH:mm`).
    private func local(_ stamp: Any?) throws -> (date: String, time: String) {
        let text = try #require(stamp as? String)
        let parser = DateFormatter()
        parser.locale = Locale(identifier: "en_US_POSIX")
        parser.timeZone = TimeZone(identifier: "UTC")
        parser.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let date = try #require(parser.date(from: text), "\(text)")
        let printer = DateFormatter()
        printer.locale = Locale(identifier: "en_US_POSIX")
        printer.timeZone = TimeZone(identifier: "Asia/Tokyo")
        printer.dateFormat = "yyyy-MM-dd"
        let day = printer.string(from: date)
        printer.dateFormat = "HH:mm"
        return (day, printer.string(from: date))
    }

    /// `20240101T010000Z` as todo writes a time: `2024-01-01T01:00:00Z`.
    private func iso(_ stamp: Any?) throws -> String {
        let text = try #require(stamp as? String)
        let c = Array(text)
        return "\(String(c[0..<4]))-\(String(c[4..<6]))-\(String(c[6..<8]))T\(String(c[9..<11])):"
            + "\(String(c[11..<13])):\(String(c[13..<15]))Z"
    }

    @Test func aRealTaskwarriorDatabaseRoundTripsValueByValue() throws {
        try #require(
            (try? ProcessRunner.which("task")) != nil, "taskwarrior is not installed (scripts/setup installs it)")
        let work = sandbox.folder.file("taskwarrior")
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let built = try ProcessRunner.run("sh", [script, work])
        try #require(built.status == 0, "\(built.stderr)")
        let exportPath = work + "/export.json"
        let tasks = try parseJSON(
            String(decoding: try Data(contentsOf: URL(fileURLWithPath: exportPath)), as: UTF8.self),
            as: [[String: Any]].self, "task export")
        try #require(tasks.count == 14, "the script's tasks and the series' instances")

        let output = try sandbox.ok(["import", "--verbose", "--from", "taskwarrior", exportPath], environment: tokyo)
        let lines = output.split(separator: "\n").map(String.init)
        #expect(
            lines.first
                == "Imported 9 todos. Not kept: 2 deleted tasks, scheduled: time of day on 1 todo, "
                + "start: (when work began) on 1 todo, until: on 1 todo, 1 occurrence with fields of its own.")
        let export = try parseJSON(
            try sandbox.ok(["export"], environment: tokyo), as: [[String: Any]].self, "todo export")
        var todos: [String: [String: Any]] = [:]
        var uidOfID: [Int: String] = [:]
        for todo in export {
            let uid = try #require(todo["uid"] as? String, "every todo has its task's uuid")
            todos[uid] = todo
            uidOfID[try #require(todo["id"] as? Int)] = uid
        }
        #expect(todos.count == 9)
        let history = try ProcessRunner.run(
            "sqlite3",
            [
                sandbox.database,
                "SELECT u.uid, c.occurrence, c.completed_at FROM todo_completions c "
                    + "JOIN todo_uids u ON u.todo_id = c.todo_id"
            ])
        let completions = Set(history.stdout.split(separator: "\n").map(String.init))

        /// The verbose line that names `task` for `what`, removed from those left: each counted
        /// thing is named once.
        var notKept = Set(lines.dropFirst().filter { $0.hasPrefix("not kept: ") })
        func counted(_ task: [String: Any], _ what: String) {
            let name = task["description"] as? String ?? ""
            let line = notKept.first {
                $0.contains("(\(task["uuid"] as? String ?? "")) \"\(name)\": ") && $0.hasSuffix(": " + what)
            }
            #expect(line != nil, "\(name): \(what) is counted and named")
            if let line { notKept.remove(line) }
        }

        let templates = Dictionary(
            tasks.filter { $0["status"] as? String == "recurring" }.map { ($0["uuid"] as? String ?? "", $0) }
        ) { first, _ in first }
        for task in tasks {
            let uuid = try #require(task["uuid"] as? String)
            let name = task["description"] as? String ?? ""
            let status = task["status"] as? String
            if status == "deleted" {
                // The record as a whole is not kept: never brought back, and counted.
                #expect(todos[uuid] == nil, "\(name) was deleted there")
                counted(task, "deleted task")
                continue
            }
            if let parent = task["parent"] as? String {
                // An instance: an occurrence of its series' todo.
                let template = try #require(templates[parent])
                let series = try #require(todos[parent], "the series is one todo, under the template's uuid")
                #expect(todos[uuid] == nil, "an instance is no todo of its own")
                let shared = [
                    "description", "project", "tags", "priority", "annotations", "client", "estimate", "reviewed"
                ]
                let own = shared.contains { (task[$0] as? NSObject) != (template[$0] as? NSObject) }
                if own { counted(template, "occurrence with fields of its own") }
                for key in task.keys {
                    switch key {
                    case "due":
                        let occurrence = try local(task["due"]).date
                        if status == "completed" {
                            #expect(completions.contains("\(parent)|\(occurrence)|\(try iso(task["end"]))"))
                        } else {
                            // The earliest pending one is the todo's deadline; the later ones come
                            // from its rule.
                            let deadline = try #require(series["deadline"] as? String)
                            #expect(deadline <= occurrence, "\(occurrence)")
                        }
                    case "end", "status":
                        break  // the history above
                    case "until", "recur":
                        #expect((task[key] as? NSObject) == (template[key] as? NSObject), "the series' own")
                    case "uuid", "entry":
                        break  // an occurrence's own identity and time: the series has the template's
                    case _ where shared.contains(key):
                        break  // the series' fields, or counted above
                    case _ where Self.bookkeeping.contains(key):
                        break
                    default:
                        Issue.record("\(name): the instance's \(key) is not accounted for")
                    }
                }
                continue
            }
            let todo = try #require(todos[uuid], "\(name) is a todo")
            let tags = todo["tags"] as? [String] ?? []
            let note = (todo["note"] as? String ?? "").split(separator: "\n").map(String.init)
            for (key, value) in task {
                switch key {
                case "uuid":
                    break  // the todo's UID, found above
                case "description":
                    #expect(todo["name"] as? String == name)
                case "status":
                    let expected =
                        switch status {
                        case "completed": "completed"
                        case "recurring": todo["status"] as? String
                        default: task["start"] == nil ? "needs-action" : "in-process"
                        }
                    #expect(todo["status"] as? String == expected, "\(name)")
                case "entry":
                    #expect(todo["created"] as? String == (try iso(value)), "\(name)")
                case "end":
                    #expect(todo["completed"] as? String == (try iso(value)), "\(name)")
                case "due":
                    let due = try local(value)
                    if status == "recurring" {
                        // The series stands at its earliest pending instance (checked with them).
                        #expect(todo["deadline"] is String)
                    } else {
                        #expect(todo["deadline"] as? String == due.date, "\(name)")
                        if due.time == "00:00" {
                            #expect(todo["due_time"] is NSNull, "\(name): a due date without a time")
                        } else {
                            #expect(todo["due_time"] as? String == due.time, "\(name)")
                        }
                    }
                case "wait":
                    #expect(todo["start_date"] as? String == (try local(value).date), "\(name): wait is the start")
                    #expect(try local(value).time == "00:00", "a time of day would be counted")
                case "scheduled":
                    let scheduled = try local(value)
                    #expect(task["wait"] == nil && todo["start_date"] as? String == scheduled.date, "\(name)")
                    if scheduled.time != "00:00" { counted(task, "scheduled: time of day") }
                case "start":
                    #expect(todo["status"] as? String == "in-process", "\(name): active there")
                    counted(task, "start: (when work began)")
                case "until":
                    if status == "recurring" {
                        let day = try local(value).date.replacingOccurrences(of: "-", with: "")
                        #expect((todo["repeat_rule"] as? String)?.hasSuffix(";UNTIL=\(day)") == true, "\(name)")
                    } else {
                        counted(task, "until:")
                    }
                case "recur":
                    #expect(
                        value as? String == "weekly"
                            && (todo["repeat_rule"] as? String)?.hasPrefix("FREQ=WEEKLY;") == true)
                case "project":
                    // A project of its own, never a tag (issue 37, point 2).
                    #expect(todo["project"] as? String == value as? String, "\(name): project \(value)")
                    #expect(!tags.contains("+\(value)"), "\(name): project \(value) is no tag")
                case "tags":
                    for tag in value as? [String] ?? [] { #expect(tags.contains("+\(tag)"), "\(name): +\(tag)") }
                case "priority":
                    let expected = ["H": 1, "M": 5, "L": 9][value as? String ?? ""]
                    #expect(todo["priority"] as? Int == expected, "\(name)")
                case "annotations":
                    for annotation in value as? [[String: Any]] ?? [] {
                        let entry = try local(annotation["entry"])
                        let line = "\(entry.date) \(entry.time) \(annotation["description"] as? String ?? "")"
                        #expect(note.contains(line), "\(name): \(line)")
                    }
                case "depends":
                    let waitsFor = (todo["depends"] as? [Int] ?? []).compactMap { uidOfID[$0] }
                    #expect(waitsFor == value as? [String], "\(name)")
                case "client", "estimate":
                    #expect(note.contains("\(key): \(value)"), "\(name): the attribute \(key)")
                case "reviewed":
                    #expect(note.contains("reviewed: \(try local(value).date)"), "\(name): a date attribute")
                case _ where Self.bookkeeping.contains(key):
                    break
                default:
                    Issue.record("\(name): \(key) is not accounted for")
                }
            }
        }
        #expect(notKept.isEmpty, "every thing counted is accounted for above: \(notKept)")

        // The same export again adds nothing and changes nothing.
        let before = try ProcessRunner.run("sqlite3", [sandbox.database, "SELECT * FROM todos ORDER BY id"]).stdout
        let again = try sandbox.ok(["import", "--from", "taskwarrior", exportPath], environment: tokyo)
        #expect(again.hasPrefix("Imported 0 new todos, updated 0, 9 unchanged. Not kept: 2 deleted tasks,"), "\(again)")
        #expect(
            try ProcessRunner.run("sqlite3", [sandbox.database, "SELECT * FROM todos ORDER BY id"]).stdout == before)
    }
}
