import TodoStore

extension Command {
    /// `todo rm [--yes] ID...`: deletes todos, all or nothing.
    static let remove = Command(
        spec: CommandSpec(
            name: "rm",
            abstract: "Delete todos.",
            arguments: [.init(name: "id", help: "The ids of the todos, as 'todo list' shows them.", repeats: true)],
            options: [.init(name: "--yes", value: nil, help: "Do not ask for confirmation.", short: "-y")],
            discussion: "All or nothing: if any id does not exist, no todo is deleted.",
            examples: ["todo rm 3", "todo rm --yes 3 4"]
        ),
        run: { (context) throws(CLIError) in
            let ids = try context.ids()
            let repository = try context.openRepository()
            let todos = try context.perform { () throws(TodoStoreError) in try repository.delete(ids: ids) }
            for todo in todos { context.out.write(TodoText.summary("-", todo)) }
        }
    )
}
