import TodoStore

extension Command {
    /// `todo add NAME [--due DATE] [--json]`: prints the new todo's id (on a terminal, the todo).
    static let add = Command(
        spec: CommandSpec(
            name: "add",
            abstract: "Add a todo.",
            arguments: [.init(name: "name", help: "What to do. Several words are joined with spaces.", repeats: true)],
            options: [
                .init(name: "--due", value: "date", help: "The deadline: \(DueDateParser.examples)."),
                .init(
                    name: "--json", value: nil,
                    help:
                        "Print the new todo as a JSON object instead of its id (on a terminal, a line saying what was added)."
                )
            ],
            discussion: DueDateParser.rules,
            examples: [
                "todo add \"Buy milk\" --due 2024-05-01", "todo add Call mum --due friday",
                "todo add \"Pay rent\" --due +2w"
            ]
        ),
        run: { (context) throws(CLIError) in
            let name = context.arguments.positionals.joined(separator: " ")
            guard Todo.isValidName(name) else { throw CLIError(.emptyName, path: "") }
            let deadline = try context.dueDate()
            let repository = try context.openRepository()
            let todo = try context.perform { () throws(TodoStoreError) in
                try repository.recordingUndo("add") { () throws(TodoStoreError) in
                    try repository.add(name: name, deadline: deadline)
                }
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
