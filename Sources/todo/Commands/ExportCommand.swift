import TodoInterop
import TodoStore
import TodoSync

extension Command {
    /// The words of `export --format`.
    static let exportFormats = ["json", icsFormat, "todotxt"]

    /// `todo export [--format json|ics|todotxt]`: every todo, as the JSON array `todo import`
    /// reads back, as iCalendar for calendar and task apps, or as a todo.txt file.
    static let export = Command(
        spec: CommandSpec(
            name: "export",
            abstract: "Print every todo as a JSON array (what 'todo import' reads), as iCalendar, or as todo.txt.",
            options: [
                .init(
                    name: "--format", value: "format",
                    help: "json (the default), ics (iCalendar: a VTODO per todo) or todotxt (a todo.txt file).")
            ]
                + CommandContext.filterOptions + [CommandContext.searchOption],
            discussion: """
                The order is the list's default one, so an import recreates the same list.
                json: each todo's id, and its UID (from a sync or an ics export) as "uid" when it has one:
                importing the file again updates those todos instead of adding them twice, and
                importing it into another file keeps each id no todo there ever had.
                ics: calendar and task apps read it (Thunderbird, Apple Reminders, Nextcloud Tasks), and
                so does 'todo import --from ics'. Each todo keeps its UID from then on, so a todo that
                comes back from another app, or through 'todo sync', is the same todo, not a copy. A
                synced todo is its object's own text with the changes made here written in, as the next
                sync would send it, so that what other apps wrote in it (alarms, URL, attachments) stays.
                todotxt: a line per todo, as todo.txt-cli and 'todo import --from todotxt' read it: the
                priority as (A) to (I) (pri:A once done), the created and completed days, the tags,
                due:YYYY-MM-DD, the start as t:YYYY-MM-DD, and the repeat as rec: (rec:+1m from the due
                date, rec:3d from the day done) when the rule is every N days, weeks, months or years, or
                every weekday; other rules have no rec: form, and a line on standard error counts them.
                Notes and due times have no place in todo.txt and are not written.
                """,
            examples: [
                "todo export > todos.json", "todo --db other.sqlite import todos.json",
                "todo export --done > done.json",
                "todo export --format ics --undone > todos.ics", "todo export --format todotxt > todo.txt"
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
            request.lists = try context.listIDs(in: repository)
            try context.noteTagsNoTodoHas(request, in: repository)
            try context.perform { () throws(TodoStoreError) in
                if format == Command.icsFormat {
                    try Command.writeICS(repository, request, &context.out)
                } else if format == "todotxt" {
                    var unwritten = 0
                    try repository.forEach(request) { todo in
                        context.out.write(TodoTxtWriter.line(todo.fields) + "\n")
                        if todo.fields.repeats, TodoTxtWriter.repeatTag(todo.fields) == nil { unwritten += 1 }
                    }
                    if unwritten > 0 {
                        // Said, not dropped in silence; the file on stdout stays todo.txt.
                        let rules = unwritten == 1 ? "1 repeat rule has" : "\(unwritten) repeat rules have"
                        context.err.write("\(rules) no rec: form: written without one.\n")
                    }
                } else {
                    try Command.writeJSON(repository, request, &context.out, uids: TodoUIDs(repository: repository))
                }
            }
        }
    )
}
