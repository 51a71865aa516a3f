import TodoStore

extension Command {
    /// `todo undo [--skip]`: reverts the newest change made through todo; repeat to walk back.
    static let undo = Command(
        spec: CommandSpec(
            name: "undo",
            abstract: "Undo the last change made with todo (add, done, undone, edit, rm, import).",
            options: [
                .init(
                    name: "--skip", value: nil,
                    help: "Forget the newest change without changing any todo, so older ones can be undone."),
                .init(
                    name: "--force", value: nil, help: "With --skip: forget the change even though it could be undone."),
                undoJSONOption
            ],
            discussion: """
                Repeat to go further back (up to 1000 changes by default: undo.depth in the
                configuration, 'todo help config'); the history is kept in the database, so it
                survives between runs. A change of many todos at once (todo --tag errands done) is
                one step. A deleted todo comes back with its id. If another program
                changed the same todos since, undo refuses and changes nothing; 'todo undo --skip'
                then forgets that change so the ones before it can be undone (a change that could
                still be undone is kept, unless --force). 'todo redo' re-applies
                what undo reverted, until the next change. On a terminal it names each todo it changed.

                \(undoJSONRules)
                """,
            examples: ["todo undo", "todo undo --skip"]
        ),
        run: { (context) throws(CLIError) in
            let repository = try context.openRepository()
            if context.arguments.flag("--force"), !context.arguments.flag("--skip") {
                throw .usage("'--force' goes with '--skip'", hint: "Use 'todo undo --skip --force'.")
            }
            if context.arguments.flag("--skip") {
                let force = context.arguments.flag("--force")
                let skipped = try context.perform { () throws(TodoStoreError) in try repository.skipUndo(force: force) }
                // No todo changed: the object names the step forgotten, its lists empty.
                if context.arguments.flag("--json") {
                    return try writeChanges(skipped, [], verb: "Forgot", in: repository, context)
                }
                context.out.write("Forgot '\(TodoText.sanitized(skipped.command))'; no todo was changed.\n")
                return
            }
            let (undone, changes) = try context.perform { () throws(TodoStoreError) in
                try repository.undoReportingChanges()
            }
            try writeChanges(undone, changes, verb: "Undid", in: repository, context)
        }
    )

    /// `todo redo`: re-applies what `todo undo` reverted, newest first, until the next change.
    static let redo = Command(
        spec: CommandSpec(
            name: "redo",
            abstract: "Redo what 'todo undo' reverted.",
            options: [undoJSONOption],
            discussion: """
                Repeat to redo several undone changes, newest first. Any new change ends what can be
                redone. If another program changed the same todos since, redo refuses and changes nothing.
                On a terminal it names each todo it changed.

                \(undoJSONRules)
                """,
            examples: ["todo undo && todo redo"]
        ),
        run: { (context) throws(CLIError) in
            let repository = try context.openRepository()
            let (redone, changes) = try context.perform { () throws(TodoStoreError) in
                try repository.redoReportingChanges()
            }
            try writeChanges(redone, changes, verb: "Redid", in: repository, context)
        }
    )

    /// `--json` of `undo` and `redo`.
    private static let undoJSONOption = CommandSpec.Option(
        name: "--json", value: nil,
        help:
            "Print a JSON object: the command undone or redone, the todos changed as they are now, and the todos removed."
    )

    /// What `--json` of `undo` and `redo` prints.
    private static let undoJSONRules = """
        --json prints {"command": "rm", "todos": [...], "removed": [...]}: the step's command, the
        todos it changed or brought back as they are now, and those it removed as they were, each
        as 'todo list --json' prints todos.
        """

    /// What an undo or redo did: `Undid 'rm'.` and, on a terminal, one line per todo it changed,
    /// marked as `todo watch` marks changes (`+` back, `-` gone, `✓`, `○`, `~`); a pipe keeps the
    /// documented one line. With `--json`, the object of ``undoJSONRules``.
    private static func writeChanges(
        _ step: UndoneCommand, _ changes: [TodoChange], verb: String, in repository: TodoRepository,
        _ context: CommandContext
    ) throws(CLIError) {
        if context.arguments.flag("--json") {
            let (todos, removed) = try context.perform { () throws(TodoStoreError) in
                let objects = try TodoJSON(repository)
                var todos: [String] = []
                var removed: [String] = []
                for change in changes {
                    if let after = change.after {
                        todos.append(try objects.object(after))
                    } else if let before = change.before {
                        removed.append(try objects.object(before))
                    }
                }
                return (todos, removed)
            }
            func array(_ items: [String]) -> String {
                items.isEmpty ? "[]" : "[\n    " + items.joined(separator: ",\n    ") + "\n  ]"
            }
            context.out.write(
                "{\n  \"command\": \(JSON.string(step.command)),\n  \"todos\": \(array(todos)),\n  \"removed\": \(array(removed))\n}\n"
            )
            return
        }
        context.out.write("\(verb) '\(TodoText.sanitized(step.command))'.\n")
        guard context.out.isTerminal else { return }
        for change in changes {
            switch (change.before, change.after) {
            case (nil, let after?): context.out.write(TodoText.summary("+", after))
            case (let before?, nil): context.out.write(TodoText.summary("-", before))
            case (let before?, let after?): context.out.write(TodoText.summary(WatchPrinter.mark(before, after), after))
            case (nil, nil): continue
            }
        }
    }
}
