import TodoStore

extension Command {
    /// `todo start ID... [--percent N]`: puts todos in progress (iCalendar's IN-PROCESS,
    /// taskwarrior's `task start`), all or nothing.
    static let start = statusCommand(
        .inProcess, name: "start", abstract: "Mark todos in progress.",
        discussion: """
            A todo in progress shows [~] in lists (with how far along it is, 40%, when it has a
            percent), and syncs as STATUS:IN-PROCESS, as Thunderbird, Nextcloud Tasks and todoman
            show it. --percent sets how far along it is (PERCENT-COMPLETE); without it the percent
            is kept. A done or cancelled todo is opened again, in progress. 'todo stop' takes a
            todo out of progress, 'todo done' completes it.
            """,
        examples: ["todo start 3", "todo start 3 --percent 40", "todo start 2-4"])

    /// `todo stop ID...`: takes todos out of progress (taskwarrior's `task stop`): they need
    /// action again, their percent kept.
    static let stop = statusCommand(
        .needsAction, name: "stop", abstract: "Mark todos in progress as not started.",
        discussion: """
            A todo in progress needs action again (STATUS:NEEDS-ACTION), its percent kept. A todo
            that is not in progress is said to be so and left alone.
            """,
        examples: ["todo stop 3", "todo stop 2-4"])

    /// `todo cancel ID...`: cancels todos (iCalendar's CANCELLED): done, but never completed.
    static let cancel = statusCommand(
        .cancelled, name: "cancel", abstract: "Mark todos cancelled.",
        discussion: """
            A cancelled todo is no longer to do: it counts as done (bare todo and --undone leave it
            out, --done shows it), shows [-] in lists, has no completed time, and syncs as
            STATUS:CANCELLED; its percent is kept. Cancelling a repeating todo ends its series, in
            every app. 'todo done' completes a cancelled todo, 'todo undone' opens it again.
            """,
        examples: ["todo cancel 3", "todo cancel 2-4,9"])

    /// A command that puts todos in `status`: ids and ranges as `done` takes them, all or
    /// nothing, one undo step named `name`; a todo already in that state is said to be so and
    /// left alone, and when none changes nothing is recorded for undo.
    private static func statusCommand(
        _ status: TodoStatus, name: String, abstract: String, discussion: String, examples: [String]
    ) -> Command {
        let percentOption = CommandSpec.Option(
            name: "--percent", value: "n", help: "How far along it is: a whole number from 0 to 99 (100 is done).")
        return Command(
            spec: CommandSpec(
                name: name, abstract: abstract,
                arguments: [.init(name: "id", help: CommandContext.idsHelp, repeats: true, optional: true)],
                options: (status == .inProcess ? [percentOption] : []) + [
                    CommandContext.yesOption(), CommandContext.changedJSONOption("changed")
                ],
                discussion: """
                    All or nothing: if any id does not exist, no todo is changed. A range means the todos
                    that exist in it (ids are never reused, so deleted ones leave gaps); one with none is
                    an error. One 'todo undo' puts them back.

                    \(CommandContext.selectionRules(verb: name, ownOptionsSelect: false))

                    \(discussion)
                    """,
                examples: examples,
                selectsBefore: true
            ),
            run: { (context) throws(CLIError) in
                let percent = try context.percent()
                let selection = try context.selection(ownOptionsSelect: false)
                let repository = try context.openRepository()
                let doing = { (what: String) in "Mark \(what) \(Self.stateWords(status))" }
                guard let ids = try context.selectedIDs(selection, in: repository, doing: doing)?.ids else { return }
                let outcome = try context.recordingUndo(name, in: repository) { () throws(CLIError) -> ChangedTodos in
                    // Read and write in one transaction: what is reported as left alone is what
                    // the write left alone.
                    let todos = try context.perform { () throws(TodoStoreError) in try repository.todos(ids: ids) }
                    let changing = todos.filter { todo in
                        switch status {
                        case .inProcess: todo.status != .inProcess || (percent != nil && percent != todo.percent)
                        case .needsAction: todo.status == .inProcess
                        case .completed, .cancelled: todo.status != status
                        }
                    }.map(\.id)
                    let changed = try context.perform { () throws(TodoStoreError) in
                        changing.isEmpty ? [] : try repository.setStatus(status, ids: changing, percent: percent)
                    }
                    var lines: [Int64: String] = [:]
                    for todo in changed {
                        lines[todo.id] = TodoText.summary("~", todo, then: Self.stateWords(todo))
                    }
                    let unchanged = status == .needsAction ? "not in progress" : "already \(Self.stateWords(status))"
                    return ChangedTodos(
                        lines: todos.map {
                            lines[$0.id] ?? "  \($0.id)  \(TodoText.sanitized($0.name)): \(unchanged)\n"
                        },
                        todos: changed)
                }
                try context.writeChanged(outcome, in: repository)
            }
        )
    }

    /// What a command that changes a state says the todo is now: `in progress 40%`, `needs action`, `cancelled`.
    static func stateWords(_ todo: Todo) -> String {
        let words = stateWords(todo.status)
        guard todo.status == .inProcess, let percent = todo.percent else { return words }
        return "\(words) \(percent)%"
    }

    /// A state in words: `needs action`, `in progress`, `completed`, `cancelled`.
    static func stateWords(_ status: TodoStatus) -> String {
        switch status {
        case .needsAction: "needs action"
        case .inProcess: "in progress"
        case .completed: "completed"
        case .cancelled: "cancelled"
        }
    }
}

extension CommandContext {
    /// `--percent`, when given: a whole number from 0 to 99 (100 is `todo done`'s).
    func percent() throws(CLIError) -> Int? {
        guard let text = arguments.value("--percent") else { return nil }
        guard let value = Int(text), (0...100).contains(value) else {
            throw .usage(
                "'\(TodoText.sanitized(text))' is not a valid value for '--percent'",
                hint: "Use a whole number from 0 to 99.")
        }
        guard value < 100 else {
            throw .usage("a todo at 100% is done, not in progress", hint: "Use 'todo done' to complete it.")
        }
        return value
    }
}
