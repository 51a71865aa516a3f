import TodoInterop
import TodoStore

#if canImport(Glibc)
    import Glibc
#endif

extension Command {
    /// The words of `import --from`: TodoInterop's formats, and iCalendar (read by TodoSync,
    /// which keeps UIDs). Completions and the usage error list these.
    static let importFormats = ImportFormat.allCases.map(\.rawValue) + [icsFormat]
    /// The `--from` and `--format` word for iCalendar.
    static let icsFormat = "ics"

    /// `a, b or c`.
    static func wordList(_ words: [String]) -> String {
        words.count < 2 ? words.joined() : words.dropLast().joined(separator: ", ") + " or " + (words.last ?? "")
    }

    /// `todo import [--from json|taskwarrior|todotxt|ics] FILE|-`: all or nothing, undoable.
    static let `import` = Command(
        spec: CommandSpec(
            name: "import",
            abstract: "Add (or update) todos from a file: todo's own export, taskwarrior's, todo.txt, or iCalendar.",
            arguments: [.init(name: "file", help: "The file to read, or - for standard input.")],
            options: [
                .init(
                    name: "--from", value: "format",
                    help:
                        "json ('todo export'), taskwarrior ('task export'), todotxt or ics; without it, "
                        + "recognised from the file."),
                .init(
                    name: "--list", value: "list",
                    help:
                        "The list to add the new todos to (default: each one's list in todo's JSON, else the default list).",
                    short: "-l"),
                .init(
                    name: "--verbose", value: nil,
                    help:
                        "After the summary, a line for each thing not kept (where it was in the file) and each todo updated."
                )
            ],
            discussion: """
                One transaction: a file with any bad record imports nothing, and the error names the
                record (json, taskwarrior) or line (todo.txt, ics). 'todo undo' takes a whole import back.
                Identity: a todo whose UID is here already (json "uid", taskwarrior uuid, ics UID) is that
                todo, updated with what the file says; the summary counts the new, updated and unchanged
                ones, so importing the same file twice adds nothing. todo.txt has no identity: each import
                adds its lines. json keeps each todo's id where no todo here ever had it.
                json: todo's own export, every field, its list, parent and dependencies.
                taskwarrior: description is the name, due becomes the local date (and its time of day,
                unless midnight, the due time), wait (else scheduled) the start, completed tasks are
                done, deleted ones are not kept; priority H/M/L is high/medium/low, project and tags are
                tags, annotations note lines starting with their local date and time, user-defined
                attributes 'key: value' lines at the end of the note, entry and end the created and
                completed times, start (task start) in progress, depends what it waits for. A recurring
                template and its instances are one repeating todo: recur its rule, until its end, the
                earliest pending instance its deadline, the completed ones its history.
                todo.txt: 'x ' marks done, due:YYYY-MM-DD is the deadline, t:YYYY-MM-DD the start, (A)
                to (I) are the priorities 1 to 9, the dates are the created and completed times, rec:3d
                repeats 3 days after the day done and rec:+3d 3 days after the due date, and +project
                and @context words are tags (they leave the name).
                ics: each VTODO is a todo (SUMMARY the name, DUE the local date, COMPLETED or CANCELLED
                done, RRULE its rule) that keeps its UID. Occurrences another app marked done are the
                todo's history.
                Nothing is dropped without a word: the summary counts by name every record, field or
                value the todos have no place for (a deleted task, the time of a wait:, a t: after the
                due date, an alarm, a JSON key or an ics property no field reads...), and --verbose says
                where each was.
                Without --from the format is recognised: iCalendar by BEGIN:VCALENDAR, taskwarrior's
                JSON by its uuid and description, todo's own JSON, else todo.txt.
                """,
            examples: [
                "todo import todos.json", "task export | todo import --from taskwarrior -",
                "todo import --from todotxt ~/todo.txt", "todo import --from ics reminders.ics",
                "todo import --verbose tasks.json"
            ]
        ),
        run: { (context) throws(CLIError) in
            // A wrong --from is a usage error, before the file is read.
            let chosen = context.arguments.value("--from")
            if let chosen, ImportFormat(rawValue: chosen) == nil, chosen != Command.icsFormat {
                throw .usage(
                    "'\(chosen)' is not an import format", hint: "Use \(Command.wordList(Command.importFormats)).")
            }
            let path = context.arguments.positionals[0]
            let bytes = try FileContents.read(path)
            let formatName = chosen ?? Command.recognisedFormat(bytes)
            let format = ImportFormat(rawValue: formatName)
            // iCalendar is read by TodoSync, which keeps UIDs; the other formats by TodoInterop.
            guard let format else { return try importICS(bytes, path: path, context: &context) }
            var report: ImportReport
            do {
                report = try TodoImporter.read(bytes, format: format)
            } catch {
                let recognised = chosen == nil ? " It was read as \(formatName); --from chooses another format." : ""
                throw .failure(
                    "\(path == "-" ? "standard input" : path): \(error)", hint: "Nothing was imported.\(recognised)")
            }
            let entries = report.todos.enumerated().map {
                ImportEntry(
                    fields: $0.element, uid: report.uids[$0.offset], history: report.history[$0.offset] ?? [],
                    source: report.source(of: $0.offset))
            }
            let given = report
            let outcome = try importEntries(
                ImportBatch(
                    entries: entries, lists: report.lists, parents: report.parents, dependencies: report.dependencies,
                    ids: report.ids, gives: { given.gives($0, todo: $1) }),
                context: context)
            for dropped in outcome.dropped { report.drop(dropped.what, at: dropped.source) }
            // A format recognised from the file (other than todo's own) is named: it was a guess.
            let guessed = chosen == nil && formatName != "json" ? formatName : nil
            Command.writeImportSummary(
                outcome, readAs: guessed, notKept: report.notKept.map { $0.what.describe($0.count) },
                dropped: report.dropped.map { ($0.what.label, $0.source) }, context: context)
        }
    )
}

/// One todo an import read, whatever the format: its fields, its UID when the file gives one,
/// the occurrences of it finished there, and where it was in the file.
struct ImportEntry {
    var fields: TodoFields
    var uid: String?
    var history: [ImportedCompletion] = []
    var source: ImportSource?
}

/// What an import brings, whatever the format: the todos and what links them (by offset in
/// ``entries``), the ids they had in the file, and which fields the file gives.
struct ImportBatch {
    var entries: [ImportEntry]
    /// The list each todo was in (todo's own export).
    var lists: [Int: String] = [:]
    /// Each subtask's parent (no loops: the readers cut them).
    var parents: [Int: Int] = [:]
    /// What each todo waits for (no cycles: the readers cut them).
    var dependencies: [Int: [Int]] = [:]
    /// The id each todo had in the file (todo's own export), kept where it is free.
    var ids: [Int: Int64] = [:]
    /// Whether the file gives the field named so for the todo at an offset: an update takes the
    /// file's value of such a field, and keeps the todo's own value of the others.
    var gives: (String, Int) -> Bool = { _, _ in true }
}

/// What an import did: how many todos it added, which it updated and how many it found
/// unchanged, and what it left out on the way (a UID twice in the file, an id not free).
struct ImportOutcome {
    var added = 0
    /// Each todo updated, in file order: its id, name and the fields (and `history`,
    /// `depends`) that changed.
    var updated: [(id: Int64, name: String, changes: [String])] = []
    var unchanged = 0
    /// Records whose UID belongs to a todo deleted here, whose deletion a sync has still to
    /// send: left deleted.
    var deletedHere = 0
    var dropped: [ImportReport.Dropped] = []
}

extension Command {
    /// The summary of an import, on one line: what was added, updated and left unchanged, the
    /// format it was read as when recognised, and what was not kept, by name; with `--verbose`,
    /// a line for each thing not kept (where it was in the file) and each todo updated.
    static func writeImportSummary(
        _ outcome: ImportOutcome, readAs guessed: String?, notKept: [String],
        dropped: [(what: String, source: ImportSource)], context: CommandContext
    ) {
        let added = outcome.added
        var summary: String
        if outcome.updated.isEmpty && outcome.unchanged == 0 && outcome.deletedHere == 0 {
            summary = "Imported \(added) \(added == 1 ? "todo" : "todos")"
        } else {
            // Some were here already (the same UID): a second import of the same file, or of a
            // newer export of the same tasks.
            summary =
                "Imported \(added) new \(added == 1 ? "todo" : "todos"), updated \(outcome.updated.count), "
                + "\(outcome.unchanged) unchanged"
            if outcome.deletedHere > 0 { summary += ", \(outcome.deletedHere) deleted here (left deleted)" }
        }
        summary += guessed.map { " (read as \($0))." } ?? "."
        // One list, so nothing the other tool had disappears without a word.
        if !notKept.isEmpty { summary += " Not kept: " + notKept.joined(separator: ", ") + "." }
        context.out.write(summary + "\n")
        guard context.arguments.flag("--verbose") else { return }
        // In file order (what is found once the whole file is read, such as a link to a
        // deleted task, comes after the record it is in otherwise).
        let ordered = dropped.enumerated().sorted {
            ($0.element.source.order, $0.offset) < ($1.element.source.order, $1.offset)
        }
        for (_, (what, source)) in ordered {
            context.out.write("not kept: \(describe(source)): \(what)\n")
        }
        for todo in outcome.updated {
            context.out.write(
                "updated: \(todo.id) \"\(TodoText.sanitized(todo.name))\": "
                    + todo.changes.joined(separator: ", ") + "\n")
        }
    }

    /// `record 3 (uuid 5f0c…) "Pay rent"`: where in the file, the other tool's identity, the
    /// name, each made safe for a terminal.
    static func describe(_ source: ImportSource) -> String {
        var text =
            switch source.location {
            case .file: "the file"
            case .position(let line, let column): "line \(line), column \(column)"
            case .record(let index): "record \(index)"
            case .line(let line): "line \(line)"
            }
        if let identity = source.identity { text += " (\(TodoText.sanitized(identity)))" }
        if let name = source.name { text += " \"\(TodoText.sanitized(name))\"" }
        return text
    }
}

extension Command {
    /// The format of a file imported without `--from`, from its first bytes: `ics` for
    /// iCalendar; for JSON, `taskwarrior` when its records carry taskwarrior's `uuid` and
    /// `description`, else `json` (todo's own export); anything else `todotxt`.
    static func recognisedFormat(_ bytes: [UInt8]) -> String {
        var start = bytes.startIndex
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start += 3 }  // a UTF-8 byte order mark
        while start < bytes.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        guard start < bytes.endIndex else { return "json" }
        let head = String(decoding: bytes[start..<min(bytes.endIndex, start + 65_536)], as: UTF8.self)
        if head.uppercased().hasPrefix("BEGIN:VCALENDAR") { return icsFormat }
        guard head.hasPrefix("[") || head.hasPrefix("{") else { return ImportFormat.todotxt.rawValue }
        let taskwarrior = head.contains("\"uuid\"") && head.contains("\"description\"")
        return taskwarrior ? ImportFormat.taskwarrior.rawValue : ImportFormat.json.rawValue
    }
}

/// Reads a whole file, or standard input for `-`, with plain system calls.
enum FileContents {
    static func read(_ path: String) throws(CLIError) -> [UInt8] {
        let descriptor = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw .failure("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        defer { if descriptor != 0 { close(descriptor) } }
        var bytes: [UInt8] = []
        // A file's size, known up front, saves growing the array as it is read (standard input
        // grows it).
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_size > 0 { bytes.reserveCapacity(Int(status.st_size)) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes.append(contentsOf: chunk[..<count])
            } else if count == 0 {
                return bytes
            } else if errno != EINTR {
                throw .failure("cannot read \(path): \(String(cString: strerror(errno)))")
            }
        }
    }
}

extension ImportSource {
    /// Where it is in the file, as a number that sorts in file order: its record or line.
    fileprivate var order: Int {
        switch location {
        case .file: 0
        case .position(let line, _): line
        case .record(let index): index
        case .line(let line): line
        }
    }
}
