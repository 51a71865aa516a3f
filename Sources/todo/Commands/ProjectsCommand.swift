import TodoStore

extension Command {
    /// `todo projects [--json | --names]`: the projects as a tree, with how many todos are in each.
    static let projects = Command(
        spec: CommandSpec(
            name: "projects",
            abstract: "List the projects as a tree, with how many todos are in each.",
            options: [
                .init(name: "--json", value: nil, help: "Print a JSON array of {project, undone, done, own}."),
                .init(
                    name: "--names", value: nil,
                    help: "Print each project's whole path alone on a line, as --project takes it (for scripts).")
            ],
            discussion:
                "A project is names joined by dots, the widest first: Work.ClientA is inside Work. Each project"
                + " is shown under the one it is inside, by its last name, with how many todos not done and done"
                + " are in it or inside it: what 'todo list --project NAME' lists. Projects are not tags: the"
                + " project Errands and the tag +errands are two things. Give one with 'todo add ... project:Work'"
                + " or --project, change it with 'todo edit ID --project', group by it with 'todo list --outline"
                + " --by project'.",
            examples: ["todo projects", "todo list --project Work --undone"]
        ),
        run: { (context) throws(CLIError) in
            if context.arguments.flag("--json"), context.arguments.flag("--names") {
                throw .usage("'--json' and '--names' cannot be used together")
            }
            let repository = try context.openRepository()
            let counts = try context.perform { () throws(TodoStoreError) in try repository.projectCounts() }
            if context.arguments.flag("--names") {
                for count in counts { context.out.write(count.project.path + "\n") }
                return
            }
            if context.arguments.flag("--json") {
                let items = counts.map {
                    "{\"project\": \(JSON.string($0.project.path)), \"undone\": \($0.undone), \"done\": \($0.done), \"own\": \($0.own)}"
                }
                context.out.write("[" + items.joined(separator: ", ") + "]\n")
                return
            }
            // Each project by its last name, two columns in per level, as `task projects` shows them.
            let rows = counts.map { count in
                let names = count.project.names
                let label = TodoText.indent(names.count - 1) + TodoText.sanitized(String(names.last ?? ""))
                return (label, count.undone, count.done)
            }
            Self.writeCountRows(rows, none: "No projects.", to: context)
        }
    )
}
