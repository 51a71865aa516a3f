import TodoStore

extension Command {
    /// `todo edit ID [--name NAME] [--due DATE | --no-due] [--priority P] [--tag T] [--untag T]
    /// [--note TEXT | --append TEXT | --prepend TEXT]`: the sample app's leading swipe.
    static let edit = Command(
        spec: CommandSpec(
            name: "edit",
            abstract: "Change a todo's name, deadline, priority, tags or note.",
            arguments: [.init(name: "id", help: "The id of the todo, as 'todo list' shows it.")],
            options: [
                .init(name: "--name", value: "name", help: "The new name."),
                .init(name: "--due", value: "date", help: "The new deadline: \(DueDateParser.examples)."),
                .init(name: "--no-due", value: nil, help: "Remove the deadline."),
                .init(
                    name: "--priority", value: "priority",
                    help: "The new priority: \(TodoPriority.acceptedForms); none removes it."),
                .init(name: "--tag", value: "tag", help: "Add a tag (+work, @phone or work); give it again for more."),
                .init(
                    name: "--untag", value: "tag", help: "Remove a tag, whatever its + or @; give it again for more."),
                .init(name: "--note", value: "text", help: "Replace the note; an empty text removes it."),
                .init(name: "--append", value: "text", help: "Add a line at the end of the note."),
                .init(name: "--prepend", value: "text", help: "Add a line at the start of the note.")
            ],
            discussion: "Every change is made in one transaction: all or none, and one 'todo undo' reverts"
                + " them all. On a terminal the new name and deadline are shown.\n\n" + DueDateParser.rules,
            examples: [
                "todo edit 3 --name \"Buy oat milk\"", "todo edit 3 --due tomorrow", "todo edit 3 --no-due",
                "todo edit 3 --priority low --tag errands --untag work", "todo edit 3 --append \"called, no answer\""
            ]
        ),
        run: { (context) throws(CLIError) in
            guard let id = try context.ids().first else { return }
            let name = context.arguments.value("--name")
            let deadline = try context.dueDate()
            let clearDeadline = context.arguments.flag("--no-due")
            if deadline != nil && clearDeadline {
                throw .usage("'--due' and '--no-due' cannot be used together")
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
            let note = context.arguments.value("--note")
            let append = context.arguments.value("--append")
            let prepend = context.arguments.value("--prepend")
            if note != nil && (append != nil || prepend != nil) {
                throw .usage("'--note' replaces the note: it cannot be used with '--append' or '--prepend'")
            }
            guard
                name != nil || deadline != nil || clearDeadline || priority != nil || !added.isEmpty || !removed.isEmpty
                    || note != nil || append != nil || prepend != nil
            else {
                throw .usage(
                    "nothing to change",
                    hint: "Give --name, --due, --no-due, --priority, --tag, --untag, --note, --append or --prepend.")
            }
            if let name, !Todo.isValidName(name) { throw CLIError(.emptyName, path: "") }
            let repository = try context.openRepository()
            let todo = try context.perform { () throws(TodoStoreError) in
                try repository.recordingUndo("edit") { () throws(TodoStoreError) in
                    try repository.update(id: id) { fields in
                        if let name { fields.name = name }
                        if deadline != nil || clearDeadline { fields.moveDeadline(to: deadline) }
                        if let priority { fields.priority = priority }
                        for tag in removed { fields.tags.remove(tag) }
                        for tag in added { fields.tags.insert(tag) }
                        if let note { fields.note = note.isEmpty ? nil : note }
                        if let prepend { fields.note = fields.note.map { prepend + "\n" + $0 } ?? prepend }
                        if let append { fields.note = fields.note.map { $0 + "\n" + append } ?? append }
                    }
                }
            }
            // On a terminal every new value is shown; a pipe keeps the documented `~ ID  NAME`.
            context.out.write(
                context.out.isTerminal
                    ? TodoText.summaryWithDeadline("~", todo, showsNoDeadline: true) : TodoText.summary("~", todo))
        }
    )
}
