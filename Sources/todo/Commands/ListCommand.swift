import TodoStore

extension Command {
    /// `todo list [--sort due|name|status] [--done|--undone] [--limit N] [--offset N] [--json]`.
    static let list = Command(
        spec: CommandSpec(
            name: "list",
            abstract: "List todos.",
            options: [
                .init(name: "--sort", value: "order", help: "due (deadline, undated last; the default), name, or status (undone first)."),
                .init(name: "--done", value: nil, help: "Only todos that are done."),
                .init(name: "--undone", value: nil, help: "Only todos that are not done."),
                .init(name: "--limit", value: "n", help: "Show at most n todos."),
                .init(name: "--offset", value: "n", help: "Skip the first n todos."),
                .init(name: "--json", value: nil, help: "Print a JSON array of todo objects."),
            ],
            examples: ["todo list", "todo list --sort name --undone", "todo list --json"]
        ),
        run: { (context) throws(CLIError) in
            let request = try context.fetchRequest()
            let repository = try context.openRepository()
            try context.perform { () throws(TodoStoreError) in
                if context.arguments.flag("--json") {
                    try writeJSON(repository, request, &context.out)
                } else {
                    try writeText(repository, request, &context.out)
                }
            }
        }
    )

    private static func writeJSON(_ repository: TodoRepository, _ request: TodoFetchRequest,
                                  _ out: inout OutputStream) throws(TodoStoreError) {
        var first = true
        out.write("[")
        try repository.forEach(request) { todo in
            out.write(first ? "\n  " : ",\n  ")
            out.write(JSON.object(todo))
            first = false
        }
        out.write(first ? "]\n" : "\n]\n")
    }

    private static func writeText(_ repository: TodoRepository, _ request: TodoFetchRequest,
                                  _ out: inout OutputStream) throws(TodoStoreError) {
        let width = TodoText.idWidth(maxID: try repository.maxID())
        var empty = true
        try repository.forEach(request) { todo in
            TodoText.writeRow(todo, idWidth: width, to: &out)
            empty = false
        }
        if empty { out.write("No todos.\n") }
    }
}

extension CommandContext {
    /// The fetch request that `list`'s options describe.
    func fetchRequest() throws(CLIError) -> TodoFetchRequest {
        var request = TodoFetchRequest()
        if let sort = arguments.value("--sort") {
            guard let order = TodoFetchRequest.Order(rawValue: sort) else {
                throw .usage("'\(sort)' is not a sort order", hint: "Use due, name or status.")
            }
            request.order = order
        }
        switch (arguments.flag("--done"), arguments.flag("--undone")) {
        case (true, true): throw .usage("'--done' and '--undone' cannot be used together")
        case (true, false): request.filter = .done
        case (false, true): request.filter = .undone
        case (false, false): break
        }
        request.limit = try count("--limit")
        request.offset = try count("--offset") ?? 0
        return request
    }
}
