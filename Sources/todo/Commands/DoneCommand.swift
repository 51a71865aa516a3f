import TodoStore
import TodoSync

extension Command {
    /// `todo done ID... [--series | --catch-up]`: marks todos done, all or nothing (the sample
    /// app's tap); a repeating todo moves on to its next occurrence.
    static let done = doneState(true)

    /// `todo undone ID... [--next]`: marks todos not done, all or nothing; `--next` resumes an
    /// ended series at its next occurrence.
    static let undone = doneState(false)

    /// What `todo done` does to each state.
    private static let doneStates = """
        A todo in progress or cancelled is completed too; a completed todo's percent is 100.

        A todo with undone subtasks is completed with them, at every depth, or not at all: on a
        terminal todo asks, --with-subtasks says yes, and in a pipe nothing is changed. Subtasks
        done already keep their completed time. One 'todo undo' reopens them all.
        """

    /// What `todo undone` does to each state.
    private static let undoneStates = """
        A completed or cancelled todo needs action again (a percent of 100 is taken away, any
        other kept); a todo in progress is not done already ('todo stop' stops it).
        """

    /// What `todo done` says of repeating todos.
    private static let repeatingNote = """


        A repeating todo (todo add --every) is not marked done: its current occurrence is,
        and its deadline moves to the next one, printed after it (next fri 2027-01-01; in a
        pipe the date alone, last on the line). When the series has no occurrence left, the
        todo is done and series over is printed. --series ends the series at this
        occurrence; --catch-up moves the todo to its first occurrence on or after today, the
        missed ones passing as done. A repeat todo cannot follow (another app's rule with
        parts todo does not complete, or dates listed in another app), or a synced object
        with two masters (invalid, as todoman can leave one), is refused, and nothing is
        changed.
        """

    private static func doneState(_ isDone: Bool) -> Command {
        let name = isDone ? "done" : "undone"
        let options: [CommandSpec.Option] =
            isDone
            ? [
                .init(
                    name: "--series", value: nil, help: "End the series of a repeating todo: the todo is done."),
                .init(
                    name: "--catch-up", value: nil,
                    help: "Move a repeating todo to its first occurrence on or after today, the missed ones done."),
                CommandContext.withSubtasksOption("Complete")
            ]
            : [
                .init(
                    name: "--next", value: nil,
                    help:
                        "Resume a repeating todo whose series was ended (here with --series, or in another app) at its next occurrence."
                )
            ]
        return Command(
            spec: CommandSpec(
                name: name,
                abstract: isDone ? "Mark todos done." : "Mark todos not done.",
                arguments: [.init(name: "id", help: CommandContext.idsHelp, repeats: true, optional: true)],
                options: options + [
                    CommandContext.yesOption(),
                    CommandContext.changedJSONOption(isDone ? "marked done (or moved on)" : "marked not done")
                ] + CommandContext.selectionOptions,
                discussion: """
                    All or nothing: if any id does not exist, no todo is changed. A range means the todos
                    that exist in it (ids are never reused, so deleted ones leave gaps); one with none is
                    an error. A todo that is already \(name) is said to be so and left alone; when none
                    changes, nothing is recorded for undo.

                    \(CommandContext.selectionRules(verb: name, ownOptionsSelect: true))

                    \(isDone ? Self.doneStates : Self.undoneStates)\(isDone ? Self.repeatingNote : Self.nextNote)
                    """,
                examples: ["todo \(name) 3", "todo \(name) 3 4 7", "todo \(name) 2-4,9"]
                    + (isDone
                        ? [
                            "todo --tag errands --overdue done", "todo done --tag errands --yes",
                            "todo done 12 --series",
                            "todo done 12 --catch-up"
                        ]
                        : ["todo --done --tag errands undone", "todo undone 12 --next"]),
                selectsBefore: true
            ),
            run: { (context) throws(CLIError) in
                let series = context.arguments.flag("--series")
                let catchUp = context.arguments.flag("--catch-up")
                if series && catchUp { throw .usage("'--series' and '--catch-up' cannot be used together") }
                let selection = try context.selection(ownOptionsSelect: true)
                let repository = try context.openRepository()
                guard
                    var ids = try context.selectedIDs(
                        selection, in: repository, doing: { "Mark \($0) \(isDone ? "done" : "not done")" })?.ids
                else { return }
                if isDone {
                    // An id that names no todo fails before any question, and before any change.
                    guard
                        let subtasks = try context.subtasksTakenAlong(
                            of: ids, verb: "done", undoneOnly: true, in: repository,
                            question: { "Mark \($0) and \($1) done?" })
                    else { return }
                    ids += subtasks
                }
                let finish: RepeatingTodo.Finish = series ? .endSeries : catchUp ? .catchUp : .done
                let outcome =
                    isDone
                    ? try markDone(ids, finish, repository, context)
                    : try markUndone(ids, next: context.arguments.flag("--next"), repository, context)
                try context.writeChanged(outcome, in: repository)
            }
        )
    }

    /// What `todo undone` says of `--next`.
    private static let nextNote = """


        --next resumes a repeating todo whose series ended (with todo done --series, or in
        another app that marked the whole series done): it is not done again, and its deadline
        moves to the occurrence after its current one. Plain todo undone reopens the todo on its
        own date.
        """

    /// `todo done`: the todos of `ids` done, each repeating one finishing its occurrence as
    /// `finish` says, in one transaction and one undo step; every refusal before any write.
    /// Returns the lines to print and the todos changed.
    private static func markDone(
        _ ids: [Int64], _ finish: RepeatingTodo.Finish, _ repository: TodoRepository, _ context: CommandContext
    ) throws(CLIError) -> ChangedTodos {
        let today = context.today
        let now = UTCTimestamp.now()
        let isTerminal = context.out.isTerminal
        return try context.recordingUndo("done", in: repository) { () throws(CLIError) -> ChangedTodos in
            // Read and write in one transaction: what is reported as already done is what
            // the write left alone.
            let todos = try context.perform { () throws(TodoStoreError) in try repository.todos(ids: ids) }
            // A cancelled todo is done but was never completed: `done` completes it, as a whole
            // (a cancelled series is over; there is no occurrence to finish).
            let open = todos.filter { $0.status != .completed }
            let advancing = open.filter { $0.fields.repeats && $0.status != .cancelled }
            let plain = open.filter { !$0.fields.repeats || $0.status == .cancelled }
            var refusals = advancing.compactMap { RepeatRefusal.finishing($0, finish, today: today, now: now) }
            let (listed, twoMasters) = try context.perform { () throws(TodoStoreError) in
                let state = SyncState(repository: repository)
                // A cancelled series is over whatever its object's rule says: completing it
                // as a whole ends nothing that goes on.
                return (
                    try state.todosInContinuingSeries(among: open.filter { !$0.fields.repeats }.map(\.id)),
                    try state.todosOnObjectsWithSeveralMasters(among: open.map(\.id))
                )
            }
            refusals += todos.filter { listed.contains($0.id) }.map(RepeatRefusal.listedDates)
            refusals += todos.filter { twoMasters.contains($0.id) }.map(RepeatRefusal.severalMasters)
            if !refusals.isEmpty { throw RepeatRefusal.error(refusals) }
            var lines: [Int64: String] = [:]
            var changed: [Int64: Todo] = [:]
            for todo in advancing {
                let finished = try context.perform { () throws(TodoStoreError) in
                    try repository.finishOccurrence(of: todo.id, finish, today: today, now: now)
                }
                if let (outcome, moved) = finished {
                    lines[todo.id] = TodoText.finished("✓", moved, outcome, isTerminal: isTerminal)
                    changed[todo.id] = moved
                }
            }
            // Completed from the todos read above, in this transaction: thousands are not read again.
            let completed = try context.perform { () throws(TodoStoreError) in
                try repository.replaceFields(
                    of: plain.map { todo in
                        var fields = todo.fields
                        fields.setStatus(.completed, now: now)
                        return (todo.id, fields)
                    })
            }
            for todo in completed {
                lines[todo.id] = TodoText.summary("✓", todo)
                changed[todo.id] = todo
            }
            return ChangedTodos(
                lines: todos.map { lines[$0.id] ?? "  \($0.id)  \(TodoText.sanitized($0.name)): already done\n" },
                todos: todos.compactMap { changed[$0.id] })
        }
    }

    /// `todo undone`: the todos of `ids` not done; with `next`, each one's series resumed at its
    /// occurrence after its date (all of them must repeat). Returns the lines to print and the
    /// todos changed.
    private static func markUndone(
        _ ids: [Int64], next: Bool, _ repository: TodoRepository, _ context: CommandContext
    ) throws(CLIError) -> ChangedTodos {
        let today = context.today
        let now = UTCTimestamp.now()
        let isTerminal = context.out.isTerminal
        return try context.recordingUndo("undone", in: repository) { () throws(CLIError) -> ChangedTodos in
            let todos = try context.perform { () throws(TodoStoreError) in try repository.todos(ids: ids) }
            var lines: [Int64: String] = [:]
            var changed: [Int64: Todo] = [:]
            if next {
                var resumed: [(Todo, TodoFields)] = []
                var refusals: [RepeatRefusal] = []
                for todo in todos where todo.isDone {
                    switch RepeatRefusal.resuming(todo, today: today, now: now) {
                    case .success(let fields): resumed.append((todo, fields))
                    case .failure(let refusal): refusals.append(refusal)
                    }
                }
                if !refusals.isEmpty { throw RepeatRefusal.error(refusals) }
                for (todo, fields) in resumed {
                    let moved = try context.perform { () throws(TodoStoreError) in
                        try repository.replaceFields(id: todo.id, with: fields)
                    }
                    lines[todo.id] = TodoText.summary("○", moved, then: TodoText.next(moved, isTerminal: isTerminal))
                    changed[todo.id] = moved
                }
            } else {
                let toChange = todos.filter(\.isDone).map(\.id)
                let reopened = try context.perform { () throws(TodoStoreError) in
                    toChange.isEmpty ? [] : try repository.setDone(false, ids: toChange)
                }
                for todo in reopened {
                    lines[todo.id] = TodoText.summary("○", todo)
                    changed[todo.id] = todo
                }
            }
            return ChangedTodos(
                lines: todos.map { lines[$0.id] ?? "  \($0.id)  \(TodoText.sanitized($0.name)): already undone\n" },
                todos: todos.compactMap { changed[$0.id] })
        }
    }
}
