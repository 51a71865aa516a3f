/// The description of one command: what the parser accepts and what help shows.
///
/// Specs are data, so parsing, help, suggestions and shell completions all read one source.
struct CommandSpec: Sendable {
    /// A positional argument.
    struct Argument: Sendable {
        var name: String
        var help: String
        /// Accepts one or more values (`ID...`).
        var repeats = false
        var optional = false
    }

    /// A `--flag` or `--option <value>`.
    struct Option: Sendable {
        /// The long name, with its dashes: `--due`.
        var name: String
        /// The value's placeholder (`date`), or `nil` for a flag that takes no value.
        var value: String?
        var help: String
        /// A one-letter alias with its dash (`-y`), if any.
        var short: String?
    }

    var name: String
    var abstract: String
    var arguments: [Argument] = []
    var options: [Option] = []
    var discussion: String? = nil
    var examples: [String] = []
    /// A verb on todos that `list`'s filters typed before its name select for, as in
    /// taskwarrior (`todo --tag errands --overdue done`): the parser keeps those options apart
    /// from the verb's own (``ParsedArguments/leading``), and usage shows them as `[<filter> ...]`.
    var selectsBefore = false

    /// Finds an option by long or short name.
    func option(named name: String) -> Option? {
        options.first { $0.name == name || $0.short == name }
    }
}

/// Options every command accepts, before or after the command name.
enum GlobalOptions {
    static let specs: [CommandSpec.Option] = [
        .init(
            name: "--db", value: "path",
            help: "The database file (default: $TODO_DB, else $XDG_DATA_HOME/todo/todo.sqlite)."),
        .init(
            name: "--color", value: "when",
            help: "Colour output: auto, always or never (default: auto, which NO_COLOR turns off)."),
        .init(
            name: "--no-config", value: nil,
            help: "Ignore the configuration file (default options and aliases): see 'todo help config'."),
        .init(name: "--version", value: nil, help: "Show the version."),
        .init(name: "--help", value: nil, help: "Show help information.", short: "-h")
    ]

    static func spec(named name: String) -> CommandSpec.Option? {
        specs.first { $0.name == name || $0.short == name }
    }
}
