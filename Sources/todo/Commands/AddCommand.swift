import TodoStore
import TodoSync

extension Command {
    /// `todo add NAME [+TAG|@TAG|rec:FORM ...] [--due DATE [TIME]] [--start DATE] [--priority P] [--tag T ...]
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
                    help:
                        "What to do. Several words are joined with spaces; a word of its own that starts with + or @ (+family, @phone) is a tag, as in taskwarrior and todo.txt, and rec:FORM or recur:FORM says how it repeats (todo.txt's rec:3d counts from the day done, rec:+3d and taskwarrior's recur:weekly from the deadline). Quote the whole name to keep such a word in it.",
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
                "todo add \"Call mom\" --tag family --note \"about Sunday\"",
                "todo add \"Fix the sink\" --tag \"Home Improvement\"",
                "todo add \"Pay rent\" --due 2026-12-01 --every month", "todo add \"Water the fern\" --after 3d",
                "todo add Gym --every mon,thu --until 2027-06-30", "todo add Water plants rec:+1w",
                "todo add \"Oat milk\" --under 17", "todo add \"Paint the fence\" --waits-for 12"
            ]
        ),
        run: { (context) throws(CLIError) in
            // Words of their own that are tags or repeats leave the name (taskwarrior's `task add
            // Call +family recur:weekly`, todo.txt's `rec:3d`).
            var words: [String] = []
            var tags = TodoTags()
            var repeatWord: (form: RepeatForm, from: TodoRepeatFrom)?
            for word in context.arguments.positionals {
                if let first = word.first, first == "+" || first == "@", let tag = TodoTag(word) {
                    tags.insert(tag)
                } else if let repeats = try RepeatForm.word(word) {
                    if let earlier = repeatWord {
                        throw .usage(
                            "'\(TodoText.sanitized(earlier.form.text))' and '\(TodoText.sanitized(word))' both say how it repeats",
                            hint: "Give one of them, or quote the name to keep such a word in it.")
                    }
                    repeatWord = repeats
                } else {
                    words.append(word)
                }
            }
            let request = try context.repeatRequest(word: repeatWord)
            for text in context.arguments.allValues("--tag") { tags.insert(try CommandContext.tag(text)) }
            let name = words.joined(separator: " ")
            guard Todo.isValidName(name) else { throw CLIError(.emptyName, path: "") }
            let due = try context.dueDate()
            var fields = TodoFields(name: name, deadline: due?.date, tags: tags, dueTime: due?.dueTime)
            fields.start = try context.startDate()
            if let text = context.arguments.value("--priority") {
                guard let priority = TodoPriority(parsing: text) else { throw CommandContext.badPriority(text) }
                fields.priority = priority
            }
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
}
