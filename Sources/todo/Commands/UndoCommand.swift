import TodoStore

extension Command {
    /// `todo undo`: reverts the newest change made through todo; repeat to walk back further.
    static let undo = Command(
        spec: CommandSpec(
            name: "undo",
            abstract: "Undo the last change made with todo (add, done, undone, edit, rm, import).",
            discussion: """
                Repeat to go further back (up to 100 changes); the history is kept in the database,
                so it survives between runs. A deleted todo comes back with its id. If another program
                changed the same todos since, undo refuses and changes nothing.
                """,
            examples: ["todo undo"]
        ),
        run: { (context) throws(CLIError) in
            let repository = try context.openRepository()
            let undone = try context.perform { () throws(TodoStoreError) in try repository.undo() }
            context.out.write("Undid '\(undone.command)'.\n")
        }
    )
}
