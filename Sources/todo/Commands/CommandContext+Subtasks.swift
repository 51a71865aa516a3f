import TodoStore

/// What the commands share about subtasks: `--under`/`--parent` to name a parent, and the one
/// rule of `done` and `rm` on a todo that has subtasks (ask on a terminal, refuse in a pipe,
/// `--with-subtasks` to say yes), so that a parent is never completed or deleted with its
/// subtasks left open or pointing at nothing, as Tasks.org and Reminders never leave them.
extension CommandContext {
    /// `--under ID`: the parent of a todo added or edited.
    static let underOption = CommandSpec.Option(
        name: "--under", value: "id", help: "Make it a subtask of the todo with this id (in that todo's list).")
    /// `--parent ID`: the same as `--under`, the word other apps use.
    static let parentOption = CommandSpec.Option(name: "--parent", value: "id", help: "The same as --under.")
    /// `--with-subtasks`: `done` and `rm` take the subtasks along without asking.
    static func withSubtasksOption(_ what: String) -> CommandSpec.Option {
        .init(name: "--with-subtasks", value: nil, help: "\(what) the todos' subtasks too, without asking.")
    }

    /// The parent `--under` or `--parent` names, if either is given.
    func parentID() throws(CLIError) -> Int64? {
        let given = [arguments.value("--under"), arguments.value("--parent")].compactMap { $0 }
        guard let text = given.first else { return nil }
        if given.count > 1 { throw .usage("'--under' and '--parent' say the same: give one of them") }
        let ids = try Self.ids([text])
        guard ids.count == 1, let id = ids.first else {
            throw .usage(
                "'\(TodoText.sanitized(text))' is not one todo id", hint: "A subtask has one parent: --under 17")
        }
        return id
    }

    /// The subtasks (at every depth) of the todos `ids` that `verb` takes along: the undone ones
    /// when `undoneOnly` (`done`), every one otherwise (`rm`). `[]` when there are none. With
    /// `--with-subtasks` they are taken; on a terminal without `--yes` the person is asked
    /// (`question` words it, given the todos `ids` named as ``named(_:count:)`` names them and the
    /// count of subtasks); otherwise the command is refused before it
    /// changes anything, with the hint of `--with-subtasks`.
    ///
    /// - Returns: `nil` when the person said no (nothing is to change).
    mutating func subtasksTakenAlong(
        of ids: [Int64], verb: String, undoneOnly: Bool, in repository: TodoRepository,
        question: (_ named: String, _ what: String) -> String
    ) throws(CLIError) -> [Int64]? {
        let subtasks = try perform { () throws(TodoStoreError) in
            let subtasks = try repository.todos(ids: try repository.subtaskIDs(of: ids))
            return undoneOnly ? subtasks.filter { !$0.isDone } : subtasks
        }
        // Without subtasks there is nothing to ask: an id that names no todo fails in the
        // command's own transaction, before any change.
        guard !subtasks.isEmpty else { return [] }
        // Read before any question, so that such an id fails first.
        let todos = try perform { () throws(TodoStoreError) in try repository.todos(ids: ids) }
        if arguments.flag("--with-subtasks") { return subtasks.map(\.id) }
        let count = "\(subtasks.count) \(undoneOnly ? "undone " : "")\(subtasks.count == 1 ? "subtask" : "subtasks")"
        guard Terminal.stdinIsTerminal, !arguments.flag("--yes") else {
            let parents = Set(subtasks.compactMap(\.parentID))
            let having = todos.filter { parents.contains($0.id) }
            let named = Self.named(having, count: having.count)
            let typed = TodoText.sanitized(arguments.positionals.joined(separator: " "))
            // A selection by filter has no ids to repeat: the option is named alone.
            let retry =
                typed.isEmpty
                ? "Add --with-subtasks to \(verb == "rm" ? "delete" : "complete") them too"
                : "'todo \(verb) \(typed) --with-subtasks' \(verb == "rm" ? "deletes" : "completes") them too"
            throw .failure(
                "todo \(named) \(having.count == 1 ? "has" : "have") \(count)",
                hint: "Nothing was changed. \(retry); 'todo show ID' lists them.")
        }
        guard Terminal.confirm(question(Self.named(todos, count: todos.count), count), err: &err) else {
            err.write("Nothing was changed.\n")
            return nil
        }
        return subtasks.map(\.id)
    }
}
