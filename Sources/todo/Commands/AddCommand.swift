import TodoStore
import TodoSync

extension Command {
    /// `todo add NAME [+TAG|@TAG|due:DATE|pri:P|project:P|t:DATE|rec:FORM ...] [--due DATE [TIME]] [--start DATE] [--priority P] [--tag T ...]
    /// [--note TEXT] [--under ID] [--waits-for ID ...] [--every FORM | --after FORM] [--until DATE | --times N]
    /// [--json]`: prints the new todo's id
    /// (on a terminal, the todo).
    static let add = Command(
        spec: CommandSpec(
            name: "add",
            abstract: "Add a todo.",
            arguments: [
                .init(
                    name: "name",
                    help: "What to do. Several words are joined with spaces. " + QuickCapture.rules,
                    repeats: true)
            ],
            options: [
                CommandContext.dueOption(help: "The deadline"),
                CommandContext.startOption,
                .init(name: "--priority", value: "priority", help: "The priority: \(TodoPriority.acceptedForms)."),
                .init(
                    name: "--tag", value: "tag",
                    help:
                        "A tag (+work, @phone, or work for +work; \"Home Improvement\" with its space); give it again for more."
                ),
                .init(
                    name: "--project", value: "project",
                    help: "The project (Work, Work.ClientA: names joined by dots, the widest first)."),
                .init(name: "--note", value: "text", help: "A note: any text, several lines too."),
                .init(
                    name: "--list", value: "list",
                    help: "The list to add it to (case does not matter; default: the default list, 'todo lists').",
                    short: "-l"),
                CommandContext.underOption, CommandContext.parentOption, CommandContext.waitsForOption
            ] + CommandContext.repeatOptions + [
                .init(
                    name: "--json", value: nil,
                    help:
                        "Print the new todo as a JSON object instead of its id (on a terminal, a line saying what was added)."
                )
            ],
            discussion: DueDateParser.rules + "\n\n" + DueDateParser.timeRules + "\n\n" + CommandContext.startRules
                + "\n\n" + RepeatForm.rules,
            examples: [
                "todo add \"Buy milk\" --due 2024-05-01", "todo add Call mum --due friday",
                "todo add \"Pay rent\" --due +2w", "todo add \"Team call\" --due \"fri 19:00\"",
                "todo add \"Plan the trip\" --due 2026-12-20 --start 2026-12-01",
                "todo add Call mom +family @phone --priority high",
                "todo add Send the report due:fri pri:H project:Work.ClientA",
                "todo add \"Call mom\" --tag family --note \"about Sunday\"",
                "todo add \"Fix the sink\" --tag \"Home Improvement\"",
                "todo add \"Pay rent\" --due 2026-12-01 --every month", "todo add \"Water the fern\" --after 3d",
                "todo add Gym --every mon,thu --until 2027-06-30", "todo add Water plants rec:+1w",
                "todo add \"Oat milk\" --under 17", "todo add \"Paint the fence\" --waits-for 12"
            ]
        ),
        run: { (context) throws(CLIError) in
            // Words of their own that are tags or attributes leave the name (taskwarrior's `task
            // add Call +family due:fri recur:weekly`, todo.txt's `rec:3d t:2026-12-01`).
            let capture = try QuickCapture(arguments: context.arguments.positionals, today: context.today)
            let request = try context.repeatRequest(word: capture.repeats)
            var tags = capture.tags
            for text in context.arguments.allValues("--tag") { tags.insert(try CommandContext.tag(text)) }
            let name = capture.name
            guard Todo.isValidName(name) else { throw CLIError(.emptyName, path: "") }
            let due = try Self.eitherOf(capture.due, "due:", try context.dueDate(), "--due", "the deadline")
            var fields = TodoFields(name: name, deadline: due?.date, tags: tags, dueTime: due?.dueTime)
            fields.start = try Self.eitherOf(capture.start, "t:", try context.startDate(), "--start", "the start date")
            let priority = try context.arguments.value("--priority").map { (text) throws(CLIError) in
                guard let priority = TodoPriority(parsing: text) else { throw CommandContext.badPriority(text) }
                return priority
            }
            fields.priority =
                try Self.eitherOf(capture.priority, "pri:", priority, "--priority", "the priority") ?? .none
            let project = try context.arguments.value("--project").map { (text) throws(CLIError) in
                try CommandContext.project(text)
            }
            fields.project = try Self.eitherOf(capture.project, "project:", project, "--project", "the project")
            fields.note = context.arguments.value("--note")
            var series: RepeatSeries?
            if let form = request.form {
                // A repeating todo always has a date: without --due, today's first occurrence.
                let made = try RepeatSeries(
                    form, from: request.from, end: request.end, deadline: fields.deadline ?? context.today)
                fields.deadline = made.deadline
                fields.repeatRule = made.rule.text
                fields.repeatFrom = made.from
                series = made
            } else if request.end != nil {
                throw .usage("'--until' and '--times' end a repeat", hint: "Give --every or --after too.")
            }
            try CommandContext.checkStart(of: fields)
            let parent = try context.parentID()
            let waitsFor = try context.dependencyIDs("--waits-for")
            let repository = try context.openRepository()
            let list = try context.arguments.value("--list").map { (name) throws(CLIError) in
                try context.list(named: name, in: repository)
            }
            let todo = try context.perform { () throws(TodoStoreError) in
                try repository.recordingUndo("add") { () throws(TodoStoreError) in
                    let todo = try repository.add(fields, list: list?.id, parent: parent)
                    if !waitsFor.isEmpty { try repository.addDependencies(waitsFor, to: todo.id) }
                    return todo
                }
            }
            let moved = series?.movedFrom != nil
            // Standard output is the id (or the JSON) in a pipe: the moved date is told on stderr.
            if let series, let asked = series.movedFrom, context.arguments.flag("--json") || !context.out.isTerminal {
                context.err.writeNote(
                    "\(asked) is not on the repeat: the first occurrence of todo \(todo.id) is \(TodoText.day(series.deadline))"
                )
            }
            if context.arguments.flag("--json") {
                let lists = try context.perform { () throws(TodoStoreError) in try JSON.listNames(repository) }
                context.out.write(JSON.object(todo, uid: nil, lists: lists, depends: waitsFor.sorted()) + "\n")
            } else if context.out.isTerminal {
                // A person sees what was added, which day a relative date became, and how it repeats.
                // Where there are several lists, which one it went to.
                let lists = try context.perform { () throws(TodoStoreError) in try repository.lists() }
                let listName = lists.count > 1 ? lists.first { $0.id == todo.listID }?.name : nil
                context.out.write(
                    TodoText.summaryWithDeadline(
                        "+", todo, dueTimes: context.dueTimes, dueWord: moved ? "first occurrence" : "due",
                        list: listName))
            } else {
                // The scripting contract: the id alone (`id=$(todo add ...)`).
                context.out.write("\(todo.id)\n")
            }
        }
    )

    /// The value a name's attribute word gives, or its option: one of them, or a usage error
    /// when both are given (`due:fri --due mon`).
    static func eitherOf<Value>(
        _ word: Value?, _ wordName: String, _ option: Value?, _ optionName: String, _ what: String
    ) throws(CLIError) -> Value? {
        if word != nil && option != nil {
            throw .usage("'\(wordName)' and '\(optionName)' both give \(what)", hint: "Give one of them.")
        }
        return word ?? option
    }
}
