import TodoStore

extension Command {
    /// `todo done ID...`: marks todos done, all or nothing (the sample app's tap).
    static let done = doneState(true)

    /// `todo undone ID...`: marks todos not done, all or nothing.
    static let undone = doneState(false)

    private static func doneState(_ isDone: Bool) -> Command {
        let name = isDone ? "done" : "undone"
        return Command(
            spec: CommandSpec(
                name: name,
                abstract: isDone ? "Mark todos done." : "Mark todos not done.",
                arguments: [.init(name: "id", help: "The ids of the todos, as 'todo list' shows them.", repeats: true)],
                discussion: "All or nothing: if any id does not exist, no todo is changed.",
                examples: ["todo \(name) 3", "todo \(name) 3 4 7"]
            ),
            run: { (context) throws(CLIError) in
                let ids = try context.ids()
                let repository = try context.openRepository()
                let todos = try context.perform { () throws(TodoStoreError) in
                    try repository.recordingUndo(name) { try repository.setDone(isDone, ids: ids) }
                }
                for todo in todos { context.out.write(TodoText.summary(isDone ? "✓" : "○", todo)) }
            }
        )
    }
}
