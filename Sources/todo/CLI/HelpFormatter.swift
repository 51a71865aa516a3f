/// Help text in the shape swift-argument-parser users know: OVERVIEW, USAGE, ARGUMENTS, OPTIONS.
enum HelpFormatter {
    /// The one-line usage of a command: `todo add <name> [--due <date>] [--json]`.
    static func usage(of command: CommandSpec) -> String {
        var parts = ["todo", command.name]
        for option in command.options {
            parts.append("[\(option.name)\(option.value.map { " <\($0)>" } ?? "")]")
        }
        for argument in command.arguments {
            let name = "<\(argument.name)>" + (argument.repeats ? " ..." : "")
            parts.append(argument.optional ? "[\(name)]" : name)
        }
        return parts.joined(separator: " ")
    }

    /// The full help of one command.
    static func help(for command: CommandSpec) -> String {
        var text = "OVERVIEW: \(command.abstract)\n"
        if let discussion = command.discussion { text += "\n\(discussion)\n" }
        text += "\nUSAGE: \(usage(of: command))\n"
        if !command.arguments.isEmpty {
            text += "\nARGUMENTS:\n"
            for argument in command.arguments {
                text += row("<\(argument.name)>" + (argument.repeats ? " ..." : ""), argument.help)
            }
        }
        text += "\nOPTIONS:\n"
        for option in command.options + GlobalOptions.specs {
            text += row(label(option), option.help)
        }
        if !command.examples.isEmpty {
            text += "\nEXAMPLES:\n" + command.examples.map { "  \($0)\n" }.joined()
        }
        return text
    }

    /// The top-level help: every command with its abstract.
    static func overview(commands: [CommandSpec]) -> String {
        var text = """
            OVERVIEW: A todo list in SQLite, for the terminal.

            USAGE: todo [--db <path>] [--color <when>] <command> [<arguments>]

            \(Command.undoneOverview.spec.abstract)

            COMMANDS:

            """
        for command in commands { text += row(command.name, command.abstract) }
        text += "\nOPTIONS:\n"
        for option in GlobalOptions.specs { text += row(label(option), option.help) }
        text += "\n  See 'todo help <command>' for detailed help, 'todo help config' for defaults and aliases.\n"
        return text
    }

    /// `todo help config`: the configuration file's documentation and an example.
    static func configHelp() -> String {
        "OVERVIEW: The configuration file: default options per command, and aliases.\n\n"
            + Configuration.documentation + "\n\nEXAMPLE:\n"
            + Configuration.example.map { $0.isEmpty ? "\n" : "  \($0)\n" }.joined()
    }

    private static func label(_ option: CommandSpec.Option) -> String {
        let long = option.name + (option.value.map { " <\($0)>" } ?? "")
        return option.short.map { "\($0), \(long)" } ?? long
    }

    /// An indented two-column row; long labels push the help to the next line.
    private static func row(_ label: String, _ help: String) -> String {
        let width = 24
        let padded = "  " + label
        if padded.count < width {
            return padded + String(repeating: " ", count: width - padded.count) + help + "\n"
        }
        return padded + "\n" + String(repeating: " ", count: width) + help + "\n"
    }
}
