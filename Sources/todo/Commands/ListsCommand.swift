import TodoStore
import TodoSync

extension Command {
    /// `todo lists [--json]`, and `todo lists new|rename|color|default|rm ...`: the lists, with
    /// how many todos each holds, and what changes them.
    static let lists = Command(
        spec: CommandSpec(
            name: "lists",
            abstract: "Show the lists, or make, rename, colour and remove one.",
            arguments: [
                .init(
                    name: "action",
                    help: "new NAME [#RRGGBB], rename NAME NEW-NAME, color NAME #RRGGBB|none, default NAME or rm NAME"
                        + " (none: show the lists).",
                    optional: true),
                .init(
                    name: "name", help: "The list (case does not matter), and the new name or colour.", repeats: true,
                    optional: true)
            ],
            options: [
                .init(name: "--move-to", value: "list", help: "For 'rm': move the list's todos to this list."),
                .init(name: "--delete-todos", value: nil, help: "For 'rm': delete the list's todos with it."),
                .init(name: "--yes", value: nil, help: "For 'rm': do not ask for confirmation.", short: "-y"),
                .init(
                    name: "--delete-remote", value: nil,
                    help:
                        "For 'rm' of a list that syncs: delete its collection on the server too, with everything in it."
                ),
                .init(
                    name: "--keep-remote", value: nil,
                    help:
                        "For 'rm' of a list that syncs: leave its collection on the server, no longer synced (as 'todo sync forget')."
                ),
                .init(
                    name: "--json", value: nil, help: "Print a JSON array of {id, name, color, default, undone, done}."),
                .init(name: "--names", value: nil, help: "Print each list's name alone on a line (for scripts).")
            ],
            discussion: """
                Every todo is in one list; new todos go to the default list (marked *) unless 'todo add
                --list NAME' says otherwise. 'todo list --list NAME' shows one list, 'todo list --by list'
                groups by list, and 'todo move ID... --to NAME' moves todos. A list's name is unique
                ignoring case. 'rm' removes an empty list; a list with todos needs --move-to LIST or
                --delete-todos (on a terminal it asks which, and confirms a deletion unless --yes), and
                the default list cannot be removed until another is the default. A list syncs with a
                collection of its own ('todo sync setup URL' of an account links every collection to the
                list of its name, and gives a list made here a collection once it holds a todo); its name
                and colour sync both ways. 'rm' of a list that syncs asks what becomes of its collection
                on the server (--delete-remote, --keep-remote; in a pipe one of them is needed). A list
                whose collection is gone from the server is kept with its todos, not synced, until it is
                removed or linked again. Every change can be undone with 'todo undo' (a collection on a
                server is not).
                """,
            examples: [
                "todo lists", "todo lists new Groceries '#2E7D32'", "todo lists rename Groceries Shopping",
                "todo lists default Shopping", "todo lists rm Shopping --move-to Todos",
                "todo lists rm Work --delete-todos --keep-remote"
            ]
        ),
        run: { (context) throws(CLIError) in
            let positionals = context.arguments.positionals
            guard let action = positionals.first else {
                try ListsRun.show(context: &context)
                return
            }
            let expected = ["new": 2...3, "rename": 3...3, "color": 3...3, "default": 2...2, "rm": 2...2]
            guard let counts = expected[action] else {
                let suggestion = Suggestion.closest(to: action, among: ListsRun.actions)
                throw .usage(
                    "'\(TodoText.sanitized(action))' is not an action of 'todo lists'",
                    hint: suggestion.map { "Did you mean '\($0)'?" } ?? "Use \(Command.wordList(ListsRun.actions)).")
            }
            guard counts.contains(positionals.count) else {
                throw .usage(
                    "'todo lists \(action)' takes \(ListsRun.takes[action] ?? "a list's name")",
                    hint: "For example: todo lists \(ListsRun.example[action] ?? action)")
            }
            if action != "rm", context.arguments.value("--move-to") != nil || context.arguments.flag("--delete-todos") {
                throw .usage("'--move-to' and '--delete-todos' go with 'todo lists rm'")
            }
            if action != "rm", context.arguments.flag("--delete-remote") || context.arguments.flag("--keep-remote") {
                throw .usage("'--delete-remote' and '--keep-remote' go with 'todo lists rm'")
            }
            for flag in ["--json", "--names"] where context.arguments.flag(flag) {
                throw .usage("'\(flag)' goes with 'todo lists' alone")
            }
            try ListsRun.change(action, Array(positionals.dropFirst()), context: &context)
        }
    )

    /// `todo move ID... --to LIST`: moves todos to another list, all or nothing (`todo mv` is
    /// answered with a hint, as other tools' verbs are).
    static let move = Command(
        spec: CommandSpec(
            name: "move",
            abstract: "Move todos to another list.",
            arguments: [.init(name: "id", help: CommandContext.idsHelp, repeats: true, optional: true)],
            options: [
                .init(name: "--to", value: "list", help: "The list to move them to (required)."),
                CommandContext.yesOption(), CommandContext.changedJSONOption("moved")
            ],
            discussion: """
                All or nothing: if any id does not exist, or the list does not, nothing moves. One
                step of 'todo undo'. A todo keeps its id, and its subtasks move with it (a subtask
                moved without its parent is at the top level of its new list). 'todo edit ID --list
                NAME' does the same for one todo.

                \(CommandContext.selectionRules(verb: "move", ownOptionsSelect: false))
                """,
            examples: ["todo move 3 --to Groceries", "todo move 3 5-7 --to Work", "todo --tag work move --to Work"],
            selectsBefore: true
        ),
        run: { (context) throws(CLIError) in
            let selection = try context.selection(ownOptionsSelect: false)
            guard let name = context.arguments.value("--to") else {
                throw .usage("'todo move' needs the list to move to", hint: "For example: todo move 3 --to Groceries")
            }
            let repository = try context.openRepository()
            let doing = { (what: String) in "Move \(what) to \(TodoText.sanitized(name))" }
            guard let ids = try context.selectedIDs(selection, in: repository, doing: doing)?.ids else { return }
            let moved = try context.recordingUndo("move", in: repository) { () throws(CLIError) in
                let list = try context.list(named: name, in: repository)
                return (
                    list,
                    try context.perform { () throws(TodoStoreError) in
                        try repository.moveSubtrees(ids: ids, to: list.id)
                    }
                )
            }
            let lines = moved.1.map { TodoText.summary("→", $0, then: "(\(TodoText.sanitized(moved.0.name)))") }
            try context.writeChanged(ChangedTodos(lines: lines, todos: moved.1), in: repository)
        }
    )
}

/// What `todo lists` does, by action.
enum ListsRun {
    static let actions = ["new", "rename", "color", "default", "rm"]
    static let takes = [
        "new": "a name and, if you like, a colour", "rename": "a list's name and its new name",
        "color": "a list's name and a colour (#RRGGBB or none)"
    ]
    static let example = [
        "new": "new Groceries '#2E7D32'", "rename": "rename Groceries Shopping", "color": "color Groceries '#2E7D32'",
        "default": "default Groceries", "rm": "rm Groceries"
    ]

    /// `todo lists`: each list with its counts, the default marked `*`, its colour, and its
    /// collection when `todo sync` holds it.
    static func show(context: inout CommandContext) throws(CLIError) {
        let repository = try context.openRepository()
        let (lists, counts) = try context.perform { () throws(TodoStoreError) in
            (try repository.lists(), try repository.listCounts())
        }
        if context.arguments.flag("--names") {
            for list in lists { context.out.write(TodoText.sanitized(list.name) + "\n") }
            return
        }
        let synced = try context.perform { () throws(TodoStoreError) in try SyncState.linkedLists(of: repository) }
        if context.arguments.flag("--json") {
            let items = lists.map { list in
                let count = counts[list.id] ?? TodoListCount()
                return "{\"id\": \(list.id), \"name\": \(JSON.string(list.name)), \"color\": "
                    + (list.color.map(JSON.string) ?? "null") + ", \"default\": \(list.isDefault), "
                    + "\"undone\": \(count.undone), \"done\": \(count.done), "
                    + "\"synced\": \(synced[list.id].map { !$0.gone } ?? false), "
                    + "\"gone\": \(synced[list.id]?.gone ?? false)}"
            }
            context.out.write(items.isEmpty ? "[]\n" : "[\n  " + items.joined(separator: ",\n  ") + "\n]\n")
            return
        }
        let names = lists.map { TodoText.sanitized($0.name) }
        let width = names.map(DisplayWidth.of).max() ?? 0
        for (list, name) in zip(lists, names) {
            let count = counts[list.id] ?? TodoListCount()
            var line =
                (list.isDefault ? "* " : "  ") + name + String(repeating: " ", count: width - DisplayWidth.of(name))
            line += "  \(count.undone) undone, \(count.done) done"
            if let color = list.color { line += "  " + color }
            if let link = synced[list.id] {
                line +=
                    link.gone
                    ? "  " + context.style.paint("its collection is gone from the server: not synced", .yellow)
                    : "  " + context.style.paint("synced with " + TodoText.sanitized(link.url), .dim)
            }
            context.out.write(line + "\n")
        }
    }

    /// `todo lists new|rename|color|default|rm`, as one undo step.
    static func change(_ action: String, _ words: [String], context: inout CommandContext) throws(CLIError) {
        let repository = try context.openRepository()
        if action == "rm" {
            try remove(words[0], repository: repository, context: &context)
            return
        }
        let line = try context.recordingUndo("lists \(action)", in: repository) { () throws(CLIError) -> String in
            try context.perform { () throws(TodoStoreError) -> String in
                switch action {
                case "new":
                    let list = try repository.createList(named: words[0], color: words.count > 1 ? words[1] : nil)
                    return "+ list \(TodoText.sanitized(list.name))"
                case "rename":
                    let old = try repository.existingList(named: words[0])
                    let list = try repository.renameList(id: old.id, to: words[1])
                    return "~ list \(TodoText.sanitized(old.name)) → \(TodoText.sanitized(list.name))"
                case "color":
                    let old = try repository.existingList(named: words[0])
                    let none = ["none", "-", ""].contains(words[1].lowercased())
                    let list = try repository.setListColor(id: old.id, to: none ? nil : words[1])
                    return "~ list \(TodoText.sanitized(list.name)): \(list.color ?? "no colour")"
                default:
                    let list = try repository.setDefaultList(id: try repository.existingList(named: words[0]).id)
                    return "* list \(TodoText.sanitized(list.name)) is the default"
                }
            }
        }
        context.out.write(line + "\n")
    }

    /// `todo lists rm NAME [--move-to LIST | --delete-todos] [--yes]`: never guesses what becomes
    /// of the todos; the list `todo sync` holds stays until the sync is forgotten.
    private static func remove(_ name: String, repository: TodoRepository, context: inout CommandContext)
        throws(CLIError)
    {
        let target = context.arguments.value("--move-to")
        let deletes = context.arguments.flag("--delete-todos")
        if target != nil && deletes {
            throw .usage("'--move-to' and '--delete-todos' cannot be used together", hint: "Choose one.")
        }
        let keepsRemote = context.arguments.flag("--keep-remote")
        let deletesRemote = context.arguments.flag("--delete-remote")
        if keepsRemote && deletesRemote {
            throw .usage("'--delete-remote' and '--keep-remote' cannot be used together", hint: "Choose one.")
        }
        let list = try context.list(named: name, in: repository)
        let link = try context.perform({ () throws(TodoStoreError) in try SyncState.linkedLists(of: repository) })[
            list.id]
        // What becomes of the collection on the server is asked, never guessed (a list whose
        // collection is gone has none).
        var deleteCollection: SyncLink?
        if let link, !link.gone, !keepsRemote {
            if deletesRemote {
                deleteCollection = link
            } else if Terminal.stdinIsTerminal {
                let answer = Terminal.ask(
                    "'\(TodoText.sanitized(list.name))' syncs with \(TodoText.sanitized(link.url)):"
                        + " 'delete' that collection on the server with everything in it, or 'keep' it there?"
                        + " (Enter: keep everything)",
                    err: &context.err
                ).lowercased()
                switch answer {
                case "delete": deleteCollection = link
                case "keep": break
                default:
                    context.err.write("Nothing was changed.\n")
                    return
                }
            } else {
                throw .failure(
                    "'\(TodoText.sanitized(list.name))' syncs with \(TodoText.sanitized(link.url)); say what becomes of that collection",
                    hint:
                        "Nothing was changed. --delete-remote deletes it on the server with everything in it; --keep-remote leaves it there, no longer synced (as 'todo sync forget')."
                )
            }
        }
        let ids = try context.perform { () throws(TodoStoreError) in try repository.todoIDs(inList: list.id) }
        var todos = TodoRepository.RemovedListTodos.none
        var destination: TodoList?
        if let target {
            destination = try context.list(named: target, in: repository)
        } else if !deletes, !ids.isEmpty, Terminal.stdinIsTerminal {
            // On a terminal the question is asked, never guessed: another list's name, or delete.
            let count = ids.count == 1 ? "1 todo" : "\(ids.count) todos"
            let answer = Terminal.ask(
                "'\(TodoText.sanitized(list.name))' holds \(count): move them to which list, or 'delete' them?"
                    + " (Enter: keep everything)",
                err: &context.err)
            if answer.isEmpty {
                context.err.write("Nothing was changed.\n")
                return
            }
            if answer == "delete" {
                todos = .delete
            } else {
                destination = try context.list(named: answer, in: repository)
            }
        } else if deletes {
            todos = .delete
            if !ids.isEmpty, Terminal.stdinIsTerminal, !context.arguments.flag("--yes") {
                let count = ids.count == 1 ? "its todo" : "its \(ids.count) todos"
                guard
                    Terminal.confirm(
                        "Delete the list '\(TodoText.sanitized(list.name))' and \(count)?", err: &context.err)
                else {
                    context.err.write("Nothing was deleted.\n")
                    return
                }
            }
        }
        if let destination { todos = .moveTo(destination.id) }
        if let deleteCollection {
            // Deleted on the server only once the list can go here too: what cannot be undone last.
            _ = try context.perform { () throws(TodoStoreError) in
                try repository.checkRemoval(of: list.id, todos: todos)
            }
            let outcome = try SyncRun.deleteCollection(deleteCollection, repository: repository, context: &context)
            context.out.write(
                "\(outcome == .deleted ? "Deleted" : "Nothing was left of") \(TodoText.sanitized(deleteCollection.url)) on the server.\n"
            )
        }
        let changed = try context.recordingUndo("lists rm", in: repository) { () throws(CLIError) in
            try context.perform { () throws(TodoStoreError) in
                let removed = try repository.removeList(id: list.id, todos: todos)
                // Its link goes with it (undo brings the list back unlinked); a collection kept
                // on the server is left alone by later syncs.
                if link != nil { _ = try SyncState(repository: repository).forgetLink(list: list.id) }
                return removed
            }
        }
        for todo in changed {
            context.out.write(
                destination.map { TodoText.summary("→", todo, then: "(" + TodoText.sanitized($0.name) + ")") }
                    ?? TodoText.summary("-", todo))
        }
        context.out.write("- list \(TodoText.sanitized(list.name))\n")
    }
}

extension CommandContext {
    /// `--list`: on `add` and `import` where the todos go, on the views which lists they show.
    static let listOption = CommandSpec.Option(
        name: "--list", value: "list",
        help: "Only the todos of this list (case does not matter); given again, any of them.", short: "-l")

    /// The list named `name`, or an error that lists the lists (and, for a name that is no list
    /// but could be a search, says so).
    func list(named name: String, in repository: TodoRepository) throws(CLIError) -> TodoList {
        let lists = try perform { () throws(TodoStoreError) in try repository.lists() }
        if let list = lists.first(where: { TodoList.isSameName($0.name, name) }) { return list }
        let names = lists.map { "'" + TodoText.sanitized($0.name) + "'" }.joined(separator: ", ")
        throw .failure(
            "no list named '\(TodoText.sanitized(name))'",
            hint: "The lists: \(names). 'todo lists new \(TodoText.sanitized(name))' makes it.")
    }

    /// The ids of the lists `--list` names (none: every list).
    func listIDs(in repository: TodoRepository) throws(CLIError) -> [Int64] {
        var ids: [Int64] = []
        for name in arguments.allValues("--list") {
            let id = try list(named: name, in: repository).id
            if !ids.contains(id) { ids.append(id) }
        }
        return ids
    }
}
