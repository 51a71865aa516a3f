import TodoStore
import TodoSync

extension Command {
    /// `todo show ID [--json]`: one todo, every field.
    static let show = Command(
        spec: CommandSpec(
            name: "show",
            abstract: "Show one todo.",
            arguments: [.init(name: "id", help: "The id of the todo, as 'todo list' shows it.")],
            options: [.init(name: "--json", value: nil, help: "Print the todo as a JSON object.")],
            discussion: """
                The status line says where the todo stands (needs action, in progress, completed,
                cancelled: done but never completed) and the percent line how far along it is.
                The deadline is shown with its time of day on the local clock; the due_time line
                gives the time as it was set, and, when it was set on another zone's clock or as
                an instant (another app's), the local time it is (19:00 Europe/Berlin (13:00
                here)). The starts line gives the start date, before which lists leave the todo out.
                A repeating todo's line says how it repeats, its next occurrence after the
                current one, and how many occurrences were done (every month · next fri
                2027-01-01 · done 3 times). With --json the object has "repeat": {"rule",
                "text", "from", "next", "done"}, null when it does not repeat; "next" is null
                once the series is over, for a todo that repeats from the day it is done, and
                for a rule todo cannot follow. The waits for lines list the todos it waits for (it is
                blocked while one of them is not done), the blocks lines those that wait for it;
                --json has "depends", the ids of the todos it waits for.
                """,
            examples: ["todo show 3", "todo show 3 --json"]
        ),
        run: { (context) throws(CLIError) in
            guard let id = try context.ids().first else { return }
            let repository = try context.openRepository()
            guard let todo = try context.perform({ () throws(TodoStoreError) in try repository.todo(id: id) }) else {
                throw CLIError(.notFound(ids: [id]), path: "")
            }
            let repeats = try context.perform { () throws(TodoStoreError) in
                try todo.repeatRule == nil ? nil : RepeatFacts(todo, repository)
            }
            if context.arguments.flag("--json") {
                // The UID is the todo's identity across devices: null until its first sync.
                let uid = try context.perform { () throws(TodoStoreError) in
                    try TodoUIDs(repository: repository).uid(ofTodo: id)
                }
                let (lists, children, depends) = try context.perform { () throws(TodoStoreError) in
                    (
                        try JSON.listNames(repository), try repository.subtasks(of: id).map(\.id),
                        try repository.dependencyIDs(of: id)
                    )
                }
                context.out.write(
                    String(JSON.object(todo, uid: nil, lists: lists, children: children, depends: depends).dropLast())
                        + ", \"repeat\": \(repeats?.json ?? "null"), \"uid\": \(JSON.optional(uid))}\n"
                )
                return
            }
            let shown = context.text(maxID: todo.id)
            let deadline = shown.deadlineText(todo)
            // Every field of TodoField.all, in its order; those shown otherwise than their value
            // in a line of text (TodoText.value) are written here. Times in UTC, as stored and
            // as CalDAV writes them: the same on every device.
            var lines = ["id:        \(todo.id)"]
            for field in TodoField.all {
                // The rule and where it counts from are one line, in words.
                if field.name == "repeat_from" { continue }
                let title =
                    switch field.name {
                    case "repeat_rule": "repeats"
                    case "start_date": "starts"
                    default: field.name
                    }
                let label = title + ":" + String(repeating: " ", count: max(1, 10 - title.count))
                let text: String
                switch field.name {
                case "name": text = TodoText.sanitized(todo.name)
                case "deadline": text = deadline ?? "none"
                case "done": text = todo.isDone ? "yes" : "no"
                case "tags": text = todo.tags.isEmpty ? "none" : TodoText.sanitized(todo.tags.storage)
                case "note":
                    text =
                        todo.note.map { note in
                            note.split(separator: "\n", omittingEmptySubsequences: false)
                                .map { TodoText.sanitized(String($0)) }.joined(
                                    separator: "\n" + String(repeating: " ", count: 11))
                        } ?? "none"
                case "created": text = todo.created.map(\.description) ?? "unknown"
                case "completed":
                    text =
                        switch todo.status {
                        case .completed: todo.completed.map(\.description) ?? "unknown"
                        case .cancelled: "no: cancelled"
                        case .needsAction, .inProcess: "not done"
                        }
                case "status": text = Self.stateWords(todo.status)
                case "percent": text = todo.percent.map { "\($0)%" } ?? "none"
                case "project": text = todo.project.map { TodoText.sanitized($0.path) } ?? "none"
                case "repeat_rule": text = repeats?.line ?? "no"
                case "due_time": text = todo.dueTime.map { Self.dueTimeText($0, of: todo, shown: shown) } ?? "none"
                case "start_date": text = todo.start.map(shown.startText) ?? "none"
                default: text = TodoText.value(field.value(in: todo.fields))
                }
                lines.append(label + text)
            }
            let list = try context.perform { () throws(TodoStoreError) in try repository.list(id: todo.listID) }
            lines.append("list:      " + TodoText.sanitized(list?.name ?? "#\(todo.listID)"))
            // Where it sits in its list's tree: the todo above it, and those right under it.
            let (parent, subtasks) = try context.perform { () throws(TodoStoreError) in
                (try repository.ancestors(of: todo).first, try repository.subtasks(of: id))
            }
            func line(_ todo: Todo) -> String { "\(TodoText.mark(todo.status)) \(todo.id)  \(TodoText.labelled(todo))" }
            if let parent { lines.append("parent:    " + line(parent)) }
            for (index, subtask) in subtasks.enumerated() {
                lines.append((index == 0 ? "subtasks:  " : String(repeating: " ", count: 11)) + line(subtask))
            }
            // What it waits for (done or not: the marks say which still block it), and what waits
            // for it.
            let (waitsFor, blocks) = try context.perform { () throws(TodoStoreError) in
                (
                    try repository.todos(ids: try repository.dependencyIDs(of: id)),
                    try repository.todos(ids: try repository.dependentIDs(of: id))
                )
            }
            for (title, todos) in [("waits for: ", waitsFor), ("blocks:    ", blocks)] {
                for (index, other) in todos.enumerated() {
                    lines.append((index == 0 ? title : String(repeating: " ", count: 11)) + line(other))
                }
            }
            context.out.write(lines.joined(separator: "\n") + "\n")
        }
    )
}

extension Command {
    /// `show`'s due_time line: the time as it was set, and what it is on the local clock when
    /// that reads otherwise: `19:00 (local time, in any time zone)` for a floating time,
    /// `19:00 Europe/Berlin (13:00 here)`, `00:30 Europe/Berlin (18:30 on sun 2026-11-29 here)`,
    /// `2026-11-27T18:00:00Z (19:00 here)`. A zone the system does not know is said so.
    static func dueTimeText(_ time: TodoDueTime, of todo: Todo, shown: TodoText) -> String {
        let written = TodoText.sanitized(time.text)
        switch time {
        case .wall(_, nil):
            return written + " (local time, in any time zone)"
        case .wall(_, let zone?) where ZoneInfo.load(named: zone) == nil:
            return written + " (a time zone this system does not know: shown as written)"
        case .wall(let second, _)
        where shown.localDue(todo).map({ $0.date == todo.deadline && $0.secondOfDay == second }) == true:
            return written
        default:
            guard let local = shown.localDue(todo), let second = local.secondOfDay else { return written }
            let day = local.date == todo.deadline ? "" : " on " + TodoText.day(local.date)
            return written + " (" + TodoDueTime.clock(second) + day + " here)"
        }
    }
}

/// What `todo show` says of a repeating todo: its rule in words, its next occurrence after the
/// current one, and how many occurrences were done (from the log of finished occurrences).
private struct RepeatFacts {
    let todo: Todo
    /// The rule, when it is one the engine reads.
    let repeating: RepeatingTodo?
    /// The occurrence after the current one: `nil` once the series is over, for a todo that
    /// repeats from the day it is done (that day decides), and for a rule todo cannot follow.
    let next: CalendarDate?
    /// The occurrences done (not skipped), but for those an undo opened again.
    let done: Int

    init(_ todo: Todo, _ repository: TodoRepository) throws(TodoStoreError) {
        self.todo = todo
        let repeating = RepeatingTodo(todo.fields)
        self.repeating = repeating
        next =
            todo.isDone || todo.repeatFrom == .done || repeating?.rule.isCompletable != true
            ? nil : repeating?.following
        done = try repository.completions(ofTodo: todo.id).filter { $0.isDone && !$0.isReopened(by: todo.fields) }
            .count
    }

    /// `every month · next fri 2027-01-01 · done 3 times`, made safe (a rule comes from other apps).
    var line: String {
        guard let repeating else {
            return TodoText.sanitized(todo.repeatRule ?? "") + " (a rule todo cannot read) · done \(times)"
        }
        var parts = [TodoText.sanitized(repeating.summary)]
        if todo.isDone {
            parts.append("series over")
        } else if !repeating.rule.isCompletable {
            parts.append("todo cannot follow this rule")
        } else if let next {
            parts.append("next " + TodoText.day(next))
        } else if todo.repeatFrom == .due, todo.deadline != nil {
            parts.append("no occurrence after this one")
        }
        return (parts + ["done \(times)"]).joined(separator: " · ")
    }

    private var times: String { done == 1 ? "1 time" : "\(done) times" }

    /// `{"rule": "FREQ=MONTHLY", "text": "every month", "from": "due", "next": "2027-01-01", "done": 3}`.
    var json: String {
        let text = repeating.map { JSON.string($0.summary) } ?? "null"
        return
            "{\"rule\": \(JSON.optional(todo.repeatRule)), \"text\": \(text), \"from\": \"\(todo.repeatFrom.rawValue)\", "
            + "\"next\": \(next.map { "\"\($0)\"" } ?? "null"), \"done\": \(done)}"
    }
}
