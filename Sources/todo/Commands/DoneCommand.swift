import TodoStore

extension Command {
    /// `todo done ID...`: marks todos done, all or nothing.
    static let done = Command(
        spec: CommandSpec(
            name: "done",
            abstract: "Mark todos done.",
            arguments: [.init(name: "id", help: "The ids of the todos, as 'todo list' shows them.", repeats: true)],
            discussion: "All or nothing: if any id does not exist, no todo is changed.",
            examples: ["todo done 3", "todo done 3 4 7"]
        ),
        run: { (context) throws(CLIError) in
            let ids = try context.ids()
            let repository = try context.openRepository()
            let todos = try context.perform { () throws(TodoStoreError) in try repository.setDone(true, ids: ids) }
            for todo in todos { context.out.write(TodoText.summary("✓", todo)) }
        }
    )
}
