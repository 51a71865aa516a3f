import TodoStore

extension Command {
    /// `todo edit ID [--name NAME] [--due DATE | --no-due]`: the sample app's leading swipe.
    static let edit = Command(
        spec: CommandSpec(
            name: "edit",
            abstract: "Change a todo's name or deadline.",
            arguments: [.init(name: "id", help: "The id of the todo, as 'todo list' shows it.")],
            options: [
                .init(name: "--name", value: "name", help: "The new name."),
                .init(name: "--due", value: "date", help: "The new deadline: \(DueDateParser.examples)."),
                .init(name: "--no-due", value: nil, help: "Remove the deadline.")
            ],
            discussion: "Both changes are made in one transaction: both or neither. On a terminal the new name"
                + " and deadline are shown.\n\n" + DueDateParser.rules,
            examples: ["todo edit 3 --name \"Buy oat milk\"", "todo edit 3 --due tomorrow", "todo edit 3 --no-due"]
        ),
        run: { (context) throws(CLIError) in
            guard let id = try context.ids().first else { return }
            let name = context.arguments.value("--name")
            let deadline = try context.dueDate()
            let clearDeadline = context.arguments.flag("--no-due")
            if deadline != nil && clearDeadline {
                throw .usage("'--due' and '--no-due' cannot be used together")
            }
            guard name != nil || deadline != nil || clearDeadline else {
                throw .usage("nothing to change", hint: "Give --name, --due or --no-due.")
            }
            if let name, !Todo.isValidName(name) { throw CLIError(.emptyName, path: "") }
            let repository = try context.openRepository()
            let todo = try context.perform { () throws(TodoStoreError) in
                try repository.recordingUndo("edit") { () throws(TodoStoreError) in
                    var todo: Todo?
                    if let name { todo = try repository.rename(id: id, to: name) }
                    if deadline != nil || clearDeadline { todo = try repository.setDeadline(deadline, id: id) }
                    return todo
                }
            }
            guard let todo else { return }
            // On a terminal every new value is shown; a pipe keeps the documented `~ ID  NAME`.
            context.out.write(
                context.out.isTerminal
                    ? TodoText.summaryWithDeadline("~", todo, showsNoDeadline: true) : TodoText.summary("~", todo))
        }
    )
}
