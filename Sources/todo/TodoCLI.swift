import TodoStore

#if canImport(Glibc)
    import Glibc
#endif

/// The `todo` command line: parses, dispatches, and turns every failure into one `error:` line.
///
/// Nothing below this type exits, and commands print only through the streams it hands them;
/// ``run(_:)`` is the one place that decides exit statuses (0 success, 1 the operation failed,
/// 2 usage error, 128 + N a long-running command stopped by signal N), and `main.swift` exits
/// with what it returns.
enum TodoCLI {
    static let version = "0.1.0"

    /// Every command, in the order help lists them.
    static let commands: [Command] = [
        .add, .list, .next, .show, .edit, .tags, .projects, .lists, .move, .done, .undone, .start, .stop, .cancel,
        .skip, .remove, .undo,
        .redo, .export, .import,
        .watch, .ui, .sync,
        .completions, .manpage, .check, help
    ]

    static let help = Command(
        spec: CommandSpec(
            name: "help",
            abstract: "Show help for todo or one of its commands.",
            arguments: [
                .init(
                    name: "command", help: "The command to explain, or 'config' for the configuration file.",
                    optional: true)
            ],
            examples: ["todo help add", "todo help config"]
        ),
        run: { (context) throws(CLIError) in
            guard let name = context.arguments.positionals.first else {
                context.out.write(HelpFormatter.overview(commands: commands.map(\.spec)))
                return
            }
            if name == "config" {
                context.out.write(HelpFormatter.configHelp())
                return
            }
            guard let command = commands.first(where: { $0.spec.name == name }) else {
                throw Suggestion.unknownCommand(name, among: commands.map(\.spec.name))
            }
            context.out.write(HelpFormatter.help(for: command.spec))
        }
    )

    /// Runs the command line `arguments` (without the program name) and returns the exit status.
    static func run(_ arguments: [String]) -> Int32 {
        // A reader that went away (`todo list | head -1`) is EPIPE on the next write, which
        // OutputStream takes as the end of output, quietly, as other Unix tools do.
        signal(SIGPIPE, SIG_IGN)
        let out = OutputStream(descriptor: 1)
        let err = OutputStream(descriptor: 2)
        defer { err.flush() }
        do throws(CLIError) {
            try dispatch(arguments, out: out, err: err)
            out.flush()
            // A write that failed (a full disk, an I/O error) is a failed command, never a
            // truncated output that looks like a success.
            if let code = out.failure {
                throw CLIError.outputFailed(code)
            }
            return 0
        } catch  where error.kind.isStop {
            out.flush()
            return error.kind.rawValue
        } catch {
            // Output already produced stays in order before the error, as a person reads it.
            out.flush()
            // Messages quote what was typed or what a server sent: Diagnostics keeps a newline or
            // an escape in them from breaking the one-line contract or reaching the terminal.
            err.writeError(error.message, hint: error.hint)
            return error.kind.rawValue
        }
    }

    private static func dispatch(_ arguments: [String], out: OutputStream, err: OutputStream) throws(CLIError) {
        let specs = commands.map(\.spec)
        // Read first, whatever the command: a bad file stops everything, before any change.
        let ignored = Configuration.isIgnored(by: arguments, commands: specs)
        let configuration = try Configuration.load(path: ignored ? nil : Configuration.defaultPath, commands: specs)
        let parser = ArgumentParser(commands: specs, defaultCommand: Command.undoneOverview.spec)
        let parsed = try parser.parse(try configuration.expand(arguments, commands: specs))
        let named = parsed.commandName.flatMap { name in commands.first { $0.spec.name == name } }
        if parsed.flag("--help") {
            out.write(
                named.map { HelpFormatter.help(for: $0.spec) } ?? HelpFormatter.overview(commands: commands.map(\.spec))
            )
            return
        }
        if parsed.flag("--version") {
            out.write("todo \(version)\n")
            return
        }
        // `todo` alone shows what is left to do (see undoneOverview); help is `todo help`.
        let command = named ?? .undoneOverview
        try parser.validatePositionals(parsed, for: command.spec)
        if let color = parsed.value("--color"), !["auto", "always", "never"].contains(color) {
            throw .usage("'\(color)' is not a valid value for '--color'", hint: "Use auto, always or never.")
        }
        var context = CommandContext(
            arguments: parsed, out: out, err: err,
            databaseOption: parsed.value("--db"),
            style: TextStyle.resolve(option: parsed.value("--color"), stdoutIsTerminal: out.isTerminal),
            today: LocalTimeZone.system.today(), bulk: configuration.bulk, undoDepth: configuration.undoDepth)
        try command.run(&context)
    }
}
