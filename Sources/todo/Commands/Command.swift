import TodoStore

/// A command: its spec (for parsing and help) and what it does.
struct Command: Sendable {
    let spec: CommandSpec
    let run: @Sendable (inout CommandContext) throws(CLIError) -> Void
}

/// What a running command can use: its arguments, the output streams, the database.
struct CommandContext {
    let arguments: ParsedArguments
    var out: OutputStream
    var err: OutputStream
    /// The `--db` option, if given; see ``databasePath()``.
    let databaseOption: String?
    /// Colour on or off, from `--color`, `NO_COLOR` and whether stdout is a terminal.
    let style: TextStyle
    /// The local day, for relative dates and hints.
    let today: CalendarDate
    /// The local clock's reading of deadlines with a time of day: one for the whole run.
    let dueTimes = DueTimeConverter()
    /// How many todos a filter may select before a verb asks (`bulk` in the configuration; 0: no limit).
    var bulk = Configuration.defaultBulk
    /// How many changes `todo undo` keeps (`undo.depth` in the configuration).
    var undoDepth = TodoRepository.defaultUndoDepth

    /// A row renderer for a list whose largest id is `maxID`, with the time column when
    /// `showsTimes` (some todo listed has a time of day) and there is room.
    func text(maxID: Int64, showsTimes: Bool = false) -> TodoText {
        TodoText(
            maxID: maxID, today: today, style: style, lineWidth: Terminal.lineWidth(), showsHints: out.isTerminal,
            showsTimes: showsTimes, dueTimes: dueTimes)
    }

    /// The `--due` option parsed as a deadline, with its time of day when one is given.
    func dueDate() throws(CLIError) -> TypedDeadline? {
        guard let text = arguments.value("--due") else { return nil }
        return try DueDateParser.parseDeadline(text, today: today)
    }

    /// The `--start` option parsed as a date, when present.
    func startDate() throws(CLIError) -> CalendarDate? {
        guard let text = arguments.value("--start") else { return nil }
        return try DueDateParser.parse(text, today: today, option: "--start")
    }

    /// Opens the todo database, creating it on first use. Deferred until a command needs it,
    /// so `--help` and usage errors never touch the file.
    func openRepository() throws(CLIError) -> TodoRepository {
        let path = try databasePath()
        do {
            let repository = try TodoRepository(path: path)
            repository.undoDepth = undoDepth
            return repository
        } catch {
            throw CLIError(error, path: path)
        }
    }

    /// The database path the global options and environment select. Resolved only by commands
    /// that use the database, so help and completions work even without HOME.
    func databasePath() throws(CLIError) -> String {
        try DatabaseLocation.resolve(option: databaseOption)
    }

    /// Runs a repository operation, turning its errors into CLI errors.
    func perform<Result>(_ body: () throws(TodoStoreError) -> Result) throws(CLIError) -> Result {
        do {
            return try body()
        } catch {
            throw CLIError(error, path: (try? databasePath()) ?? "the database")
        }
    }

    /// Runs `body` as one undo step of `repository` (`recordingUndo`), in one transaction: an
    /// error it throws, a refusal as much as a store failure, rolls back everything it wrote.
    /// Store calls inside go through ``perform(_:)``.
    func recordingUndo<Result>(
        _ command: String, in repository: TodoRepository, _ body: () throws(CLIError) -> Result
    ) throws(CLIError) -> Result {
        let path = (try? databasePath()) ?? "the database"
        return try repository.recordingUndo(command, mapStoreError: { CLIError($0, path: path) }, body)
    }

    /// Parses the positional arguments as todo ids, each range in full: for the commands that
    /// take one id (`show`, `edit`).
    func ids() throws(CLIError) -> [Int64] {
        try Self.ids(arguments.positionals)
    }

    /// The positional arguments as ids and ranges: parsed before the database is opened, so a
    /// usage error never touches it.
    func idParts() throws(CLIError) -> [IDPart] {
        try Self.idParts(arguments.positionals)
    }

    /// The ids that `parts` name, for the commands that take several (`done`,
    /// `undone`, `rm`): a single id as given, whether or not it exists (the command's look-up
    /// reports it missing); a range as the todos that exist in it, since ids are never reused
    /// and deleting todo 7 must not break `5-12`.
    ///
    /// - Throws: a usage error for text that is not an id; a failure for a range with no todo
    ///   in it, before anything is changed.
    ///
    /// The ranges are read before the command's own transaction: a todo deleted in between by
    /// another program is then missing there, and the command changes nothing, as for a
    /// single id.
    func existingIDs(_ parts: [IDPart], in repository: TodoRepository) throws(CLIError) -> [Int64] {
        var ids: [Int64] = []
        for part in parts {
            guard part.isRange else {
                ids.append(part.ids.lowerBound)
                continue
            }
            let existing = try perform { () throws(TodoStoreError) in try repository.ids(in: part.ids) }
            guard !existing.isEmpty else {
                throw .failure(
                    "no todos in \(part.text)", hint: "Nothing was changed. 'todo list' shows the ids.")
            }
            ids += existing
        }
        return ids
    }

    /// Parses texts as todo ids, each range in full, in the order given.
    static func ids(_ texts: [String]) throws(CLIError) -> [Int64] {
        try idParts(texts).flatMap(\.ids)
    }

    /// One id or one range, as typed.
    struct IDPart {
        /// The text it was read from (`2-4`), for messages.
        var text: Substring
        /// The ids it spans: one for a single id.
        var ids: ClosedRange<Int64>
        /// Written as a range (`2-4`, even `4-4`), not as one id.
        var isRange: Bool
    }

    /// Ids as people type them: `3`, lists `2,4`, ranges `2-4`, in any mix (`2-4,7 9`), in the
    /// order given. A range holds at most ``maxRange`` ids, so a typo cannot ask for billions.
    static func idParts(_ texts: [String]) throws(CLIError) -> [IDPart] {
        var parts: [IDPart] = []
        for text in texts {
            for part in text.split(separator: ",", omittingEmptySubsequences: false) {
                let bounds = part.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
                guard let first = bounds.first.flatMap({ Int64($0) }), first > 0,
                    let last = bounds.count == 2 ? Int64(bounds[1]) : first, last > 0
                else {
                    throw .usage(
                        "'\(part)' is not a todo id",
                        hint: "Ids are the positive numbers 'todo list' shows: 3, 2,4 or 2-4.")
                }
                guard first <= last else {
                    throw .usage(
                        "'\(part)' is not a range: it ends before it starts", hint: "Write the smaller id first: 2-4.")
                }
                guard last - first < Int64(maxRange) else {
                    throw .usage("'\(part)' spans more than \(maxRange) ids", hint: "Give a smaller range.")
                }
                parts.append(IDPart(text: part, ids: first...last, isRange: bounds.count == 2))
            }
        }
        return parts
    }

    /// The help text of an `id...` argument.
    static let idsHelp =
        "The ids of the todos, as 'todo list' shows them: 3, a list 2,4 or a range 2-4 (the todos that exist in it)."

    /// The most ids one range may name.
    static let maxRange = 10_000

    /// Parses an option's value as a non-negative integer, when the option is present.
    func count(_ option: String) throws(CLIError) -> Int? {
        guard let text = arguments.value(option) else { return nil }
        guard let value = Int(text), value >= 0 else {
            throw .usage("'\(text)' is not a valid value for '\(option)'", hint: "Use a whole number, 0 or more.")
        }
        return value
    }
}

extension CommandContext {
    /// `--due` of `add` and `edit`, whose deadline may carry a time of day; `help` names it.
    static func dueOption(help: String) -> CommandSpec.Option {
        .init(
            name: "--due", value: "date",
            help: "\(help): \(DueDateParser.examples); with \(DueDateParser.timeExamples).")
    }

    /// `--start` of `add` and `edit`.
    static let startOption = CommandSpec.Option(
        name: "--start", value: "date",
        help: "The day it starts, before its deadline (any --due date, without a time): until then lists leave it out.")

    /// What a start date does: the discussion of `add` and `edit`.
    static let startRules = """
        Start dates: --start DATE is the day a todo starts, before the day it is due. Until then
        todo, todo list, watch and ui leave it out, as phone apps hide a task until its start
        (--all shows it too, --waiting only such todos; todo export keeps every todo).
        """

    /// Refuses a start on or after the deadline: a start is a day before the todo is due (on
    /// the deadline's own day it would be no separate start, and hide nothing).
    static func checkStart(of fields: TodoFields) throws(CLIError) {
        guard let start = fields.start, let deadline = fields.deadline, start >= deadline else { return }
        let when = start == deadline ? "on the day it is due" : "after it is due (\(TodoText.day(deadline)))"
        throw .usage(
            "the todo would start on \(TodoText.day(start)), \(when)",
            hint: "Give --start a day before the deadline, or leave it out.")
    }
}
