import TodoStore

extension Command {
    /// `todo rm [--yes] ID...`: deletes todos, all or nothing (the sample app's trailing swipe).
    static let remove = Command(
        spec: CommandSpec(
            name: "rm",
            abstract: "Delete todos.",
            arguments: [.init(name: "id", help: CommandContext.idsHelp, repeats: true)],
            options: [.init(name: "--yes", value: nil, help: "Do not ask for confirmation.", short: "-y")],
            discussion: """
                When standard input is a terminal, asks before deleting (as the app's "Do you delete
                this todo?" alert); --yes skips the question. All or nothing: if any id does not exist,
                no todo is deleted. A range means the todos that exist in it (ids are never reused, so
                deleted ones leave gaps); one with none is an error.
                """,
            examples: ["todo rm 3", "todo rm --yes 3 4", "todo rm --yes 2-4"]
        ),
        run: { (context) throws(CLIError) in
            let parts = try context.idParts()
            let repository = try context.openRepository()
            let ids = try context.existingIDs(parts, in: repository)
            if Terminal.stdinIsTerminal && !context.arguments.flag("--yes") {
                let todos = try context.perform { () throws(TodoStoreError) in try repository.todos(ids: ids) }
                let names = todos.map { "\($0.id) \"\(TodoText.sanitized($0.name))\"" }.joined(separator: ", ")
                guard Terminal.confirm("Delete \(names)?", err: &context.err) else {
                    context.err.write("Nothing was deleted.\n")
                    return
                }
            }
            let todos = try context.perform { () throws(TodoStoreError) in
                try repository.recordingUndo("rm") { () throws(TodoStoreError) in try repository.delete(ids: ids) }
            }
            for todo in todos { context.out.write(TodoText.summary("-", todo)) }
        }
    )
}
