extension Command {
    /// `todo manpage [COMMAND]`: prints a manual page in roff, from the same specs as help.
    static let manpage = Command(
        spec: CommandSpec(
            name: "manpage",
            abstract: "Print the manual page of todo or of one command, in roff.",
            arguments: [
                .init(
                    name: "command", help: "The command whose page to print (todo-COMMAND(1)); none prints todo(1).",
                    optional: true)
            ],
            options: [
                .init(
                    name: "--write-all", value: "folder",
                    help: "Write todo.1 and every todo-COMMAND.1 into the folder instead, and list them.")
            ],
            discussion: """
                scripts/install and the Debian package install these pages, so 'man todo' and
                'man todo-add' work; this prints them for other ways of installing.
                """,
            examples: [
                "todo manpage | man -l -", "todo manpage add > todo-add.1",
                "todo manpage --write-all /usr/local/share/man/man1"
            ]
        ),
        run: { (context) throws(CLIError) in
            if let folder = context.arguments.value("--write-all") {
                let pages =
                    [("todo.1", ManPage.overview(commands: TodoCLI.commands.map(\.spec)))]
                    + TodoCLI.commands.map { ("todo-\($0.spec.name).1", ManPage.page(for: $0.spec)) }
                for (name, text) in pages {
                    let path = folder + "/" + name
                    try FileOutput.write(text, to: path)
                    context.out.write(path + "\n")
                }
                return
            }
            guard let name = context.arguments.positionals.first else {
                context.out.write(ManPage.overview(commands: TodoCLI.commands.map(\.spec)))
                return
            }
            guard let command = TodoCLI.commands.first(where: { $0.spec.name == name }) else {
                let suggestion = Suggestion.closest(to: name, among: TodoCLI.commands.map(\.spec.name))
                throw .usage("'\(name)' is not a todo command", hint: suggestion.map { "Did you mean '\($0)'?" })
            }
            context.out.write(ManPage.page(for: command.spec))
        }
    )
}
