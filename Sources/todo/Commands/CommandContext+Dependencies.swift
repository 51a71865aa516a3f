import TodoStore

/// What the commands share about dependencies ("waits for", "blocked by"): the options that make
/// and remove them (`--waits-for`, `--no-wait-for`, a pair as `--tag` and `--untag` are), the
/// filters (`--blocked`, `--unblocked`), and the one order of a list that has them.
extension CommandContext {
    /// `--waits-for ID`: the todos a todo added or edited waits for.
    static let waitsForOption = CommandSpec.Option(
        name: "--waits-for", value: "id",
        help:
            "It waits for the todo with this id (taskwarrior's depends:): blocked until that one is done; 3,4 or again for more."
    )
    /// `--no-wait-for ID`: `edit`'s way to remove a link, as `--untag` removes a tag.
    static let noWaitForOption = CommandSpec.Option(
        name: "--no-wait-for", value: "id", help: "It waits no more for the todo with this id; 3,4 or again for more.")

    /// `--blocked` and `--unblocked`, in ``filterOptions`` and bare `todo`'s options.
    static let blockedOptions: [CommandSpec.Option] = [
        .init(name: "--blocked", value: nil, help: "Only todos not done that wait for a todo not done."),
        .init(
            name: "--unblocked", value: nil,
            help: "Only todos not done that wait for no todo not done: those that can be done now.")
    ]

    /// The ids `option` names (`--waits-for 3,4 --waits-for 7`), in the order given, each once.
    func dependencyIDs(_ option: String) throws(CLIError) -> [Int64] {
        var seen = Set<Int64>()
        return try Self.ids(arguments.allValues(option)).filter { seen.insert($0).inserted }
    }

    /// Applies ``blockedOptions`` to `request`: both keep undone todos only.
    func applyBlockedFilters(to request: inout TodoFetchRequest) throws(CLIError) {
        switch (arguments.flag("--blocked"), arguments.flag("--unblocked")) {
        case (true, true): throw .usage("'--blocked' and '--unblocked' cannot be used together")
        case (false, false): return
        case (let blocked, _):
            guard request.filter != .done else {
                throw .usage(
                    "'\(blocked ? "--blocked" : "--unblocked")' and '--done' cannot be used together",
                    hint: "A todo that is done waits for nothing.")
            }
            request.blocked = blocked
        }
    }
}

extension Command {
    /// The todos of `request` in the order a list shows them. In the default order (by
    /// deadline), a todo comes after the todos of the list it waits for (the stable topological
    /// pass of ``TodoRepository/orderedByDependencies(_:links:)`` over the rows fetched, a page
    /// of them with --limit); `nil` when the request's rows may be streamed as SQLite gives them:
    /// another order asked for, or a file without dependencies (one look at an empty table).
    static func dependencyOrdered(_ repository: TodoRepository, _ request: TodoFetchRequest)
        throws(TodoStoreError) -> [Todo]?
    {
        guard request.order == .due, try repository.hasDependencies() else { return nil }
        let links = try repository.dependencyIDsByTodo()
        return TodoRepository.orderedByDependencies(try repository.fetch(request), links: links)
    }

    /// The todos of `request` in the list's order, in memory: ``dependencyOrdered(_:_:)``, else
    /// as fetched.
    static func listed(_ repository: TodoRepository, _ request: TodoFetchRequest) throws(TodoStoreError) -> [Todo] {
        if let ordered = try dependencyOrdered(repository, request) { return ordered }
        return try repository.fetch(request)
    }
}
