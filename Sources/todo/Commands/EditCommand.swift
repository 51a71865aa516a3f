import TodoStore
import TodoSync

extension Command {
    /// `todo edit ID [--name NAME] [--due DATE [TIME] | --no-due] [--no-time] [--start DATE | --no-start]
    /// [--priority P] [--tag T] [--untag T] [--project P | --no-project] [--note TEXT | --append TEXT | --prepend TEXT] [--every FORM |
    /// --after FORM] [--until DATE | --times N] [--no-repeat] [--under ID | --top] [--waits-for ID]
    /// [--no-wait-for ID]`: the sample app's leading swipe.
    static let edit = Command(
        spec: CommandSpec(
            name: "edit",
            abstract:
                "Change a todo's name, deadline, start, priority, tags, note, repeat, parent or what it waits for.",
            arguments: [
                .init(
                    name: "id",
                    help:
                        "The ids of the todos, as 'todo list' shows them: 3, a list 2,4 or a range 2-4 (the todos that exist in it); none with a filter before 'edit'.",
                    repeats: true, optional: true)
            ],
            options: [
                .init(name: "--name", value: "name", help: "The new name."),
                CommandContext.dueOption(help: "The new deadline (without a time, the time of day is kept)"),
                .init(name: "--no-due", value: nil, help: "Remove the deadline."),
                .init(name: "--no-time", value: nil, help: "Remove the deadline's time of day: due any time that day."),
                CommandContext.startOption,
                .init(name: "--no-start", value: nil, help: "Remove the start date."),
                .init(
                    name: "--priority", value: "priority",
                    help: "The new priority: \(TodoPriority.acceptedForms); none removes it."),
                .init(
                    name: "--tag", value: "tag",
                    help:
                        "Add a tag (+work, @phone or work; \"Home Improvement\" with its space); give it again for more."
                ),
                .init(
                    name: "--untag", value: "tag", help: "Remove a tag, whatever its + or @; give it again for more."),
                .init(
                    name: "--project", value: "project",
                    help: "The new project (Work, Work.ClientA: names joined by dots, the widest first)."),
                .init(name: "--no-project", value: nil, help: "Remove the project."),
                .init(name: "--note", value: "text", help: "Replace the note; an empty text removes it."),
                .init(name: "--append", value: "text", help: "Add a line at the end of the note."),
                .init(name: "--prepend", value: "text", help: "Add a line at the start of the note."),
                .init(
                    name: "--list", value: "list",
                    help: "Move it, with its subtasks, to this list (as 'todo move ID --to LIST' does).",
                    short: "-l"),
                CommandContext.underOption, CommandContext.parentOption,
                .init(name: "--top", value: nil, help: "Make a subtask a todo of its own, at the top level."),
                CommandContext.waitsForOption, CommandContext.noWaitForOption
            ] + CommandContext.repeatOptions + [
                .init(name: "--no-repeat", value: nil, help: "Stop repeating: the todo keeps its date."),
                CommandContext.yesOption(), CommandContext.changedJSONOption("edited")
            ],
            discussion: "Every change is made in one transaction: all or none, and one 'todo undo' reverts"
                + " them all. On a terminal the new name and deadline are shown. --every and --after"
                + " replace how the todo repeats (keeping how the series ends, unless --until or --times"
                + " say otherwise); --until and --times alone change only how it ends. A new deadline moves"
                + " the start date with it, by as many days. --under puts the todo, with its own subtasks, under"
                + " another (into that todo's list); a todo cannot go under itself or one of its subtasks."
                + " --waits-for and --no-wait-for add and remove what the todo waits for, as --tag and --untag"
                + " do tags; a todo cannot wait for itself or for a todo that waits for it.\n\n"
                + CommandContext.selectionRules(verb: "edit", ownOptionsSelect: false) + "\n\n"
                + DueDateParser.rules + "\n\n"
                + DueDateParser.timeRules + "\n\n" + CommandContext.startRules + "\n\n" + RepeatForm.rules,
            examples: [
                "todo edit 3 --name \"Buy oat milk\"", "todo edit 3 --due tomorrow", "todo edit 3 --no-due",
                "todo edit 3 --due \"fri 9:30\"", "todo edit 3 --no-time", "todo edit 3 --start mon",
                "todo edit 3 --priority low --tag errands --untag work", "todo edit 3 --append \"called, no answer\"",
                "todo edit 3 --every 'last fri'", "todo edit 3 --after 1m", "todo edit 3 --times 5",
                "todo edit 3 --no-repeat", "todo edit 5 --under 3", "todo edit 5 --top",
                "todo edit 5 --waits-for 3,4", "todo edit 5 --no-wait-for 3", "todo edit 3-5 --priority high",
                "todo --tag errands --overdue edit --due fri", "todo --tag errands edit --tag town --yes"
            ],
            selectsBefore: true
        ),
        run: { (context) throws(CLIError) in
            let selection = try context.selection(ownOptionsSelect: false)
            let name = context.arguments.value("--name")
            let deadline = try context.dueDate()
            let clearDeadline = context.arguments.flag("--no-due")
            if deadline != nil && clearDeadline {
                throw .usage("'--due' and '--no-due' cannot be used together")
            }
            let clearTime = context.arguments.flag("--no-time")
            if deadline?.secondOfDay != nil && clearTime {
                throw .usage("'--no-time' removes the time that '--due' gives", hint: "Give one of them.")
            }
            let start = try context.startDate()
            let clearStart = context.arguments.flag("--no-start")
            if start != nil && clearStart {
                throw .usage("'--start' and '--no-start' cannot be used together")
            }
            let priority = try context.arguments.value("--priority").map { (text) throws(CLIError) in
                guard let priority = TodoPriority(parsing: text) else { throw CommandContext.badPriority(text) }
                return priority
            }
            let added = try context.arguments.allValues("--tag").map { (text) throws(CLIError) in
                try CommandContext.tag(text)
            }
            let removed = try context.arguments.allValues("--untag").map { (text) throws(CLIError) in
                try CommandContext.tag(text)
            }
            let project = try context.arguments.value("--project").map { (text) throws(CLIError) in
                try CommandContext.project(text)
            }
            let clearProject = context.arguments.flag("--no-project")
            if project != nil && clearProject { throw .usage("'--project' and '--no-project' cannot be used together") }
            let note = context.arguments.value("--note")
            let append = context.arguments.value("--append")
            let prepend = context.arguments.value("--prepend")
            if note != nil && (append != nil || prepend != nil) {
                throw .usage("'--note' replaces the note: it cannot be used with '--append' or '--prepend'")
            }
            let parent = try context.parentID()
            let toTop = context.arguments.flag("--top")
            let waitsFor = try context.dependencyIDs("--waits-for")
            let noWaitFor = try context.dependencyIDs("--no-wait-for")
            if let both = waitsFor.first(where: noWaitFor.contains) {
                throw .usage("'--waits-for \(both)' and '--no-wait-for \(both)' say the opposite: give one of them")
            }
            if parent != nil && toTop { throw .usage("'--top' and '--under' cannot be used together") }
            if parent != nil && context.arguments.value("--list") != nil {
                throw .usage("a subtask goes in its parent's list: '--list' cannot be used with '--under'")
            }
            let repeats = try context.repeatRequest()
            let noRepeat = context.arguments.flag("--no-repeat")
            if noRepeat && !repeats.isEmpty {
                throw .usage("'--no-repeat' cannot be used with '--every', '--after', '--until' or '--times'")
            }
            if clearDeadline && repeats.form != nil {
                throw .usage("a repeating todo has a date: '--no-due' cannot be used with '--every' or '--after'")
            }
            guard
                name != nil || deadline != nil || clearDeadline || clearTime || start != nil || clearStart
                    || priority != nil || !added.isEmpty || !removed.isEmpty || project != nil || clearProject
                    || note != nil || append != nil
                    || prepend != nil || !repeats.isEmpty || noRepeat || context.arguments.value("--list") != nil
                    || parent != nil || toTop || !waitsFor.isEmpty || !noWaitFor.isEmpty
            else {
                throw .usage(
                    "nothing to change",
                    hint:
                        "Give --name, --due, --no-due, --no-time, --start, --no-start, --priority, --tag, --untag, --project, --no-project, --note, --append, --prepend, --list, --under, --top, --waits-for, --no-wait-for, --every, --after, --until, --times or --no-repeat."
                )
            }
            if let name, !Todo.isValidName(name) { throw CLIError(.emptyName, path: "") }
            let repository = try context.openRepository()
            guard let ids = try context.selectedIDs(selection, in: repository, doing: { "Edit \($0)" })?.ids else {
                return
            }
            let today = context.today
            let dueTimes = context.dueTimes
            // One todo's edit, inside the one transaction of them all.
            func edit(_ id: Int64) throws(CLIError) -> (Todo, CalendarDate?) {
                guard let current = try context.perform({ () throws(TodoStoreError) in try repository.todo(id: id) })
                else { throw CLIError(.notFound(ids: [id]), path: "") }
                var fields = current.fields
                if let name { fields.name = name }
                if let deadline {
                    Self.setDeadline(&fields, deadline, dueTimes: dueTimes)
                } else if clearDeadline {
                    fields.moveDeadline(to: nil)
                }
                if clearTime { Self.removeTime(&fields, dueTimes: dueTimes) }
                if clearStart { fields.start = nil }
                if let start { fields.start = start }
                if let priority { fields.priority = priority }
                for tag in removed { fields.tags.remove(tag) }
                for tag in added { fields.tags.insert(tag) }
                if clearProject { fields.project = nil }
                if let project { fields.project = project }
                if let note { fields.note = note.isEmpty ? nil : note }
                if let prepend { fields.note = fields.note.map { prepend + "\n" + $0 } ?? prepend }
                if let append { fields.note = fields.note.map { $0 + "\n" + append } ?? append }
                let movedFrom = try Self.editRepeat(&fields, current, repeats, noRepeat: noRepeat, today: today)
                // A start another app set after the deadline is not this edit's business.
                if start != nil || deadline != nil { try CommandContext.checkStart(of: fields) }
                let edited = fields
                var todo = try context.perform { () throws(TodoStoreError) in
                    try repository.update(id: id) { $0 = edited }
                }
                if let name = context.arguments.value("--list") {
                    let list = try context.list(named: name, in: repository)
                    todo = try context.perform { () throws(TodoStoreError) in
                        try repository.moveSubtrees(ids: [id], to: list.id).first ?? todo
                    }
                }
                if parent != nil || toTop {
                    todo = try context.perform { () throws(TodoStoreError) in
                        try repository.setParent(parent, ids: [id]).first ?? todo
                    }
                }
                if !waitsFor.isEmpty || !noWaitFor.isEmpty {
                    try context.perform { () throws(TodoStoreError) in
                        try repository.removeDependencies(noWaitFor, from: id)
                        try repository.addDependencies(waitsFor, to: id)
                    }
                }
                return (todo, movedFrom)
            }
            let edited = try context.recordingUndo("edit", in: repository) {
                () throws(CLIError) -> [(Todo, CalendarDate?)] in
                var edited: [(Todo, CalendarDate?)] = []
                for id in ids { edited.append(try edit(id)) }
                return edited
            }
            var lines: [String] = []
            for (todo, movedFrom) in edited {
                lines.append(
                    Self.reportEdit(
                        todo, movedFrom: movedFrom, deadline: deadline, repeats: repeats, noRepeat: noRepeat, context))
            }
            try context.writeChanged(ChangedTodos(lines: lines, todos: edited.map(\.0)), in: repository)
        }
    )

    /// What `edit` says of one todo it changed: notes on stderr, and the line to print.
    private static func reportEdit(
        _ todo: Todo, movedFrom: CalendarDate?, deadline: TypedDeadline?, repeats: RepeatRequest, noRepeat: Bool,
        _ context: CommandContext
    ) -> String {
        // A deadline moved off the rule (RFC 5545 leaves such a date undefined): said, not changed.
        if deadline != nil, repeats.form == nil, !noRepeat, let date = todo.deadline,
            let rule = todo.repeatRule.flatMap({ try? RecurrenceRule(parsing: $0) }),
            RepeatSeries.firstDate(of: rule, onOrAfter: date) != date
        {
            context.err.writeNote(
                "todo \(todo.id) is now due \(TodoText.day(date)), which is not on its repeat (\(TodoText.repeatText(todo) ?? "")); the occurrence after it follows the rule"
            )
        }
        if let movedFrom, !context.out.isTerminal {
            context.err.writeNote(
                "\(movedFrom) is not on the repeat: the first occurrence of todo \(todo.id) is \(todo.deadline.map(TodoText.day) ?? "none")"
            )
        }
        // On a terminal every new value is shown; a pipe keeps the documented `~ ID  NAME`.
        return context.out.isTerminal
            ? TodoText.summaryWithDeadline(
                "~", todo, dueTimes: context.dueTimes, showsNoDeadline: true,
                dueWord: movedFrom == nil ? "due" : "first occurrence")
            : TodoText.summary("~", todo)
    }

    /// Moves the deadline of `fields` to the day typed, and what moves with it (the start, an
    /// instant time) by as many days as the day shown moves: another zone's time can fall on
    /// another date here than on its own clock, and the date typed is the local one. A time of
    /// day typed replaces the time, as local time (floating); without one the time is kept.
    static func setDeadline(_ fields: inout TodoFields, _ typed: TypedDeadline, dueTimes: DueTimeConverter) {
        let days = dueTimes.due(of: fields).map { $0.date.days(until: typed.date) }
        fields.moveDeadline(to: days.flatMap { fields.deadline?.adding(days: $0) } ?? typed.date)
        if let time = typed.dueTime {
            fields.deadline = typed.date
            fields.dueTime = time
        }
    }

    /// Removes the time of day: the todo is due on the date it is shown on here, any time.
    static func removeTime(_ fields: inout TodoFields, dueTimes: DueTimeConverter) {
        if let shown = dueTimes.due(of: fields)?.date { fields.deadline = shown }
        fields.dueTime = nil
    }

    /// Applies `edit`'s repeat options to `fields` (the todo `current` with the other edits made):
    /// a new rule from `--every` or `--after`, starting on the (new) deadline or today, and ending
    /// as the old rule did unless `--until` or `--times` say; a new end alone; or no repeat.
    ///
    /// - Returns: the deadline asked for, when it was off the new rule and moved to its first date.
    /// - Throws: a usage error for a bad end, a failure for an end given to a todo that does not
    ///   repeat (or whose rule todo cannot read).
    private static func editRepeat(
        _ fields: inout TodoFields, _ current: Todo, _ request: RepeatRequest, noRepeat: Bool, today: CalendarDate
    ) throws(CLIError) -> CalendarDate? {
        let rule = current.repeatRule.flatMap { try? RecurrenceRule(parsing: $0) }
        if noRepeat {
            fields.repeatRule = nil
            fields.repeatFrom = .due
        } else if let form = request.form {
            let series = try RepeatSeries(
                form, from: request.from, end: request.end ?? rule.flatMap(RepeatForm.end(of:)),
                deadline: fields.deadline ?? today)
            fields.deadline = series.deadline
            fields.repeatRule = series.rule.text
            fields.repeatFrom = series.from
            return series.movedFrom
        } else if let end = request.end {
            let named = "todo \(current.id) \"\(TodoText.sanitized(current.name))\""
            guard current.repeatRule != nil else {
                throw .failure("\(named) does not repeat", hint: "Give --every or --after to make it repeat.")
            }
            guard let rule, let ended = RepeatForm.ending(rule, end) else {
                throw .failure(
                    "\(named) repeats by a rule todo cannot read", hint: "Give --every or --after to replace it.")
            }
            if case .until(let until) = end, let date = fields.deadline, until < date {
                throw .usage(
                    "the series would end on \(until), before its current date \(date)",
                    hint: "Give --until a date on or after \(date).")
            }
            fields.repeatRule = ended.text
        }
        return nil
    }
}
