extension Command {
    /// `todo manpage [COMMAND]`: prints a manual page in roff, from the same specs as help.
    static let manpage = Command(
        spec: CommandSpec(
            name: "manpage",
            abstract: "Print the manual page of todo or of one command, in roff.",
            arguments: [.init(name: "command", help: "The command whose page to print (todo-COMMAND(1)); none prints todo(1).", optional: true)],
            discussion: """
                scripts/install and the Debian package install these pages, so 'man todo' and
                'man todo-add' work; this prints them for other ways of installing.
                """,
            examples: ["todo manpage | man -l -", "todo manpage add > todo-add.1"]
        ),
        run: { (context) throws(CLIError) in
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
