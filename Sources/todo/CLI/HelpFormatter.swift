/// Help text in the shape swift-argument-parser users know: OVERVIEW, USAGE, ARGUMENTS, OPTIONS.
///
/// On a terminal, help is wrapped to its width at word boundaries (``TextWrapping``), since
/// the terminal itself breaks lines mid-word; in a pipe or a file (`width` nil) the text is
/// the same whatever the terminal, one line per row as it always was.
enum HelpFormatter {
    /// Where option and argument descriptions start, when the width leaves them room.
    private static let descriptionColumn = 24
    /// The fewest columns a description gets beside its label; narrower (a 40-column phone),
    /// descriptions go under their labels, indented by ``narrowIndent``.
    private static let minimumDescriptionWidth = 30
    private static let narrowIndent = 6

    /// The one-line usage of a command: `todo add <name> [--due <date>] [--json]`.
    static func usage(of command: CommandSpec) -> String { usageParts(of: command).joined(separator: " ") }

    /// The usage's words: an option with its value (`[--sort <order>]`) is one, so a wrapped
    /// usage never breaks it in two.
    private static func usageParts(of command: CommandSpec) -> [String] {
        var parts = ["todo"] + (command.selectsBefore ? ["[<filter> ...]"] : []) + [command.name]
        for option in command.options {
            parts.append("[\(option.name)\(option.value.map { " <\($0)>" } ?? "")]")
        }
        for argument in command.arguments {
            let name = "<\(argument.name)>" + (argument.repeats ? " ..." : "")
            parts.append(argument.optional ? "[\(name)]" : name)
        }
        return parts
    }

    /// The full help of one command, wrapped to `width` columns (by default the terminal's, and
    /// none in a pipe: see the type's comment).
    static func help(for command: CommandSpec, width: Int? = Terminal.lineWidth()) -> String {
        var text = paragraph("OVERVIEW: \(command.abstract)", width: width, indent: 2)
        if let discussion = command.discussion {
            text += "\n"
            // The discussion's own line breaks are kept: some lines start a topic ("json: ...").
            for line in discussion.split(separator: "\n", omittingEmptySubsequences: false) {
                text += paragraph(String(line), width: width)
            }
        }
        text += "\n"
        text +=
            width.map { wrapped(words: ["USAGE:"] + usageParts(of: command), width: $0, indent: 7) }
            ?? "USAGE: \(usage(of: command))\n"
        if !command.arguments.isEmpty {
            text += "\nARGUMENTS:\n"
            for argument in command.arguments {
                text += row("<\(argument.name)>" + (argument.repeats ? " ..." : ""), argument.help, width: width)
            }
        }
        text += "\nOPTIONS:\n"
        for option in command.options + GlobalOptions.specs {
            text += row(label(option), option.help, width: width)
        }
        if !command.examples.isEmpty {
            text += "\nEXAMPLES:\n" + command.examples.map { paragraph("  \($0)", width: width, indent: 4) }.joined()
        }
        return text
    }

    /// The top-level help: every command with its abstract, wrapped as ``help(for:width:)``.
    static func overview(commands: [CommandSpec], width: Int? = Terminal.lineWidth()) -> String {
        var text = paragraph("OVERVIEW: A todo list in SQLite, for the terminal.", width: width, indent: 2)
        text +=
            "\n"
            + paragraph("USAGE: todo [--db <path>] [--color <when>] <command> [<arguments>]", width: width, indent: 7)
        text += "\n" + paragraph(Command.undoneOverview.spec.abstract, width: width)
        text += "\nCOMMANDS:\n"
        for command in commands { text += row(command.name, command.abstract, width: width) }
        text += "\nOPTIONS:\n"
        for option in GlobalOptions.specs { text += row(label(option), option.help, width: width) }
        text +=
            "\n"
            + paragraph(
                "  See 'todo help <command>' for detailed help, 'todo help config' for defaults and aliases.",
                width: width, indent: 2)
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

    /// `text` and a newline, wrapped to `width` with continuation lines indented by `indent`.
    private static func paragraph(_ text: String, width: Int?, indent: Int = 0) -> String {
        guard let width else { return text + "\n" }
        return TextWrapping.wrap(text, width: width, indent: indent).map { $0 + "\n" }.joined()
    }

    private static func wrapped(words: [String], width: Int, indent: Int) -> String {
        TextWrapping.wrap(words: words, width: width, indent: indent).map { $0 + "\n" }.joined()
    }

    /// An indented two-column row; long labels push the help to the next line. Wrapped, the
    /// description's lines hang at its column; on a terminal too narrow for two columns, the
    /// description goes under the label.
    private static func row(_ label: String, _ help: String, width: Int?) -> String {
        let padded = "  " + label
        let column =
            width.map { $0 - descriptionColumn >= minimumDescriptionWidth ? descriptionColumn : narrowIndent }
            ?? descriptionColumn
        let margin = String(repeating: " ", count: column)
        let description = paragraph(margin + help, width: width, indent: column)
        guard column == descriptionColumn, padded.count < column else { return padded + "\n" + description }
        return padded + description.dropFirst(padded.count)
    }
}
