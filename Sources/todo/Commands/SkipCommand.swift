import TodoStore
import TodoSync

extension Command {
    /// `todo skip ID...`: repeating todos move to their next occurrence, this one not done.
    static let skip = Command(
        spec: CommandSpec(
            name: "skip",
            abstract: "Move repeating todos to their next occurrence without marking this one done.",
            arguments: [.init(name: "id", help: CommandContext.idsHelp, repeats: true, optional: true)],
            options: [CommandContext.yesOption(), CommandContext.changedJSONOption("moved on")],
            discussion: """
                Every todo must repeat and not be done: all or nothing, as in todo done, whose
                line it prints (→ 12  Pay rent  next fri 2027-01-01; in a pipe the date alone).
                A skipped occurrence is not counted as done in todo show, but it is one of the
                series' --times; skipping the last one ends the series. One 'todo undo' reverts
                it.

                \(CommandContext.selectionRules(verb: "skip", ownOptionsSelect: false))
                """,
            examples: ["todo skip 12", "todo skip 12 14", "todo --tag bills --overdue skip"],
            selectsBefore: true
        ),
        run: { (context) throws(CLIError) in
            let selection = try context.selection(ownOptionsSelect: false)
            let repository = try context.openRepository()
            guard let ids = try context.selectedIDs(selection, in: repository, doing: { "Skip \($0)" })?.ids else {
                return
            }
            let today = context.today
            let now = UTCTimestamp.now()
            let isTerminal = context.out.isTerminal
            let outcome = try context.recordingUndo("skip", in: repository) { () throws(CLIError) -> ChangedTodos in
                let todos = try context.perform { () throws(TodoStoreError) in try repository.todos(ids: ids) }
                let refusals = todos.compactMap { RepeatRefusal.skipping($0, today: today, now: now) }
                if !refusals.isEmpty { throw RepeatRefusal.error(refusals) }
                var changed = ChangedTodos(lines: [], todos: [])
                for todo in todos {
                    let skipped = try context.perform { () throws(TodoStoreError) in
                        try repository.finishOccurrence(of: todo.id, .skip, today: today, now: now)
                    }
                    if let (outcome, moved) = skipped {
                        changed.lines.append(TodoText.finished("→", moved, outcome, isTerminal: isTerminal))
                        changed.todos.append(moved)
                    }
                }
                return changed
            }
            try context.writeChanged(outcome, in: repository)
        }
    )
}

/// Why a todo cannot be finished, skipped or resumed as asked: one part of the one `error:`
/// line of a refused `done`, `skip` or `undone --next`, which then changes nothing.
struct RepeatRefusal: Error {
    let todo: Todo
    /// What follows the todo's id and name: `does not repeat`.
    let reason: String
    /// What to do instead.
    let hint: String

    /// `todo 12 "Pay rent" does not repeat`.
    var text: String { "todo \(todo.id) \"\(TodoText.sanitized(todo.name))\" \(TodoText.sanitized(reason))" }

    /// The error of a command refused for `refusals` (at least one): one line naming each todo
    /// and why, and the first one's hint.
    static func error(_ refusals: [RepeatRefusal]) -> CLIError {
        .failure(
            refusals.map(\.text).joined(separator: "; "),
            hint: "Nothing was changed. " + (refusals.first?.hint ?? ""))
    }

    /// Why the todo `todo` (not done) cannot finish its occurrence as `finish` says; `nil` when
    /// it can, or does not repeat.
    static func finishing(_ todo: Todo, _ finish: RepeatingTodo.Finish, today: CalendarDate, now: UTCTimestamp)
        -> RepeatRefusal?
    {
        guard let text = todo.repeatRule else { return nil }
        guard let repeating = RepeatingTodo(todo.fields) else { return unreadable(todo, text) }
        // Ending the series needs no next date, but a sync applies it to the server's object
        // only for a rule it can follow: anything else would come back not done.
        if finish == .endSeries, !repeating.rule.isCompletable {
            return notFollowed(todo, "its repeat rule (\(text)) is not one todo can follow")
        }
        if case .notCompletable(let reason) = repeating.finish(finish, today: today, now: now) {
            return notFollowed(todo, reason)
        }
        return nil
    }

    /// A todo whose synced object repeats on dates another app listed (RDATE) and by no rule
    /// `todo` reads (``VTodoObject/seriesContinues``): marking it done would end the series.
    static func listedDates(_ todo: Todo) -> RepeatRefusal {
        RepeatRefusal(
            todo: todo,
            reason:
                "repeats on dates set in another app, which todo cannot follow: marking it done would end the series on every device",
            hint: "Finish this occurrence in the app that set the dates.")
    }

    /// A todo whose synced object has two masters (``VTodoObject/hasSeveralMasters``): finishing
    /// the one `todo` reads would leave the other open.
    static func severalMasters(_ todo: Todo) -> RepeatRefusal {
        RepeatRefusal(
            todo: todo,
            reason:
                "is invalid on the server (two masters: two VTODOs of its UID without RECURRENCE-ID), and marking one done would leave the other open",
            hint:
                "Mend the object in the app that wrote it (todoman writes two when it edits an object another app completed an occurrence of)."
        )
    }

    /// Why `todo skip` cannot skip the occurrence of `todo`; `nil` when it can.
    static func skipping(_ todo: Todo, today: CalendarDate, now: UTCTimestamp) -> RepeatRefusal? {
        guard todo.repeatRule != nil else {
            return RepeatRefusal(todo: todo, reason: "does not repeat", hint: "'todo done \(todo.id)' marks it done.")
        }
        guard !todo.isDone else {
            return RepeatRefusal(
                todo: todo, reason: "is done: its series is over",
                hint: "'todo undone \(todo.id) --next' resumes it at its next occurrence.")
        }
        return finishing(todo, .skip, today: today, now: now)
    }

    /// The fields of the done todo `todo` with its series resumed (`todo undone --next`): not
    /// done, its deadline the occurrence after its current one (COUNT counted down for the one
    /// done); or why that cannot be.
    static func resuming(_ todo: Todo, today: CalendarDate, now: UTCTimestamp) -> Result<TodoFields, RepeatRefusal> {
        guard let text = todo.repeatRule else {
            return .failure(
                RepeatRefusal(todo: todo, reason: "does not repeat", hint: "'todo undone \(todo.id)' reopens it."))
        }
        guard let repeating = RepeatingTodo(todo.fields) else { return .failure(unreadable(todo, text)) }
        switch repeating.finish(.skip, today: today, now: now) {
        case .next(var fields, _):
            fields.isDone = false
            fields.completed = nil
            return .success(fields)
        case .seriesOver:
            return .failure(
                RepeatRefusal(
                    todo: todo, reason: "has no occurrence after \(todo.deadline.map(\.description) ?? "today")",
                    hint: "'todo undone \(todo.id)' reopens it on its date."))
        case .notCompletable(let reason):
            return .failure(notFollowed(todo, reason))
        }
    }

    /// A todo whose rule is no RRULE the engine reads.
    private static func unreadable(_ todo: Todo, _ rule: String) -> RepeatRefusal {
        notFollowed(todo, "repeats by a rule todo cannot read (\(rule))")
    }

    /// A todo whose repeat todo cannot follow, for `reason`.
    static func notFollowed(_ todo: Todo, _ reason: String) -> RepeatRefusal {
        RepeatRefusal(
            todo: todo, reason: "cannot be finished here: " + reason,
            hint:
                "Finish it in the app that set the repeat, or stop the repeat with 'todo edit \(todo.id) --no-repeat'.")
    }
}

extension TodoText {
    /// The line of a repeating todo whose occurrence was finished (`✓`) or skipped (`→`):
    /// `✓ 12  Pay rent  next fri 2027-01-01` (see ``next(_:isTerminal:)``), `✓ 12  Pay rent  series
    /// over` when its series ended.
    static func finished(_ mark: String, _ todo: Todo, _ outcome: RepeatingTodo.Outcome, isTerminal: Bool) -> String {
        if case .seriesOver = outcome { return summary(mark, todo, then: "series over") }
        return summary(mark, todo, then: next(todo, isTerminal: isTerminal))
    }

    /// A repeating todo's new date: `next fri 2027-01-01` for a person, `next 2027-01-01` in a
    /// pipe (the same every day, the date the line's last word); `no deadline` for none.
    static func next(_ todo: Todo, isTerminal: Bool) -> String {
        guard let date = todo.deadline else { return "no deadline" }
        return "next " + (isTerminal ? day(date) : date.description)
    }
}
