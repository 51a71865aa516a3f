import TodoStore

extension Command {
    /// `todo add NAME [+TAG|@TAG ...] [--due DATE] [--priority P] [--tag T ...] [--note TEXT] [--json]`:
    /// prints the new todo's id (on a terminal, the todo).
    static let add = Command(
        spec: CommandSpec(
            name: "add",
            abstract: "Add a todo.",
            arguments: [
                .init(
                    name: "name",
                    help:
                        "What to do. Several words are joined with spaces; a word of its own that starts with + or @ (+family, @phone) is a tag, as in taskwarrior and todo.txt. Quote the whole name to keep such a word in it.",
                    repeats: true)
            ],
            options: [
                .init(name: "--due", value: "date", help: "The deadline: \(DueDateParser.examples)."),
                .init(name: "--priority", value: "priority", help: "The priority: \(TodoPriority.acceptedForms)."),
                .init(
                    name: "--tag", value: "tag",
                    help: "A tag (+work, @phone, or work for +work); give it again for more."),
                .init(name: "--note", value: "text", help: "A note: any text, several lines too."),
                .init(
                    name: "--json", value: nil,
                    help:
                        "Print the new todo as a JSON object instead of its id (on a terminal, a line saying what was added)."
                )
            ],
            discussion: DueDateParser.rules,
            examples: [
                "todo add \"Buy milk\" --due 2024-05-01", "todo add Call mum --due friday",
                "todo add \"Pay rent\" --due +2w", "todo add Call mom +family @phone --priority high",
                "todo add \"Call mom\" --tag family --note \"about Sunday\""
            ]
        ),
        run: { (context) throws(CLIError) in
            // Words of their own that are tags leave the name (taskwarrior's `task add Call +family`).
            var words: [String] = []
            var tags = TodoTags()
            for word in context.arguments.positionals {
                if let first = word.first, first == "+" || first == "@", let tag = TodoTag(word) {
                    tags.insert(tag)
                } else {
                    words.append(word)
                }
            }
            for text in context.arguments.allValues("--tag") { tags.insert(try CommandContext.tag(text)) }
            let name = words.joined(separator: " ")
            guard Todo.isValidName(name) else { throw CLIError(.emptyName, path: "") }
            var fields = TodoFields(name: name, deadline: try context.dueDate(), tags: tags)
            if let text = context.arguments.value("--priority") {
                guard let priority = TodoPriority(parsing: text) else { throw CommandContext.badPriority(text) }
                fields.priority = priority
            }
            fields.note = context.arguments.value("--note")
            let repository = try context.openRepository()
            let todo = try context.perform { () throws(TodoStoreError) in
                try repository.recordingUndo("add") { () throws(TodoStoreError) in try repository.add(fields) }
            }
            if context.arguments.flag("--json") {
                context.out.write(JSON.object(todo) + "\n")
            } else if context.out.isTerminal {
                // A person sees what was added, and which day a relative date became.
                context.out.write(TodoText.summaryWithDeadline("+", todo))
            } else {
                // The scripting contract: the id alone (`id=$(todo add ...)`).
                context.out.write("\(todo.id)\n")
            }
        }
    )
}
