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
                    help: "json (the default: 'todo export'), taskwarrior ('task export'), todotxt or ics.")
            ],
            discussion: """
                One transaction: a file with any bad record imports nothing, and the error names the
                record (json, taskwarrior) or line (todo.txt). New ids are given in file order.
                taskwarrior: description is the name, due becomes the local date, completed tasks are
                done, deleted ones are skipped; projects, tags, priorities and annotations are counted in
                the summary line, not kept. todo.txt: 'x ' marks done, due:YYYY-MM-DD is the
                deadline; priorities and dates are dropped; +project and @context stay in the name.
                ics: each VTODO is a todo (SUMMARY the name, DUE the local date, COMPLETED or CANCELLED
                done) that keeps its UID; one whose UID is already here is skipped, so a second import
                of the same file adds nothing. Events are ignored.
                'todo undo' removes a whole import.
                """,
            examples: [
                "todo import todos.json", "task export | todo import --from taskwarrior -",
                "todo import --from todotxt ~/todo.txt", "todo import --from ics reminders.ics"
            ]
        ),
        run: { (context) throws(CLIError) in
            let formatName = context.arguments.value("--from") ?? "json"
            let format = ImportFormat(rawValue: formatName)
            guard format != nil || formatName == Command.icsFormat else {
                throw .usage(
                    "'\(formatName)' is not an import format", hint: "Use \(Command.wordList(Command.importFormats)).")
            }
            let path = context.arguments.positionals[0]
            let bytes = try FileContents.read(path)
            // iCalendar is read by TodoSync, which keeps UIDs; the other formats by TodoInterop.
            guard let format else { return try importICS(bytes, path: path, context: &context) }
            let report: ImportReport
            do {
                report = try TodoImporter.read(bytes, format: format)
            } catch {
                throw .failure("\(path == "-" ? "standard input" : path): \(error)", hint: "Nothing was imported.")
            }
            let todos = report.todos
            let repository = try context.openRepository()
            try context.perform { () throws(TodoStoreError) in
                try repository.recordingUndo("import") { () throws(TodoStoreError) in
                    // The readers applied each format's rules; names are stored as read.
                    for todo in todos {
                        try repository.add(
                            name: todo.name, deadline: todo.deadline, isDone: todo.isDone, nameCheck: .asStored)
                    }
                }
            }
            var summary = "Imported \(todos.count) \(todos.count == 1 ? "todo" : "todos")."
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
