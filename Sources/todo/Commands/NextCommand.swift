import TodoStore

extension Command {
    /// `todo next`: the todos to do now, the most urgent first, as taskwarrior's `task next`
    /// ranks them (the score is ``TodoUrgency``'s, the one rule). The undone todos that have
    /// started and are not blocked, unless `--all`; the filters are `list`'s.
    ///
    /// On a terminal of known height it shows what fits (the last row says how many more there
    /// are), as `task next` does; in a pipe and with `--json`, ``defaultLimit`` todos; `--limit`
    /// says how many either way.
    static let next: Command = Command(
        spec: CommandSpec(
            name: "next",
            abstract: "Show the todos to do next, the most urgent first.",
            options: CommandContext.filterOptions + [
                CommandContext.searchOption,
                .init(
                    name: "--all", value: nil,
                    help: "Rank the blocked todos and those not started yet too (they score 5 and 3 less)."),
                .init(
                    name: "--limit", value: "n",
                    help:
                        "Show at most n todos (by default what fits the terminal's height; \(defaultLimit) in a pipe or with --json)."
                ),
                .init(
                    name: "--json", value: nil,
                    help: "Print a JSON array of todo objects, as 'todo list --json', each with its \"urgency\".")
            ],
            discussion: """
                Each row is the todo's urgency, then the todo as 'todo list' shows it. The urgency
                is taskwarrior's, from what todo knows: 12 x the due factor (0.2 for a deadline 14
                days away or more, rising evenly to 1 at 7 days overdue; 0 without a deadline),
                + the priority (high 6, medium 3.9, low 1.8), + 2 x the age (days since it was
                added / 365, at most 1), + the tags (0.8 for one, 0.9 for two, 1 for three or
                more), + 4 when in progress, + 8 when a todo not done waits for it, - 5 when it
                waits for a todo not done, - 3 when it starts after today. Equal scores keep the
                list's order (deadline, then id). Blocked todos and todos not started yet are
                left out unless --all. The filters are 'todo list''s, but for those that ask for
                done todos (--done, --completed-after, --completed-before): a usage error here.
                """,
            examples: ["todo next", "todo next --tag work", "todo next --no-tag someday --limit 3", "todo next --json"]
        ),
        run: { (context) throws(CLIError) in
            // Undone below, once the filters have said whether they ask for done todos.
            var request = TodoFetchRequest()
            try context.applyFilters(to: &request)
            if let option = ["--done", "--completed-after", "--completed-before"].first(where: {
                context.arguments.flag($0) || context.arguments.value($0) != nil
            }) {
                throw .usage(
                    "'todo next' ranks todos not done, and '\(option)' chooses done ones",
                    hint: "Use 'todo list \(option)' for those.")
            }
            request.filter = .undone
            if !context.arguments.flag("--all") {
                context.hideNotStarted(&request)
                if request.blocked == nil { request.blocked = false }
            }
            let asked = try context.count("--limit")
            let json = context.arguments.flag("--json")
            let repository = try context.openRepository()
            request.lists = try context.listIDs(in: repository)
            let notes = try context.noteTagsNoTodoHas(request, in: repository)
            // A terminal's height, less the notes above the rows and the line of the shell's
            // prompt after them.
            let fitting = asked == nil && !json ? Terminal.height().map { max($0 - notes - 1, 2) } : nil
            // The line under the rows when some are left out, on a terminal: with `shown` todos of `total`.
            func moreLine(_ shown: Int, of total: Int) -> String {
                let command = context.commandLine(
                    ["next"], options: Command.next.spec.options, leaving: ["--limit", "--json"],
                    last: ["--limit", String(total)])
                return TodoText.sanitized("… and \(counted(total - shown)) more: \(command)")
            }
            try context.perform { () throws(TodoStoreError) in
                var (ranked, total) = try repository.rankedByUrgency(
                    request, today: context.today, now: .now(), limit: asked ?? fitting ?? defaultLimit)
                // What does not fit leaves room for the line that says so (more than one row
                // where it wraps).
                if let fitting, total > fitting {
                    ranked.removeLast(min(terminalRows(of: moreLine(0, of: total)), ranked.count - 1))
                }
                if json {
                    try writeRankedJSON(ranked, repository, &context.out)
                    return
                }
                guard !ranked.isEmpty else {
                    context.err.write("No todos.\n")
                    return
                }
                try writeRanked(ranked, request, repository, context, &context.out)
                if context.out.isTerminal, total > ranked.count {
                    context.out.write(context.style.paint(moreLine(ranked.count, of: total), .dim) + "\n")
                }
            }
        }
    )

    /// How many todos `todo next` shows where no terminal's height says: in a pipe, a file, and
    /// with `--json`.
    static let defaultLimit = 10

    /// The width of the urgency column, a space before it included: ` 12.4`, `-10.0`.
    private static let urgencyWidth = 5

    /// `urgency` with `places` decimals (1 or 2), rounded half away from zero: `12.4`, `-3.00`.
    static func decimal(_ urgency: Double, places: Int) -> String {
        let scale = places == 1 ? 10 : 100
        let scaled = Int((urgency * Double(scale)).rounded())
        let fraction = String(abs(scaled) % scale)
        let padded = String(repeating: "0", count: max(places - fraction.count, 0)) + fraction
        return (scaled < 0 ? "-" : "") + "\(abs(scaled) / scale)." + padded
    }

    /// The rows: each todo's urgency, then its row as `todo list` writes it, cut to what is left
    /// of the line.
    private static func writeRanked(
        _ ranked: [(todo: Todo, urgency: Double)], _ request: TodoFetchRequest, _ repository: TodoRepository,
        _ context: CommandContext, _ out: inout OutputStream
    ) throws(TodoStoreError) {
        let listed = try context.text(for: request, in: repository)
        var text = TodoText(
            maxID: ranked.lazy.map(\.todo.id).max() ?? 1, today: context.today, style: context.style,
            lineWidth: Terminal.lineWidth().map { max($0 - urgencyWidth, 1) }, showsHints: out.isTerminal,
            showsTimes: ranked.contains { $0.todo.dueTime != nil }, dueTimes: context.dueTimes)
        text.listNames = listed.listNames
        if try repository.hasDependencies() { text.blockers = try repository.blockers() }
        for (todo, urgency) in ranked {
            let score = decimal(urgency, places: 1)
            out.writeSpaces(urgencyWidth - score.utf8.count)
            out.write(score)
            text.writeRow(todo, to: &out)
        }
    }

    /// The todos as `todo list --json` writes them (``TodoJSON``), in rank order, each with its
    /// `"urgency"` (two decimals) last.
    private static func writeRankedJSON(
        _ ranked: [(todo: Todo, urgency: Double)], _ repository: TodoRepository, _ out: inout OutputStream
    ) throws(TodoStoreError) {
        let objects = try TodoJSON(repository)
        out.write("[")
        for (offset, (todo, urgency)) in ranked.enumerated() {
            // The one object shape, with one key more: its closing brace makes room for it.
            out.write((offset == 0 ? "\n  " : ",\n  ") + (try objects.object(todo)).dropLast())
            out.write(", \"urgency\": \(decimal(urgency, places: 2))}")
        }
        out.write(ranked.isEmpty ? "]\n" : "\n]\n")
    }
}
