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
            abstract: "Add todos from a file: todo's own export, taskwarrior's, todo.txt, or iCalendar.",
            arguments: [.init(name: "file", help: "The file to read, or - for standard input.")],
            options: [
                .init(
                    name: "--from", value: "format",
                    help:
                        "json ('todo export'), taskwarrior ('task export'), todotxt or ics; without it, "
                        + "recognised from the file."),
                .init(
                    name: "--list", value: "list", help: "The list to add them to (default: the default list).",
                    short: "-l")
            ],
            discussion: """
                One transaction: a file with any bad record imports nothing, and the error names the
                record (json, taskwarrior) or line (todo.txt). New ids are given in file order.
                json: a todo with a uid (todo export writes it when the todo has one) that is already
                here is skipped, as in ics, and the summary counts the skipped ones.
                taskwarrior: description is the name, due becomes the local date (and its time of day,
                unless midnight, the due time), wait (else scheduled) the start, completed tasks are
                done, deleted ones are skipped; priority H/M/L is high/medium/low, project and tags are
                tags, annotations the note, entry and end the created and completed times, uuid the
                UID (a task already here is skipped). A recurring template and its instances are one
                repeating todo: recur its rule, until its end, the earliest pending instance its
                deadline, the completed ones its history.
                todo.txt: 'x ' marks done, due:YYYY-MM-DD is the deadline, t:YYYY-MM-DD the start, (A)
                to (I) are the priorities 1 to 9, the dates are the created and completed times, rec:3d
                repeats 3 days after the day done and rec:+3d 3 days after the due date, and +project
                and @context words are tags (they leave the name).
                ics: each VTODO is a todo (SUMMARY the name, DUE the local date, COMPLETED or CANCELLED
                done, RRULE its rule) that keeps its UID; one whose UID is already here is skipped, so a
                second import of the same file adds nothing. Occurrences another app marked done are
                the todo's history. Events are ignored.
                A start on the deadline's day is no separate start. What todos have no place for (a tag
                with a tab in it, a wait: or t: after the due date, taskwarrior's start:, alarms...) is
                counted in the summary line, by name.
                Without --from the format is recognised: iCalendar by BEGIN:VCALENDAR, taskwarrior's
                JSON by its uuid and description, todo's own JSON, else todo.txt.
                'todo undo' removes a whole import.
                """,
            examples: [
                "todo import todos.json", "task export | todo import --from taskwarrior -",
                "todo import --from todotxt ~/todo.txt", "todo import --from ics reminders.ics"
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
            let report: ImportReport
            do {
                report = try TodoImporter.read(bytes, format: format)
            } catch {
                let recognised = chosen == nil ? " It was read as \(formatName); --from chooses another format." : ""
                throw .failure(
                    "\(path == "-" ? "standard input" : path): \(error)", hint: "Nothing was imported.\(recognised)")
            }
            let entries = report.todos.enumerated().map {
                (fields: $0.element, uid: report.uids[$0.offset], history: report.history[$0.offset] ?? [])
            }
            let (added, skipped) = try addSkippingKnownUIDs(
                entries, lists: report.lists, parents: report.parents, dependencies: report.dependencies,
                context: context)
            var summary = importSummary(added: added, skipped: skipped)
            // A format recognised from the file (other than todo's own) is named: it was a guess.
            summary += chosen == nil && formatName != "json" ? " (read as \(formatName))." : "."
            let notKept = report.notKept
            if !notKept.isEmpty {
                // One line, so nothing the other tool had disappears without a word.
                summary +=
                    " Not kept (todos have no place for them): "
                    + notKept.map { $0.what.describe($0.count) }.joined(separator: ", ") + "."
            }
            context.out.write(summary + "\n")
        }
    )
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
