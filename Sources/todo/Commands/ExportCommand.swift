import TodoStore
import TodoSync

extension Command {
    /// The words of `export --format`.
    static let exportFormats = ["json", icsFormat]

    /// `todo export [--format json|ics]`: every todo, as the JSON array `todo import` reads
    /// back, or as iCalendar for calendar and task apps.
    static let export = Command(
        spec: CommandSpec(
            name: "export",
            abstract: "Print every todo as a JSON array (what 'todo import' reads), or as iCalendar.",
            options: [
                .init(
                    name: "--format", value: "format", help: "json (the default) or ics (iCalendar: a VTODO per todo).")
            ]
                + CommandContext.filterOptions + [CommandContext.searchOption],
            discussion: """
                The order is the list's default one, so an import recreates the same list.
                json: a todo that has a UID (from a sync or an ics export) carries it as "uid", so
                importing the file twice adds its todos once.
                ics: calendar and task apps read it (Thunderbird, Apple Reminders, Nextcloud Tasks), and
                so does 'todo import --from ics'. Each todo keeps its UID from then on, so a todo that
                comes back from another app, or through 'todo sync', is the same todo, not a copy.
                """,
            examples: [
                "todo export > todos.json", "todo --db other.sqlite import todos.json",
                "todo export --done > done.json",
                "todo export --format ics --undone > todos.ics"
            ]
        ),
        run: { (context) throws(CLIError) in
            let format = context.arguments.value("--format") ?? "json"
            guard Command.exportFormats.contains(format) else {
                throw .usage(
                    "'\(format)' is not an export format", hint: "Use \(Command.wordList(Command.exportFormats)).")
            }
            var request = TodoFetchRequest()
            try context.applyFilters(to: &request)
            let repository = try context.openRepository()
            try context.perform { () throws(TodoStoreError) in
                if format == Command.icsFormat {
                    try Command.writeICS(repository, request, &context.out)
                } else {
                    try Command.writeJSON(repository, request, &context.out, uids: TodoUIDs(repository: repository))
                }
            }
        }
    )
}
