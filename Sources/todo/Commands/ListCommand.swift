import TodoObservation
import TodoSnapshot
import TodoStore
import TodoSync

extension Command {
    /// `todo list [--sort due|name|status|priority] [--done|--undone] [--all|--waiting] [--limit N] [--offset N]
    /// [--json]`.
    static let list = Command(
        spec: CommandSpec(
            name: "list",
            abstract: "List todos.",
            options: [
                .init(
                    name: "--outline", value: nil,
                    help:
                        "Group the todos under \"Undone\" and \"Done\" (both always shown), or as --by says; subtasks are indented under their parent in its group."
                ),
                CommandContext.groupingOption,
                .init(
                    name: "--sort", value: "order",
                    help:
                        "due (deadline, undated last, a todo after the todos it waits for; the default), name, or status (undone first)."
                )
            ] + CommandContext.filterOptions + [
                CommandContext.allOption,
                CommandContext.searchOption,
                .init(name: "--limit", value: "n", help: "Show at most n todos."),
                .init(name: "--offset", value: "n", help: "Skip the first n todos."),
                .init(name: "--json", value: nil, help: "Print a JSON array of todo objects.")
            ],
            examples: [
                "todo list", "todo list --sort name --undone", "todo list --overdue", "todo list --due-before +7d",
                "todo list --waiting", "todo list --blocked", "todo list --unblocked",
                "todo list --search milk --limit 10", "todo list --search @town --search +shop",
                "todo list --outline --sort status", "todo list --outline --by tag", "todo list --json"
            ]
        ),
        run: { (context) throws(CLIError) in
            var request = try context.listedRequest()
            let repository = try context.openRepository()
            request.lists = try context.listIDs(in: repository)
            let grouping = try context.outlineGrouping(in: repository)
            try context.noteTagsNoTodoHas(request, in: repository)
            try context.perform { () throws(TodoStoreError) in
                switch (grouping, context.arguments.flag("--json")) {
                case (let grouping?, true): try writeOutlineJSON(repository, request, grouping, &context.out)
                case (let grouping?, false): try writeOutlineText(repository, request, grouping, context, &context.out)
                case (nil, true): try writeJSON(repository, request, &context.out)
                case (nil, false): try writeText(repository, request, context, &context.out)
                }
            }
        }
    )

    /// Bare `todo`: the undone todos that have started, and on a terminal a line counting the
    /// done ones and one counting those not started yet, as todo.txt-cli's `ls` and
    /// taskwarrior's `task list` show open tasks, so that hundreds of imported done todos do not
    /// fill the view. On a terminal of known height the rows stop where the screen would scroll
    /// (the count lines and the prompt after them kept in view), and a last row says how many
    /// more there are and the command that lists them all: `… and 2,340 more: todo list
    /// --undone`. In a pipe the count lines are left out and every row is printed, so the output
    /// is `todo list --undone`'s. Not in ``TodoCLI/commands``: it has no name to type.
    static let undoneOverview: Command = Command(
        spec: CommandSpec(
            name: "",
            abstract:
                "With no command, todo lists the undone todos that have started and, on a terminal, counts the"
                + " done ones and those not started yet ('todo list' shows the done ones too, 'todo list --waiting'"
                + " the others); --today and --week narrow it as in 'todo list', and so does every other filter of 'todo list'"
                + " (todo --tag errands --overdue); --all adds those not started,"
                + " --status shows the todos in that state instead (todo --status in-process), --done the done ones."
                + " On a terminal it shows the rows that fit its height and says how many more there are (a pipe gets every row)."
                + " A verb after the filter acts on the todos 'todo list' with it shows (todo --tag errands done).",
            options: CommandContext.selectionOptions),
        run: { (context) throws(CLIError) in
            // --status names the states to show instead of the undone ones (`todo --status in-process`).
            let statuses = try context.statuses()
            var request = TodoFetchRequest(filter: statuses.isEmpty ? .undone : .all)
            try context.applyFilters(to: &request)
            context.hideNotStarted(&request)
            let repository = try context.openRepository()
            request.lists = try context.listIDs(in: repository)
            let notes = try context.noteTagsNoTodoHas(request, in: repository)
            try context.perform { () throws(TodoStoreError) in
                guard context.out.isTerminal else {
                    try writeText(repository, request, context, &context.out)
                    return
                }
                var countLines: [String] = []
                if statuses.isEmpty, request.filter == .undone {
                    let done = try repository.count(.done)
                    let waiting = try request.startedBy.map { (today) throws(TodoStoreError) in
                        try repository.count(TodoFetchRequest.waiting(after: today))
                    }
                    for (count, kind, option) in [(done, "done", "--done"), (waiting ?? 0, "waiting", "--waiting")]
                    where count > 0 {
                        countLines.append(
                            "\(count) \(kind) \(count == 1 ? "todo" : "todos") hidden: todo list \(option)")
                    }
                }
                // The rows that fit: the terminal's height less the notes above the rows, the
                // count lines and the line the shell's prompt takes after them; less again the
                // "more" line's rows.
                let total = try Terminal.height().map { (height) throws(TodoStoreError) in
                    (height: height - notes - countLines.count - 1, todos: try repository.count(request))
                }
                if let total, total.todos > total.height {
                    func line(_ more: Int) -> String {
                        TodoText.sanitized(
                            "… and \(Command.counted(more)) more: \(context.overviewListCommand(for: request))")
                    }
                    let room = max(total.height - Command.terminalRows(of: line(total.todos)), 1)
                    let written = try writeText(repository, request, context, &context.out, maxRows: room)
                    context.out.write(context.style.paint(line(total.todos - written), .dim) + "\n")
                } else {
                    try writeText(repository, request, context, &context.out)
                }
                for line in countLines { context.out.write(context.style.paint(line, .dim) + "\n") }
            }
        }
    )

    /// The rows `line` takes on the terminal: more than one when it is wider than the terminal
    /// and wraps (a "more" line naming a long command on a narrow terminal).
    static func terminalRows(of line: String) -> Int {
        guard let width = Terminal.lineWidth(), width > 0 else { return 1 }
        return max(1, (DisplayWidth.of(line) + width - 1) / width)
    }

    /// `2,340`: a count as the "more" lines write it, its digits in groups of three.
    static func counted(_ count: Int) -> String {
        var digits = String(count.magnitude)
        var groups: [Substring] = []
        while digits.count > 3 {
            groups.insert(digits.suffix(3), at: 0)
            digits.removeLast(3)
        }
        groups.insert(Substring(digits), at: 0)
        return (count < 0 ? "-" : "") + groups.joined(separator: ",")
    }

    /// Writes the todos as a JSON array, each todo as ``TodoJSON`` writes it (with its uid
    /// when it has one): `todo list --json` and `todo export`.
    /// (`uids`, when given, reads them: `todo export` passes its own.)
    static func writeJSON(
        _ repository: TodoRepository, _ request: TodoFetchRequest, _ out: inout OutputStream, uids: TodoUIDs? = nil
    ) throws(TodoStoreError) {
        let objects = try TodoJSON(repository, uids: uids)
        var first = true
        // forEach's body cannot throw: a failed UID read is kept and thrown after the loop.
        var failure: TodoStoreError?
        out.write("[")
        func write(_ todo: Todo) {
            guard failure == nil else { return }
            let object: String
            do throws(TodoStoreError) {
                object = try objects.object(todo)
            } catch {
                failure = error
                return
            }
            out.write(first ? "\n  " : ",\n  ")
            out.write(object)
            first = false
        }
        if let ordered = try dependencyOrdered(repository, request) {
            for todo in ordered { write(todo) }
        } else {
            try repository.forEach(request) { write($0) }
        }
        if let failure { throw failure }
        out.write(first ? "]\n" : "\n]\n")
    }

    /// Writes the rows of `request` as `todo list` does; with `maxRows`, at most that many rows
    /// (a chosen subtask's dimmed parents count as rows), the first ones of the whole list.
    /// Returns the number of todos the request selects that were written: context rows aside.
    @discardableResult
    private static func writeText(
        _ repository: TodoRepository, _ request: TodoFetchRequest,
        _ context: CommandContext, _ out: inout OutputStream, maxRows: Int? = nil
    ) throws(TodoStoreError) -> Int {
        var text = try context.text(for: request, in: repository)
        var rows = 0
        var chosen = 0
        let room = maxRows ?? Int.max
        // Counts a row, and writes it while there is room.
        func write(_ todo: Todo, depth: Int = 0, isContext: Bool = false) {
            guard rows < room else { return }
            text.writeRow(todo, depth: depth, isContext: isContext, to: &out)
            rows += 1
            if !isContext { chosen += 1 }
        }
        // A file with dependencies: blocked rows say what they wait for, and in the default
        // order come after it (a list fetched whole); a file without streams its rows.
        let ordered = try dependencyOrdered(repository, request)
        if try repository.hasDependencies() { text.blockers = try repository.blockers() }
        if try repository.hasSubtasks() {
            // Subtasks under their parents; on a terminal a chosen subtask's unchosen parents are
            // shown above it, dimmed. A pipe gets the chosen todos only (`| wc -l` counts them).
            // Context rows may have larger ids than the todos chosen: the id column fits them all.
            if out.isTerminal { text = text.fitting(maxID: try repository.maxID()) }
            if let ordered {
                // Reordered by its dependencies, the list is held already: its tree is built from it.
                for row in try repository.outline(of: ordered, withContext: out.isTerminal).rows {
                    write(row.todo, depth: row.depth, isContext: row.isContext)
                }
            } else {
                try repository.forEachInOutline(request, withContext: out.isTerminal) { row in
                    write(row.todo, depth: row.depth, isContext: row.isContext)
                }
            }
        } else if let ordered {
            for todo in ordered { write(todo) }
        } else {
            // In SQL's order, row by row: the first rows are the first todos, so a limit reads no more.
            var request = request
            if let maxRows { request.limit = min(request.limit ?? maxRows, maxRows) }
            try repository.forEach(request) { write($0) }
        }
        // On stderr: it is a message to a person, not a row, so `todo list | wc -l` counts 0.
        // Flushed at once so that on a terminal it comes before what follows on stdout.
        if rows == 0 {
            context.err.write("No todos.\n")
            context.err.flush()
        }
        return chosen
    }
}

extension Command {
    /// The outline: each group in order (the grouping's partition, as the snapshot builder
    /// makes it for `todo watch` and `todo ui`), each with its todos in the list's order
    /// (``dependencyOrdered(_:_:)``; a todo under each of its groups when `grouping` allows
    /// several), each subtask under its parent when that parent is in the same group, else at
    /// the group's top level (the tree rule, ``TodoOutline``, applied to the group's todos),
    /// depth first. Without the builder's snapshots, which a list printed once does not need:
    /// they took two thirds of `todo list --outline`'s time.
    private static func outline(
        _ repository: TodoRepository, _ request: TodoFetchRequest, _ grouping: TodoGrouping<Todo>
    ) throws(TodoStoreError) -> [OutlineGroup] {
        let todos = try listed(repository, request)
        return grouping.partition(todos) { _, offset in offset }.map { group, members in
            guard let tree = TodoOutline.arranged(count: members.count, { todos[members[$0]] }) else {
                return OutlineGroup(group: group, rows: members.map { (todos[$0], 0) })
            }
            // Depth first: a todo's parent comes before it.
            var depths = [Int](repeating: 0, count: members.count)
            return OutlineGroup(
                group: group,
                rows: tree.map { entry in
                    let depth = entry.parent.map { depths[$0] + 1 } ?? 0
                    depths[entry.offset] = depth
                    return (todos[members[entry.offset]], depth)
                })
        }
    }

    private static func writeOutlineJSON(
        _ repository: TodoRepository, _ request: TodoFetchRequest, _ grouping: TodoGrouping<Todo>,
        _ out: inout OutputStream
    ) throws(TodoStoreError) {
        let groups = try outline(repository, request, grouping)
        let lists = try JSON.listNames(repository)
        let uids = try TodoJSON.uids(repository)
        var written: [String] = []
        for group in groups {
            // Depth first, each with its depth in the group's tree (and its parent, as every object).
            var items: [String] = []
            for row in group.rows {
                let uid = try uids?.uid(ofTodo: row.todo.id)
                items.append("    " + JSON.object(row.todo, uid: uid, lists: lists, depth: row.depth))
            }
            let list = items.isEmpty ? "[]" : "[\n" + items.joined(separator: ",\n") + "\n  ]"
            written.append("  {\"title\": \(JSON.string(group.group.title)), \"items\": \(list)}")
        }
        out.write(written.isEmpty ? "[]\n" : "[\n" + written.joined(separator: ",\n") + "\n]\n")
    }

    private static func writeOutlineText(
        _ repository: TodoRepository, _ request: TodoFetchRequest, _ grouping: TodoGrouping<Todo>,
        _ context: CommandContext, _ out: inout OutputStream
    ) throws(TodoStoreError) {
        let groups = try outline(repository, request, grouping)
        let text = try context.text(for: request, in: repository, byList: context.groupsByList)
        writeOutline(groups, text, to: &out)
        if groups.isEmpty { context.err.write("No todos.\n") }
    }

    /// The outline as a tree: each group's title and count, then its todos, subtasks indented
    /// under their parents (`todo list --outline`).
    static func writeOutline(_ groups: [OutlineGroup], _ text: TodoText, to out: inout OutputStream) {
        for group in groups { writeOutlineGroup(group.group, group.rows, text, to: &out) }
    }

    /// One group of the outline: its title and count, then its todos depth first, subtasks
    /// indented under their parents (`todo list --outline`, and `todo watch --outline` before it
    /// watches).
    static func writeOutlineGroup(
        _ group: TodoGroup, _ rows: [(todo: Todo, depth: Int)], _ text: TodoText, to out: inout OutputStream
    ) {
        out.write(text.style.paint("\(TodoText.sanitized(group.title)) (\(rows.count))", .bold) + "\n")
        for (offset, row) in rows.enumerated() {
            text.writeTreeRow(row.todo, depth: row.depth, isLast: offset == rows.count - 1, to: &out)
        }
    }
}

/// A group of the outline `todo list --outline` prints: its todos depth first, each with its
/// depth in the group's tree.
struct OutlineGroup {
    var group: TodoGroup
    var rows: [(todo: Todo, depth: Int)]
}

extension CommandContext {
    /// A row renderer for the todos `request` selects. The id column is as wide as the widest
    /// id listed, not the widest in the file: a filtered list of small ids leaves those columns
    /// to the name. The time column is there when a todo listed has a time of day.
    ///
    /// Rows name their list where the database has several, the request is not of one, and
    /// (`byList`) the rows printed are not grouped by list: the group says it. (The ui's rows
    /// name theirs whatever the grouping: a key switches it.)
    func text(for request: TodoFetchRequest, in repository: TodoRepository, byList: Bool = false)
        throws(TodoStoreError) -> TodoText
    {
        var text = text(maxID: try repository.maxID(request), showsTimes: try repository.hasDueTimes(request))
        if request.lists.count != 1, !byList {
            let lists = try repository.lists()
            if lists.count > 1 { text.listNames = Dictionary(lists.map { ($0.id, $0.name) }) { first, _ in first } }
        }
        return text
    }

    /// Whether the outline is grouped by list (`--by list`).
    var groupsByList: Bool { arguments.value("--by") == "list" }

    /// `--by`, for the commands that show the outline (`list` and `watch`).
    static let groupingOption = CommandSpec.Option(
        name: "--by", value: "group",
        help: "With --outline (which it implies): group by done (the default), priority, tag, due or list.")

    /// The words `--by` takes.
    static let groupingWords = ["done", "priority", "tag", "project", "due", "list"]

    /// The outline's grouping that `--outline` and `--by` ask for; `nil` for a flat list. The
    /// lists for `--by list` are read from `repository`.
    func outlineGrouping(in repository: TodoRepository) throws(CLIError) -> TodoGrouping<Todo>? {
        guard let word = arguments.value("--by") else { return arguments.flag("--outline") ? .byDoneState : nil }
        switch word {
        case "list": return .byList(try perform { () throws(TodoStoreError) in try repository.lists() })
        case "done": return .byDoneState
        case "priority": return .byPriority
        case "tag": return .byTag
        case "project": return .byProject
        case "due":
            guard let endOfWeek = today.adding(days: DueDateParser.daysToEndOfWeek(from: today)) else {
                return .byDeadline(today: today, endOfWeek: today)
            }
            return .byDeadline(today: today, endOfWeek: endOfWeek)
        default:
            throw .usage(
                "'\(TodoText.sanitized(word))' is not a grouping", hint: "Use \(Command.wordList(Self.groupingWords)).")
        }
    }

    /// The options that choose todos by state and deadline: `list`, `watch`, `export` and `ui` take them
    /// (and ``searchOption``, or `ui`'s own `--search`).
    static let filterOptions: [CommandSpec.Option] =
        [
            .init(name: "--done", value: nil, help: "Only todos that are done."),
            .init(name: "--undone", value: nil, help: "Only todos that are not done."),
            .init(
                name: "--waiting", value: nil,
                help: "Only todos not done whose start date is after today: those not started yet."),
            .init(name: "--overdue", value: nil, help: "Only todos not done whose deadline has passed.")
        ] + blockedOptions + dueSoonOptions + [
            .init(
                name: "--due-before", value: "date",
                help: "Only todos due before the day (any --due date or a day back, without a time: +7d, friday, -7d)."),
            .init(name: "--due-after", value: "date", help: "Only todos due after the date."),
            .init(
                name: "--tag", value: "tag",
                help:
                    "Only todos with the tag (+work, @phone, work, \"Home Improvement\"; case does not matter); given again, every tag."
                    + " A tag to leave out is --no-tag's: --tag -someday is refused."
            ),
            .init(
                name: "--any-tag", value: "tag",
                help: "Only todos with at least one of the tags given with --any-tag (as --tag names them)."),
            .init(
                name: "--no-tag", value: "tag",
                help: "Leave out the todos with the tag; given again, those with any of them (none of the tags)."),
            .init(
                name: "--completed-after", value: "date",
                help:
                    "Only todos completed after the day, on the local calendar (any --due date, without a time: yesterday, -7d, last sunday)."
            ),
            .init(
                name: "--completed-before", value: "date", help: "Only todos completed before the day (local calendar)."
            ),
            .init(
                name: "--created-after", value: "date",
                help: "Only todos created after the day (local calendar; any --due date, without a time)."),
            .init(name: "--created-before", value: "date", help: "Only todos created before the day (local calendar)."),
            .init(
                name: "--priority", value: "priority",
                help:
                    "Only todos of the priority: high (1-4), medium (5), low (6-9), none, or 1-9; given again, any of them."
            ),
            .init(
                name: "--project", value: "project",
                help:
                    "Only todos of the project or inside it (Work takes Work.ClientA; case does not matter); given again, any of them."
            ),
            listOption,
            statusOption
        ]

    /// `--status`, in ``filterOptions`` and bare `todo`'s options.
    static let statusOption = CommandSpec.Option(
        name: "--status", value: "status",
        help:
            "Only todos in the state: needs-action, in-process (or started), completed (or done), cancelled; given again, any of them."
    )

    /// The states `--status` names (none: any).
    func statuses() throws(CLIError) -> [TodoStatus] {
        try arguments.allValues("--status").map { (text) throws(CLIError) in
            guard let status = TodoStatus(word: text) else {
                throw .usage(
                    "'\(TodoText.sanitized(text))' is not a status",
                    hint: "Use \(Command.wordList(TodoStatus.allCases.map(\.rawValue))).")
            }
            return status
        }
    }

    /// `--all`, for the views that leave out the todos not started yet (`list`, `watch`, `ui`, bare `todo`).
    static let allOption = CommandSpec.Option(
        name: "--all", value: nil, help: "Include the todos not started yet (a start date after today).")

    /// Leaves out of `request` the todos that have not started yet (their start date is after
    /// today), as phone apps hide a task until its start, unless `--all` asks for them or
    /// `--waiting` for them alone. Not `export`'s: an export keeps every todo.
    func hideNotStarted(_ request: inout TodoFetchRequest) {
        guard !arguments.flag("--all"), request.startsAfter == nil else { return }
        request.startedBy = today
    }

    /// The `todo list` command that lists every todo bare `todo` chose with `request`: bare
    /// `todo`'s options as given, and `--undone` where `request` has only undone todos and that
    /// option was not given (bare `todo`'s default, which `todo list` does not share); what its
    /// "more" line names.
    func overviewListCommand(for request: TodoFetchRequest) -> String {
        commandLine(
            ["list"] + (request.filter == .undone && !arguments.flag("--undone") ? ["--undone"] : []),
            options: Command.undoneOverview.spec.options)
    }

    /// `todo` (and `--db` when given), `words`, each of `options` given on this command line
    /// but those in `leaving` with its values as given, then `last`: each a shell word, for a
    /// line that names a command to type. The caller sanitizes it with the rest of its line.
    func commandLine(
        _ words: [String], options: [CommandSpec.Option], leaving: Set<String> = [], last: [String] = []
    ) -> String {
        var words = ["todo"] + (databaseOption.map { ["--db", $0] } ?? []) + words
        for option in options where !leaving.contains(option.name) {
            if option.value == nil {
                if arguments.flag(option.name) { words.append(option.name) }
            } else {
                for value in arguments.allValues(option.name) { words += [option.name, value] }
            }
        }
        return (words + last).map(SyncRun.shellWord).joined(separator: " ")
    }

    /// The options for today's and this week's work: in ``filterOptions``, and bare `todo` takes them.
    static let dueSoonOptions: [CommandSpec.Option] = [
        .init(name: "--today", value: nil, help: "Only todos not done that are due today or overdue."),
        .init(
            name: "--week", value: nil,
            help: "Only todos not done that are due by Sunday (weeks run Monday to Sunday), overdue included.")
    ]

    /// Applies ``dueSoonOptions`` to `request`: each keeps the undone todos due by its last day.
    func applyDueSoonFilters(to request: inout TodoFetchRequest) throws(CLIError) {
        let lastDays = [
            ("--today", today), ("--week", today.adding(days: DueDateParser.daysToEndOfWeek(from: today)))
        ]
        for (flag, lastDay) in lastDays where arguments.flag(flag) {
            guard request.filter != .done else {
                throw .usage("'\(flag)' and '--done' cannot be used together", hint: "It shows todos not done.")
            }
            request.filter = .undone
            // dueBefore is strict: the day after the last one. None past 9999-12-31: no bound.
            if let bound = lastDay?.adding(days: 1) { request.dueBefore = min(request.dueBefore ?? bound, bound) }
        }
    }

    /// `--search`, for the commands that list todos (`todo ui` has its own, with its own help).
    static let searchOption = CommandSpec.Option(
        name: "--search", value: "text",
        help:
            "Only todos whose name, tags or note contain the text, ignoring case; given again, every text must match.")

    /// Applies ``filterOptions`` and `--search`, when the command takes it, to `request`.
    func applyFilters(to request: inout TodoFetchRequest) throws(CLIError) {
        switch (arguments.flag("--done"), arguments.flag("--undone")) {
        case (true, true): throw .usage("'--done' and '--undone' cannot be used together")
        case (true, false): request.filter = .done
        case (false, true): request.filter = .undone
        case (false, false): break
        }
        if let text = arguments.value("--due-before") {
            request.dueBefore = try DueDateParser.parse(text, today: today, option: "--due-before", past: true)
        }
        if let text = arguments.value("--due-after") {
            request.dueAfter = try DueDateParser.parse(text, today: today, option: "--due-after", past: true)
        }
        if arguments.flag("--overdue") {
            guard request.filter != .done else {
                throw .usage(
                    "'--overdue' and '--done' cannot be used together", hint: "Overdue todos are the ones not done.")
            }
            request.filter = .undone
            request.dueBefore = min(request.dueBefore ?? today, today)
        }
        try applyDueSoonFilters(to: &request)
        try applyBlockedFilters(to: &request)
        if arguments.flag("--waiting") {
            guard request.filter != .done else {
                throw .usage(
                    "'--waiting' and '--done' cannot be used together", hint: "Todos waiting to start are not done.")
            }
            request.startsAfter = today
        }
        // Every term must match: each one narrows the list, as more words narrow a web search.
        let searches = arguments.allValues("--search")
        guard !searches.contains(where: \.isEmpty) else { throw .usage("'--search' needs some text") }
        request.searches = searches
        request.tags = try filterTags("--tag")
        request.anyTags = try filterTags("--any-tag")
        request.excludedTags = try filterTags("--no-tag")
        let days: [(String, WritableKeyPath<TodoFetchRequest, CalendarDate?>)] = [
            ("--completed-after", \.completedAfter), ("--completed-before", \.completedBefore),
            ("--created-after", \.createdAfter), ("--created-before", \.createdBefore)
        ]
        for (option, bound) in days {
            guard let text = arguments.value(option) else { continue }
            request[keyPath: bound] = try DueDateParser.parse(text, today: today, option: option, past: true)
        }
        if request.filter == .undone || request.blocked != nil || request.startsAfter != nil,
            let option = ["--completed-after", "--completed-before"].first(where: {
                arguments.value($0) != nil
            })
        {
            throw .usage(
                "'\(option)' chooses done todos, and the other options ask for todos not done",
                hint:
                    "Completed todos are done: leave out --undone, --overdue, --today, --week, --waiting and --unblocked."
            )
        }
        request.statuses = try statuses()
        request.projects = try arguments.allValues("--project").map { (text) throws(CLIError) in try Self.project(text)
        }
        request.priorities = try arguments.allValues("--priority").map { (text) throws(CLIError) in
            guard let priority = TodoPriority(parsing: text) else { throw Self.badPriority(text) }
            // A class word stands for its class; a digit (or none) for itself.
            let word = text.lowercased()
            if let level = priority.level, TodoPriority.Level.allCases.contains(where: { $0.rawValue.hasPrefix(word) })
            {
                return level.values
            }
            return priority.rawValue...priority.rawValue
        }
    }

    /// The tags the filter option `option` names (`--tag`, `--any-tag`, `--no-tag`), each as
    /// ``tag(_:)`` reads it. A word that starts with `-` is refused: taskwarrior's `-someday`
    /// means "without the tag", and read as a tag it would silently choose nothing; `--no-tag`
    /// says that (a tag whose word starts with `-` is written with its sigil: `+-x`).
    func filterTags(_ option: String) throws(CLIError) -> [TodoTag] {
        try arguments.allValues(option).map { (text) throws(CLIError) in
            guard !text.hasPrefix("-") else {
                let word = String(text.drop { $0 == "-" })
                let shown = SyncRun.shellWord(word.isEmpty ? "TAG" : word)
                throw .usage(
                    "'\(option) \(text)': a tag does not start with '-'",
                    hint: option == "--no-tag"
                        ? "--no-tag takes the tag itself: --no-tag \(shown)."
                        : "To leave out the todos with a tag, use --no-tag \(shown) (a tag that starts with '-' is written +\(text))."
                )
            }
            return try Self.tag(text)
        }
    }

    /// Says on stderr, once for each tag that `--tag`, `--any-tag` or `--no-tag` names and no
    /// todo of the file has, `note: no todo has the tag +foo` (a typo, or a tag renamed): a
    /// filter with it selects nothing, or leaves nothing out, and "No todos." alone would not
    /// say why. A note, not an error: the command does what was asked, and exits 0. Returns the
    /// number of lines written, which a view that fits the terminal leaves room for.
    @discardableResult
    func noteTagsNoTodoHas(_ request: TodoFetchRequest, in repository: TodoRepository) throws(CLIError) -> Int {
        var seen = Set<TodoTag>()
        var lines = 0
        for tag in request.tags + request.anyTags + request.excludedTags where seen.insert(tag).inserted {
            var probe = TodoFetchRequest(limit: 1)
            probe.tags = [tag]
            let found = try perform { () throws(TodoStoreError) in try repository.fetch(probe) }
            if found.isEmpty {
                err.writeNote("no todo has the tag \(tag)")
                lines += 1
            }
        }
        err.flush()
        return lines
    }

    /// The tag `text` names (`+work`, `@phone`, `work`), or a usage error.
    static func tag(_ text: String) throws(CLIError) -> TodoTag {
        guard let tag = TodoTag(text) else {
            throw .usage(
                "'\(TodoText.sanitized(text))' is not a tag",
                hint: "A tag is \(TodoTag.acceptedForms).")
        }
        return tag
    }

    /// The project `text` names (`Work`, `Work.ClientA`, with or without `project:` before it),
    /// or a usage error.
    static func project(_ text: String) throws(CLIError) -> TodoProject {
        let path =
            text.hasPrefix(TodoProject.wordPrefix) ? text.dropFirst(TodoProject.wordPrefix.count) : Substring(text)
        guard let project = TodoProject(path) else {
            throw .usage(
                "'\(TodoText.sanitized(text))' is not a project", hint: "A project is \(TodoProject.acceptedForms).")
        }
        return project
    }

    /// The usage error of a priority that is none of ``TodoPriority/acceptedForms``.
    static func badPriority(_ text: String) -> CLIError {
        .usage("'\(TodoText.sanitized(text))' is not a priority", hint: "Use \(TodoPriority.acceptedForms).")
    }

    /// What `todo list` with these options shows, the lists aside (``listIDs(in:)`` reads them
    /// in the file): ``fetchRequest()`` without the todos not started yet unless asked for. A
    /// verb's selection by filter is this request (CommandContext+Selection.swift).
    func listedRequest() throws(CLIError) -> TodoFetchRequest {
        var request = try fetchRequest()
        hideNotStarted(&request)
        return request
    }

    /// The fetch request that `list`'s options describe.
    func fetchRequest() throws(CLIError) -> TodoFetchRequest {
        var request = TodoFetchRequest()
        if let sort = arguments.value("--sort") {
            guard let order = TodoFetchRequest.Order(rawValue: sort) else {
                throw .usage(
                    "'\(sort)' is not a sort order",
                    hint: "Use \(Command.wordList(TodoFetchRequest.Order.allCases.map(\.rawValue))).")
            }
            request.order = order
        }
        try applyFilters(to: &request)
        request.limit = try count("--limit")
        request.offset = try count("--offset") ?? 0
        return request
    }
}
