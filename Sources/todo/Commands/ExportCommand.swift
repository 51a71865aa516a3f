import TodoStore

extension Command {
    /// `todo export`: every todo, as the JSON array `todo import` reads back.
    static let export = Command(
        spec: CommandSpec(
            name: "export",
            abstract: "Print every todo as a JSON array (what 'todo import' reads).",
            discussion: "The order is the list's default one, so an import recreates the same list.",
            examples: ["todo export > todos.json", "todo --db other.sqlite import todos.json"]
        ),
        run: { (context) throws(CLIError) in
            let repository = try context.openRepository()
            try context.perform { () throws(TodoStoreError) in
                try Command.writeJSON(repository, TodoFetchRequest(), &context.out)
            }
        }
    )
}
