/// Manual pages in roff (man(7) macros), written from the same command specs as `todo help`:
/// `todo(1)` with every command, and one page per command (`todo-add(1)`, ... as git does).
/// One source: a new option or command reaches help, completions and the manual together.
enum ManPage {
    /// The date on every page: the release's.
    static let date = "2026-11-23"

    /// `todo(1)`.
    static func overview(commands: [CommandSpec]) -> String {
        var page = header("TODO")
        page += ".SH NAME\ntodo \\- a todo list in SQLite, for the terminal\n"
        page +=
            ".SH SYNOPSIS\n.B todo\n[\\fB\\-\\-db\\fR \\fIpath\\fR] [\\fB\\-\\-color\\fR \\fIwhen\\fR] \\fIcommand\\fR [\\fIarguments\\fR]\n"
        page += """
            .SH DESCRIPTION
            .B todo
            keeps a todo list (a name, an optional deadline, done or not) in one SQLite file that
            any SQLite client may share. It lists, adds, edits and deletes todos, undoes and redoes,
            watches the list live, shows it as a full-screen outline, imports and exports other
            tools' files, and syncs with CalDAV servers.
            \(escape(Command.undoneOverview.spec.abstract))
            Each command has its own page:
            .BR todo\\-add (1)
            and so on, and
            .B todo help
            .I command
            says the same.
            .SH COMMANDS

            """
        for command in commands {
            page +=
                ".TP\n.B \(escape(command.name))\n\(escape(command.abstract))\nSee\n.BR todo\\-\(escape(command.name)) (1).\n"
        }
        page += ".SH OPTIONS\nThese go before or after the command.\n" + options(GlobalOptions.specs)
        page += """
            .SH EXIT STATUS
            .TP
            .B 0
            Success.
            .TP
            .B 1
            The operation failed: no such todo, a busy database, a full disk, a file that is not a
            todo database, an unreachable sync server, a failed write to standard output.
            Nothing was changed.
            .TP
            .B 2
            A usage error: an unknown command or option, a bad date, a missing argument.
            .TP
            .B 130, 143
            .B todo watch
            or
            .B todo ui
            stopped by SIGINT or SIGTERM.
            .PP
            Errors are one line on standard error starting with
            .BR error: ,
            sometimes followed by a hint.
            .SH ENVIRONMENT
            .TP
            .B TODO_DB
            The database file, unless
            .B \\-\\-db
            is given.
            .TP
            .B TODO_CONFIG
            The configuration file to read instead of the default one
            .RB ( /dev/null :
            none); see CONFIGURATION.
            .TP
            .B XDG_CONFIG_HOME
            Where the configuration file is by default:
            .IR $XDG_CONFIG_HOME/todo/config ,
            else
            .IR ~/.config/todo/config .
            .TP
            .B XDG_DATA_HOME
            Where the database lives by default:
            .IR $XDG_DATA_HOME/todo/todo.sqlite ,
            else
            .IR ~/.local/share/todo/todo.sqlite .
            .TP
            .B NO_COLOR
            \(escape(TextStyle.noColorRule))
            .TP
            .B COLUMNS
            The line width for lists, when standard output is a terminal.
            .TP
            .B TERM
            .B todo ui
            needs a terminal that can move the cursor; it refuses
            .BR TERM=dumb .
            .TP
            .B TODO_SYNC_PASSWORD
            The password for
            .BR "todo sync" ,
            when no password command was set up; else
            .I ~/.netrc
            is read. Never passed on to the password command. A password with no user (none given,
            none in the URL, no netrc login for the host) is an error.
            .TP
            .B TODO_SYNC_TIMEOUT
            How many seconds
            .B todo sync
            waits for the server, from 1 to 300: to connect, and then for each stretch in which the
            request must move at least 1 KiB. A server that never answers, or drips its answer, is
            given up after that long with one error line. Unset: 10 s to connect, 30 s after that.
            Any other value is a usage error (exit status 2).
            .TP
            .B TZ
            The time zone of the local calendar: today, relative dates, and the date and time at
            which a deadline another app set on its own zone's clock (or as an instant) is shown.
            A time of day typed here is local time in any zone.
            .SH FILES
            .TP
            .I ~/.config/todo/config
            Default options, aliases, the bulk threshold and the undo depth; see CONFIGURATION.
            .TP
            .I ~/.local/share/todo/todo.sqlite
            The default database: plain SQLite in WAL mode, created 0600 in a folder created 0700.
            .TP
            .I ~/.netrc
            Logins and passwords for
            .BR "todo sync" ,
            in curl's format: the entry for the host gives the user when none was given, and the
            password when neither a password command nor
            .B TODO_SYNC_PASSWORD
            does. Read by todo-sync only; one that cannot be read is an error.
            .SH CONFIGURATION
            \(escape(Configuration.documentation))

            """
        page += examples(Configuration.example)
        page += """
            .SH DATABASE
            The todos are in one table that other programs may read and write:
            .PP
            .nf
            .RS
            CREATE TABLE todos (
                id       INTEGER PRIMARY KEY AUTOINCREMENT,  \\-\\- never reused
                name     TEXT    NOT NULL,
                deadline TEXT,                               \\-\\- \\(aqYYYY\\-MM\\-DD\\(aq or NULL
                done     INTEGER NOT NULL DEFAULT 0          \\-\\- 0 or 1
            );
            .RE
            .fi
            .PP
            A change made by any program shows up in
            .B todo watch
            and
            .BR "todo ui" ,
            and is sent by the next
            .BR "todo sync" .
            .SH EXAMPLES

            """
        page += examples([
            "todo add \"Buy milk\" --due 2024-05-01", "todo list --outline", "todo done 3", "todo rm 3",
            "todo sync setup https://dav.example.com/alice/tasks/ --user alice"
        ])
        page +=
            ".SH SEE ALSO\n" + commands.map { ".BR todo\\-\(escape($0.name)) (1),\n" }.joined() + ".BR sqlite3 (1)\n"
        return withShortLines(page)
    }

    /// `todo-NAME(1)`.
    static func page(for command: CommandSpec) -> String {
        let title = "TODO-" + command.name.uppercased()
        var page = header(title)
        page += ".SH NAME\ntodo\\-\(escape(command.name)) \\- \(escape(command.abstract))\n"
        page += ".SH SYNOPSIS\n.nh\n\(escape(HelpFormatter.usage(of: command)))\n.hy\n"
        page += ".SH DESCRIPTION\n\(escape(command.abstract))\n"
        if let discussion = command.discussion { page += ".PP\n\(escape(discussion))\n" }
        if !command.arguments.isEmpty {
            page += ".SH ARGUMENTS\n"
            for argument in command.arguments {
                page += ".TP\n.I \(escape(argument.name))\(argument.repeats ? " ..." : "")\n\(escape(argument.help))\n"
            }
        }
        page += ".SH OPTIONS\n" + options(command.options + GlobalOptions.specs)
        if !command.examples.isEmpty { page += ".SH EXAMPLES\n" + examples(command.examples) }
        page += ".SH SEE ALSO\n.BR todo (1)\n"
        return withShortLines(page)
    }

    /// The page with every text line cut to 80 bytes (see ``wrapped(_:unfilled:)``); macro
    /// lines are left alone.
    private static func withShortLines(_ page: String) -> String {
        var unfilled = false
        return page.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            if line.hasPrefix(".nf") { unfilled = true }
            if line.hasPrefix(".fi") { unfilled = false }
            return line.hasPrefix(".") ? String(line) : wrapped(String(line), unfilled: unfilled)
        }.joined(separator: "\n")
    }

    private static func header(_ title: String) -> String {
        ".TH \(title) 1 \(date) \"todo \(TodoCLI.version)\" \"User Commands\"\n"
    }

    private static func options(_ options: [CommandSpec.Option]) -> String {
        options.map { option in
            let long = "\\fB\(escape(option.name))\\fR" + (option.value.map { " \\fI\(escape($0))\\fR" } ?? "")
            let label = option.short.map { "\\fB\(escape($0))\\fR, " + long } ?? long
            return ".TP\n\(label)\n\(escape(option.help))\n"
        }.joined()
    }

    private static func examples(_ examples: [String]) -> String {
        ".nf\n.RS\n" + examples.map { escape($0) + "\n" }.joined() + ".RE\n.fi\n"
    }

    /// Text as roff shows it literally: backslashes escaped, hyphens as minus signs (so options
    /// can be searched and copied), and a line that would start with a control character
    /// protected.
    static func escape(_ text: String) -> String {
        var out = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if !out.isEmpty { out += "\n" }
            var escaped = ""
            for character in line {
                switch character {
                case "\\": escaped += "\\e"
                case "-": escaped += "\\-"
                case "'": escaped += "\\(aq"
                default: escaped.append(character)
                }
            }
            if escaped.hasPrefix(".") { escaped = "\\&" + escaped }
            out += escaped.isEmpty ? ".PP" : escaped
        }
        return out
    }

    /// One input line cut at spaces into lines of at most 80 bytes (mandoc's style check):
    /// filled text joins them again, and an `unfilled` line (an example, shown as typed) is
    /// continued with a trailing backslash, which joins input lines without a break. mandoc
    /// measures a line after reading each character beyond ASCII as its escape (`→` is
    /// `\[u2192]`), so such a character counts as that many bytes.
    private static func wrapped(_ line: String, unfilled: Bool) -> String {
        let limit = unfilled ? 78 : 80
        func length(_ text: some StringProtocol) -> Int {
            text.unicodeScalars.reduce(0) { $0 + ($1.isASCII ? 1 : $1.value > 0xFFFF ? 9 : 8) }
        }
        guard length(line) > limit else { return line }
        var lines: [String] = []
        // The line's own indentation (a schema's columns, an example's) stays on its first line.
        let indent = String(line.prefix { $0 == " " })
        var current = indent
        var fresh = true  // nothing on the current line but its indentation yet
        for word in line.dropFirst(indent.count).split(separator: " ", omittingEmptySubsequences: false) {
            if !fresh && length(current) + 1 + length(word) > limit {
                lines.append(current)
                // A continued unfilled line keeps its space; a filled one gets it back from filling,
                // and a word that would start it with a control character ('.', "'") is protected.
                current =
                    unfilled ? " " + word : word.hasPrefix(".") || word.hasPrefix("'") ? "\\&" + word : String(word)
            } else {
                current += fresh ? String(word) : " " + word
            }
            fresh = false
        }
        lines.append(current)
        return lines.joined(separator: unfilled ? "\\\n" : "\n")
    }
}
