import TodoStore

extension Command {
    /// `todo rm [--yes] ID...`: deletes todos, all or nothing (the sample app's trailing swipe).
    static let remove = Command(
        spec: CommandSpec(
            name: "rm",
            abstract: "Delete todos.",
            arguments: [.init(name: "id", help: CommandContext.idsHelp, repeats: true, optional: true)],
            options: [
                CommandContext.yesOption(" for confirmation"),
                CommandContext.withSubtasksOption("Delete"),
                CommandContext.changedJSONOption("deleted, as they were")
            ] + CommandContext.selectionOptions,
            discussion: """
                When standard input is a terminal, asks before deleting (as the app's "Do you delete
                this todo?" alert); --yes skips the question. All or nothing: if any id does not exist,
                no todo is deleted. A range means the todos that exist in it (ids are never reused, so
                deleted ones leave gaps); one with none is an error.

                \(CommandContext.selectionRules(verb: "rm", ownOptionsSelect: true)) After that
                question rm does not ask its own.

                A todo with subtasks is deleted with them, at every depth, or not at all: on a
                terminal todo asks (once, for every todo given), --with-subtasks says yes, and
                otherwise (a pipe, or --yes alone) nothing is deleted. One 'todo undo' brings the
                whole subtree back.
                """,
            examples: ["todo rm 3", "todo rm --yes 3 4", "todo rm --yes 2-4", "todo --done --tag errands rm --yes"],
            selectsBefore: true
        ),
        run: { (context) throws(CLIError) in
            let selection = try context.selection(ownOptionsSelect: true)
            let repository = try context.openRepository()
            guard
                let (ids, asked) = try context.selectedIDs(selection, in: repository, doing: { "Delete \($0)" })
            else { return }
            // Every id read first: one that names no todo fails before any question.
            let todos = try context.perform { () throws(TodoStoreError) in try repository.todos(ids: ids) }
            let names = CommandContext.named(todos, count: todos.count)
            // One question at most: the subtasks' one says what else goes.
            guard
                let subtasks = try context.subtasksTakenAlong(
                    of: ids, verb: "rm", undoneOnly: false, in: repository,
                    question: { "Delete \($0) and \($1)?" })
            else { return }
            if subtasks.isEmpty, !asked, Terminal.stdinIsTerminal, !context.arguments.flag("--yes") {
                guard Terminal.confirm("Delete \(names)?", err: &context.err) else {
                    context.err.write("Nothing was deleted.\n")
                    return
                }
            }
            // The objects of --json are read before the todos go: their subtasks and links as they were.
            let objects =
                context.arguments.flag("--json")
                ? try context.perform { () throws(TodoStoreError) in try TodoJSON(repository) } : nil
            // The subtrees are read again in the transaction: a subtask another program added
            // since the question goes too, rather than being left under nothing.
            let deleted = try context.perform { () throws(TodoStoreError) in
                try repository.recordingUndo("rm") { () throws(TodoStoreError) in
                    subtasks.isEmpty ? try repository.delete(ids: ids) : try repository.deleteSubtrees(ids: ids)
                }
            }
            try context.writeChanged(
                ChangedTodos(lines: deleted.map { TodoText.summary("-", $0) }, todos: deleted), in: repository,
                objects: objects)
        }
    )
}
