import TodoStore

/// Verbs on many todos at once (issue 37): which todos a verb acts on, by ids, by the filters
/// `todo list` takes, or both, and the one question (or refusal) when a filter selects many.
///
/// The one spelling on every verb is taskwarrior's: the filter before the verb selects
/// (`todo --tag errands --overdue done`, `todo --tag errands edit --priority high`), and the
/// selection is exactly what `todo list` with those options shows (done todos too, those not
/// started yet only with `--all`). After the verb, the options of `done`, `undone` and `rm`
/// select too (`todo done --tag errands`), and those of the other verbs change
/// (`todo edit 3 --tag errands` adds the tag).
extension CommandContext {
    /// The options that select todos: every filter of `todo list` (``filterOptions``, `--search`
    /// and `--all`). Bare `todo` takes them, so a verb after them acts on what they choose.
    static let selectionOptions: [CommandSpec.Option] = filterOptions + [searchOption, allOption]

    /// `--yes` of the verbs that select: no question, whatever the number of todos.
    static func yesOption(_ what: String = "") -> CommandSpec.Option {
        .init(
            name: "--yes", value: nil,
            help:
                "Do not ask\(what), even when a filter selects more than \(Configuration.defaultBulk) todos (the bulk setting).",
            short: "-y")
    }

    /// `--json` of the verbs that change todos: the changed todos as `todo list --json` prints them.
    static func changedJSONOption(_ what: String) -> CommandSpec.Option {
        .init(
            name: "--json", value: nil,
            help: "Print a JSON array of the todos \(what), as 'todo list --json' prints todos (with their uid).")
    }

    /// How a verb takes a selection: the paragraph of its help (and of docs/everyday-use.md).
    static func selectionRules(verb: String, ownOptionsSelect: Bool) -> String {
        let after =
            ownOptionsSelect
            ? "After the verb they select too (todo \(verb) --tag errands); with ids, the ids that match."
            : "After the verb the options change the todos, as for one id; with ids, the ids that match."
        return """
            Many todos at once: the options of 'todo list' typed before the verb select the todos, as
            in taskwarrior (todo --tag errands --overdue \(verb)): exactly those 'todo list' with the same
            options shows, done ones too (--undone leaves them out), not started ones only with --all.
            \(after)
            All or nothing, in one transaction: one 'todo undo' reverts them all. A filter that
            selects more than \(Configuration.defaultBulk) todos (the bulk setting, 'todo help config') shows how many and
            asks on a terminal; in a pipe it is refused without --yes. A filter that selects
            nothing prints 'No todos.' and changes nothing.
            """
    }

    /// Which todos a verb acts on, as typed: parsed before the database is opened, so a usage
    /// error never touches it.
    struct Selection {
        /// The ids and ranges typed after the verb.
        var parts: [IDPart]
        /// The context whose arguments are the filter's, when any option selects (nil: ids alone).
        var filter: CommandContext?
        /// `todo list`'s request for the filter, the lists aside (named in the file).
        var request: TodoFetchRequest
    }

    /// The selection of the verb being run: its ids, and the filter of the options before it
    /// (and, with `ownOptionsSelect`, of its own after it).
    ///
    /// - Throws: a usage error for bad ids or filter values, or when neither is given.
    func selection(ownOptionsSelect: Bool) throws(CLIError) -> Selection {
        let parts = try idParts()
        let filterArguments = arguments.selection(includingOwn: ownOptionsSelect)
        let filtered = Self.selectionOptions.contains { option in
            filterArguments.flag(option.name) || !filterArguments.allValues(option.name).isEmpty
        }
        guard filtered else {
            guard !parts.isEmpty else {
                let verb = arguments.commandName ?? "done"
                throw .usage(
                    "missing argument <id>",
                    hint: "Give ids (todo \(verb) 3 5-7) or select by filter (todo --tag errands \(verb)).")
            }
            return Selection(parts: parts, filter: nil, request: TodoFetchRequest())
        }
        let filter = selecting(filterArguments)
        return Selection(parts: parts, filter: filter, request: try filter.listedRequest())
    }

    /// This context with `arguments` in place of its own: the filter's, read by `list`'s own
    /// functions (``applyFilters(to:)``, ``listIDs(in:)``).
    func selecting(_ arguments: ParsedArguments) -> CommandContext {
        var context = CommandContext(
            arguments: arguments, out: out, err: err, databaseOption: databaseOption, style: style, today: today)
        context.bulk = bulk
        context.undoDepth = undoDepth
        return context
    }

    /// The filter as typed again, in `todo list`'s option order: `--overdue --tag errands`.
    static func words(of filter: ParsedArguments) -> String {
        var words: [String] = []
        for option in selectionOptions {
            if filter.flag(option.name) { words.append(option.name) }
            for value in filter.allValues(option.name) {
                words += [option.name, Suggestion.quotedIfNeeded(value)]
            }
        }
        return TodoText.sanitized(words.joined(separator: " "))
    }

    /// The ids `selection` names, in order: the ids typed (ranges as the todos in them), those
    /// of them the filter selects when both are given, or every todo the filter selects, in
    /// `todo list`'s order.
    ///
    /// When a filter chooses more than ``bulk`` todos (0: no limit) and `--yes` is not given,
    /// on a terminal the person is shown how many and the first few and asked (`doing` words
    /// the question, given what: "Mark the 12 todos done"); otherwise the command is refused,
    /// before any change.
    ///
    /// - Returns: the ids, and whether the person was asked (and said yes); nil when nothing is
    ///   to change: a filter that selects nothing ("No todos." on stderr, exit 0, as `todo
    ///   list`), or the person said no.
    /// - Throws: ``TodoStoreError/notFound(ids:)`` for an id typed that names no todo.
    ///
    /// Read before the verb's own transaction (a question cannot hold the write lock): a todo
    /// deleted in between by another program is then missing there, and nothing changes, as
    /// for an id typed.
    mutating func selectedIDs(
        _ selection: Selection, in repository: TodoRepository, doing: (_ what: String) -> String
    ) throws(CLIError) -> (ids: [Int64], asked: Bool)? {
        var ids = try existingIDs(selection.parts, in: repository)
        guard let filter = selection.filter else { return (ids, false) }
        var request = selection.request
        request.lists = try filter.listIDs(in: repository)
        var selected: [Int64] = []
        var first: [Todo] = []
        try perform { () throws(TodoStoreError) in
            try repository.forEach(request) { todo in
                selected.append(todo.id)
                if first.count < Self.shownInQuestion { first.append(todo) }
            }
        }
        if !ids.isEmpty {
            // Every id typed exists (all or nothing), and those the filter selects are changed.
            _ = try perform { () throws(TodoStoreError) in try repository.todos(ids: ids) }
            let matching = Set(selected)
            ids = ids.filter(matching.contains)
            first = first.filter { ids.contains($0.id) }
        } else {
            ids = selected
        }
        guard !ids.isEmpty else {
            err.write("No todos.\n")
            err.flush()
            return nil
        }
        guard bulk > 0, ids.count > bulk, !arguments.flag("--yes") else { return (ids, false) }
        let words = Self.words(of: filter.arguments)
        let what = doing("the \(ids.count) todos")
        guard Terminal.stdinIsTerminal else {
            throw .failure(
                "the filter selects \(ids.count) todos, more than \(bulk) to change without --yes",
                hint:
                    "Nothing was changed. Add --yes to \(what.prefix(1).lowercased() + what.dropFirst()); 'todo list \(words)' shows them."
            )
        }
        if first.count < min(ids.count, Self.shownInQuestion) {
            first = try perform { () throws(TodoStoreError) in
                try repository.todos(ids: Array(ids.prefix(Self.shownInQuestion)))
            }
        }
        err.write("The filter selects \(ids.count) todos ('todo list \(words)' shows them):\n")
        for todo in first.prefix(Self.shownInQuestion) {
            err.write("  \(todo.id)  \(TodoText.sanitized(todo.name))\n")
        }
        if ids.count > Self.shownInQuestion { err.write("  and \(ids.count - Self.shownInQuestion) more\n") }
        guard Terminal.confirm("\(what)?", err: &err) else {
            err.write("Nothing was changed.\n")
            return nil
        }
        return (ids, true)
    }

    /// How many selected todos the question names.
    static let shownInQuestion = 5

    /// The first three of `count` todos by id and name, and how many more: `3 "Buy milk", 4
    /// "Pay rent", 9 "Call Ann" and 7 more` (`todos` may hold only the first ones).
    static func named(_ todos: [Todo], count: Int) -> String {
        var text = todos.prefix(3).map { "\($0.id) \"\(TodoText.sanitized($0.name))\"" }.joined(separator: ", ")
        if count > 3 { text += " and \(count - 3) more" }
        return text
    }
}

/// What a verb changed: the lines it prints, and the todos it changed as they are now (the
/// removed ones as they were), which `--json` prints instead.
struct ChangedTodos {
    var lines: [String]
    var todos: [Todo]
}

extension CommandContext {
    /// Prints what a verb changed: with `--json` the todos changed, as `todo list --json` prints
    /// todos (`objects`, when given, read before the change: `rm`'s), else its lines.
    func writeChanged(
        _ changed: ChangedTodos, in repository: TodoRepository, objects: TodoJSON? = nil
    ) throws(CLIError) {
        guard arguments.flag("--json") else {
            for line in changed.lines { out.write(line) }
            return
        }
        let json = try perform { () throws(TodoStoreError) in
            if let objects { return try objects.array(changed.todos) }
            return try TodoJSON(repository).array(changed.todos)
        }
        out.write(json)
    }
}
