import TodoStore

extension Command {
    /// `todo export`: every todo, as the JSON array `todo import` reads back.
    static let export = Command(
        spec: CommandSpec(
            name: "export",
            abstract: "Print every todo as a JSON array (what 'todo import' reads).",
            options: CommandContext.filterOptions,
            discussion: "The order is the list's default one, so an import recreates the same list.",
            examples: ["todo export > todos.json", "todo --db other.sqlite import todos.json", "todo export --done > done.json"]
        ),
        run: { (context) throws(CLIError) in
            var request = TodoFetchRequest()
            try context.applyFilters(to: &request)
            let repository = try context.openRepository()
            try context.perform { () throws(TodoStoreError) in
                try Command.writeJSON(repository, request, &context.out)
            }
        }
    )
}
