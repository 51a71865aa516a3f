import TodoStore

extension Command {
    /// `todo tags [--json | --names]`: every tag with how many todos carry it.
    static let tags = Command(
        spec: CommandSpec(
            name: "tags",
            abstract: "List the tags, with how many todos carry each.",
            options: [
                .init(name: "--json", value: nil, help: "Print a JSON array of {tag, undone, done}."),
                .init(
                    name: "--names", value: nil,
                    help: "Print each tag alone on a line, unquoted, as --tag takes it (for scripts).")
            ],
            discussion:
                "Each tag once, the most used first: how many todos not done and done carry it. +Work and @work"
                + " are one tag (case and sigil do not matter), written as the oldest todo writes it. A tag with"
                + " spaces is shown quoted: +\"Home Improvement\". Filter by one with 'todo list --tag TAG'"
                + " (--tag \"Home Improvement\").",
            examples: ["todo tags", "todo list --tag work --undone"]
        ),
        run: { (context) throws(CLIError) in
            let repository = try context.openRepository()
            let counts = try context.perform { () throws(TodoStoreError) in try repository.tagCounts() }
            if context.arguments.flag("--json"), context.arguments.flag("--names") {
                throw .usage("'--json' and '--names' cannot be used together")
            }
            if context.arguments.flag("--names") {
                // Sigil and word, no quotes: one argument of --tag, which a completion quotes
                // for its shell as it does a list's name.
                for count in counts { context.out.write(count.tag.sigil.rawValue + count.tag.word + "\n") }
                return
            }
            if context.arguments.flag("--json") {
                let items = counts.map {
                    "{\"tag\": \(JSON.string($0.tag.description)), \"undone\": \($0.undone), \"done\": \($0.done)}"
                }
                context.out.write("[" + items.joined(separator: ", ") + "]\n")
                return
            }
            Self.writeCountRows(
                counts.map { (TodoText.sanitized($0.tag.description), $0.undone, $0.done) }, none: "No tags.",
                to: context)
        }
    )

    /// Rows of labels (made safe) with how many todos not done and done each has, the counts
    /// lined up after the widest label, as `todo tags` and `todo projects` print them; `none` on
    /// a terminal when there are no rows (in a pipe, no rows is no lines).
    static func writeCountRows(
        _ rows: [(label: String, undone: Int, done: Int)], none: String, to context: CommandContext
    ) {
        guard !rows.isEmpty else {
            if context.out.isTerminal { context.out.write(none + "\n") }
            return
        }
        let width = rows.map { DisplayWidth.of($0.label) }.max() ?? 0
        for row in rows {
            context.out.write(
                row.label + String(repeating: " ", count: width - DisplayWidth.of(row.label))
                    + "  \(row.undone) undone, \(row.done) done\n")
        }
    }
}
