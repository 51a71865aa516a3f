import TodoStore
import TodoSync

extension Command {
    /// `todo done ID...`: marks todos done, all or nothing (the sample app's tap).
    static let done = doneState(true)

    /// `todo undone ID...`: marks todos not done, all or nothing.
    static let undone = doneState(false)

    /// What `todo done` says of repeating todos (``CLIError/continuingSeries(_:)``).
    private static let repeatingNote = """


        A todo that repeats in another app (its synced object has a repeat rule) is refused
        while its series goes on: todo cannot complete one occurrence yet, and marking the
        series done would end it on every device.
        """

    private static func doneState(_ isDone: Bool) -> Command {
        let name = isDone ? "done" : "undone"
        return Command(
            spec: CommandSpec(
                name: name,
                abstract: isDone ? "Mark todos done." : "Mark todos not done.",
                arguments: [.init(name: "id", help: CommandContext.idsHelp, repeats: true)],
                discussion: """
                    All or nothing: if any id does not exist, no todo is changed. A range means the todos
                    that exist in it (ids are never reused, so deleted ones leave gaps); one with none is
                    an error. A todo that is already \(name) is said to be so and left alone; when none
                    changes, nothing is recorded for undo.\(isDone ? Self.repeatingNote : "")
                    """,
                examples: ["todo \(name) 3", "todo \(name) 3 4 7", "todo \(name) 2-4,9"]
            ),
            run: { (context) throws(CLIError) in
                let parts = try context.idParts()
                let repository = try context.openRepository()
                let ids = try context.existingIDs(parts, in: repository)
                // Read and write in one transaction: what is reported as already done is what
                // the write left alone.
                let (todos, changed, repeating) = try context.perform { () throws(TodoStoreError) in
                    try repository.recordingUndo(name) { () throws(TodoStoreError) in
                        let todos = try repository.todos(ids: ids)
                        let toChange = todos.filter { $0.isDone != isDone }.map(\.id)
                        let repeating =
                            isDone ? try SyncState(repository: repository).todosInContinuingSeries(among: toChange) : []
                        guard repeating.isEmpty else { return (todos, Set<Int64>(), Set(repeating)) }
                        let changed = toChange.isEmpty ? [] : try repository.setDone(isDone, ids: toChange)
                        return (todos, Set(changed.map(\.id)), Set<Int64>())
                    }
                }
                guard repeating.isEmpty else { throw .continuingSeries(todos.filter { repeating.contains($0.id) }) }
                for todo in todos {
                    if changed.contains(todo.id) {
                        context.out.write(TodoText.summary(isDone ? "✓" : "○", todo))
                    } else {
                        context.out.write("  \(todo.id)  \(TodoText.sanitized(todo.name)): already \(name)\n")
                    }
                }
            }
        )
    }
}

extension CLIError {
    /// `todo done` (or the ui's toggle) on todos whose synced object repeats
    /// (``VTodoObject/seriesContinues``): refused, nothing changed.
    static func continuingSeries(_ todos: [Todo]) -> CLIError {
        let named = todos.map { "\($0.id) \"\(TodoText.sanitized($0.name))\"" }.joined(separator: ", ")
        return .failure(
            "\(todos.count == 1 ? "todo" : "todos") \(named) \(todos.count == 1 ? "repeats" : "repeat") (a rule set in another app), and todo cannot complete one occurrence yet: marking it done would end the series on every device",
            hint: "Nothing was changed. Complete this occurrence in the app that set the repeat.")
    }
}
