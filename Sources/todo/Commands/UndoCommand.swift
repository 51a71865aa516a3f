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
                    name: "--force", value: nil, help: "With --skip: forget the change even though it could be undone.")
            ],
            discussion: """
                Repeat to go further back (up to 100 changes); the history is kept in the database,
                so it survives between runs. A deleted todo comes back with its id. If another program
                changed the same todos since, undo refuses and changes nothing; 'todo undo --skip'
                then forgets that change so the ones before it can be undone (a change that could
                still be undone is kept, unless --force). 'todo redo' re-applies
                what undo reverted, until the next change. On a terminal it names each todo it changed.
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
                context.out.write("Forgot '\(TodoText.sanitized(skipped.command))'; no todo was changed.\n")
                return
            }
            let (undone, changes) = try context.perform { () throws(TodoStoreError) in
                try repository.undoReportingChanges()
            }
            context.out.write("Undid '\(TodoText.sanitized(undone.command))'.\n")
            writeChanges(changes, context)
        }
    )

    /// `todo redo`: re-applies what `todo undo` reverted, newest first, until the next change.
    static let redo = Command(
        spec: CommandSpec(
            name: "redo",
            abstract: "Redo what 'todo undo' reverted.",
            discussion: """
                Repeat to redo several undone changes, newest first. Any new change ends what can be
                redone. If another program changed the same todos since, redo refuses and changes nothing.
                On a terminal it names each todo it changed.
                """,
            examples: ["todo undo && todo redo"]
        ),
        run: { (context) throws(CLIError) in
            let repository = try context.openRepository()
            let (redone, changes) = try context.perform { () throws(TodoStoreError) in
                try repository.redoReportingChanges()
            }
            context.out.write("Redid '\(TodoText.sanitized(redone.command))'.\n")
            writeChanges(changes, context)
        }
    )

    /// On a terminal, one line per todo an undo or redo changed, marked as `todo watch` marks
    /// changes (`+` back, `-` gone, `✓`, `○`, `~`); a pipe keeps the documented one line.
    private static func writeChanges(_ changes: [TodoChange], _ context: CommandContext) {
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
