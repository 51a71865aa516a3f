import TodoStore

#if canImport(Glibc)
    import Glibc
#endif

/// The one reader of todo's `key = value` files: the configuration (``Configuration``) and
/// `todo ui`'s state file (``UIStateFile``).
///
/// The form is git-config's simple one: `key = value` lines, blank lines, whole-line comments
/// starting with `#` or `;`, and `[section]` headers that prefix the keys below them
/// (`[alias]` then `ls = list` is `alias.ls = list`). A value is the rest of the line, trimmed,
/// so a `#` inside it is kept: a comment is only ever a whole line.
enum KeyValueFile {
    /// One `key = value` line.
    struct Entry: Equatable {
        /// The key with its section: `alias.ls`.
        var key: String
        var value: String
        /// The 1-based line it was read from, for messages.
        var line: Int
    }

    /// A line that is none of the forms above.
    struct SyntaxError: Error, Equatable {
        var line: Int
        var message: String
    }

    /// The entries of `text`, in file order (a key given twice is there twice: the last one
    /// counts, as in git).
    static func parse(_ text: String) throws(SyntaxError) -> [Entry] {
        var entries: [Entry] = []
        var section = ""
        for (index, rawLine) in Self.lines(text).enumerated() {
            let number = index + 1
            // Tabs indent as spaces do.
            let line = String(rawLine.map { $0 == "\t" ? " " : $0 }).trimmingSpaces
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]"), line.count > 2, isName(line.dropFirst().dropLast()) else {
                    throw SyntaxError(line: number, message: "expected a section header such as [alias]")
                }
                section = line.dropFirst().dropLast() + "."
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                throw SyntaxError(line: number, message: "expected 'key = value'")
            }
            let key = section + String(line[..<equals]).trimmingSpaces
            guard isName(key[...]), !key.hasPrefix("."), !key.hasSuffix("."), !key.contains("..") else {
                throw SyntaxError(line: number, message: "'\(key)' is not a key: use letters, digits, '-', '_' and '.'")
            }
            entries.append(
                Entry(key: key, value: String(line[line.index(after: equals)...]).trimmingSpaces, line: number))
        }
        return entries
    }

    /// The lines of `text`, ended by LF or CRLF (which Swift reads as one Character).
    private static func lines(_ text: String) -> [Substring] {
        text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
    }

    /// Letters, digits, `-`, `_` and `.`: the characters of keys and section names.
    private static func isName(_ text: Substring) -> Bool {
        !text.isEmpty
            && text.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                    || "-_.".unicodeScalars.contains($0)
            }
    }

    /// A value split into words at spaces; single or double quotes keep spaces in a word
    /// (`add --due fri "Buy milk"`), with no escapes inside them. Nil for an unclosed quote.
    static func words(_ value: String) -> [String]? {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        for character in value {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
                inWord = true
            } else if character == " " {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
        }
        guard quote == nil else { return nil }
        if inWord { words.append(current) }
        return words
    }
}

/// The user's configuration: default options per command and aliases, read from
/// `$XDG_CONFIG_HOME/todo/config` (else `~/.config/todo/config`), or from `$TODO_CONFIG`.
///
/// Read before the command line is parsed, so that aliases and defaults are parsed as if typed.
/// The whole file is checked when it is read: a bad line is a usage error naming the file and
/// the line, before any command runs, so nothing is changed.
struct Configuration {
    /// A default-options or alias line: its words and where it was read.
    struct Line {
        var words: [String]
        var entry: KeyValueFile.Entry
    }

    /// The file read, for messages; nil when none was (`--no-config`, no HOME).
    var path: String?
    /// `COMMAND.options`, by command name.
    var options: [String: Line] = [:]
    /// `alias.NAME`, by alias name.
    var aliases: [String: Line] = [:]
    /// `bulk`: how many todos a filter may select before a verb asks (0: no limit).
    var bulk = Configuration.defaultBulk
    /// `undo.depth`: how many changes `todo undo` keeps.
    var undoDepth = TodoRepository.defaultUndoDepth

    /// taskwarrior's `bulk` default: a filter that selects more than 3 todos asks first.
    static let defaultBulk = 3
    /// The most `undo.depth` may be: enough for years, and a bound on the file.
    static let maxUndoDepth = 1_000_000

    /// The documentation of the file, for `todo help config`, the manual and the guide
    /// (docs/configuration.md): one text, so they cannot disagree.
    static let documentation = """
        todo reads $TODO_CONFIG if it is set, else $XDG_CONFIG_HOME/todo/config (a relative
        XDG_CONFIG_HOME is ignored, as the XDG spec says), else ~/.config/todo/config. A missing
        file is fine. --no-config (or TODO_CONFIG=/dev/null) ignores it: scripts that must not
        depend on a user's settings use it.

        The file has git-config's simple form: 'key = value' lines, comments on lines of their own
        starting with # or ;, and [section] headers that put their name before the keys below
        them. A value is split into words at spaces; quotes ("..." or '...') keep spaces in a word.

        COMMAND.options = OPTIONS: options given to COMMAND before the ones typed, which win where
        an option takes one value (list.options = --sort name). Only options, no arguments. A flag
        given there stays given: 'todo --no-config COMMAND' runs without it.

        alias.NAME = COMMAND [WORDS]: 'todo NAME ...' runs 'todo COMMAND WORDS ...', with COMMAND's
        default options. Aliases are not expanded again: COMMAND must be one of todo's commands,
        and an alias may not take a command's name. An alias's mistakes are reported when it is
        used.

        bulk = N: a filter before a verb (todo --tag errands done) that selects more than N todos
        shows how many and asks first on a terminal, and is refused in a pipe unless --yes is
        given (default 3, as taskwarrior's bulk; 0 never asks).

        undo.depth = N (or depth = N under [undo]): how many changes 'todo undo' keeps, from 1 to
        1000000 (default 1000). Each kept change takes the room of the rows it changed; the
        oldest is forgotten when a new one is recorded.

        A bad line is an error (exit status 2) that names the file and the line, and no command
        runs until it is fixed.
        """

    /// The example file shown under the documentation.
    static let example = [
        "# ~/.config/todo/config", "bulk = 10", "", "[list]", "options = --sort name", "", "[undo]", "depth = 5000",
        "", "[alias]", "ls = list --undone", "a = add", "milk = add --due fri \"Buy milk\""
    ]

    /// The file todo reads: `$TODO_CONFIG`, else the XDG place; nil with no HOME.
    static var defaultPath: String? {
        if let path = Environment.value("TODO_CONFIG") { return path }
        // The XDG spec says a relative XDG_CONFIG_HOME is invalid and must be ignored.
        if let configHome = Environment.value("XDG_CONFIG_HOME"), configHome.hasPrefix("/") {
            return configHome + "/todo/config"
        }
        return Environment.value("HOME").map { $0 + "/.config/todo/config" }
    }

    /// Reads and checks the file at `path`; a missing file is an empty configuration.
    static func load(path: String?, commands: [CommandSpec]) throws(CLIError) -> Configuration {
        var configuration = Configuration(path: path)
        guard let path else { return configuration }
        if access(path, F_OK) != 0 && errno == ENOENT { return configuration }
        let bytes: [UInt8]
        do {
            bytes = try FileContents.read(path)
        } catch {
            throw .usage(error.message, hint: configHint)
        }
        let entries: [KeyValueFile.Entry]
        do {
            entries = try KeyValueFile.parse(String(decoding: bytes, as: UTF8.self))
        } catch {
            throw configuration.error(line: error.line, error.message)
        }
        let parser = ArgumentParser(commands: commands)
        for entry in entries {
            guard let words = KeyValueFile.words(entry.value) else {
                throw configuration.error(line: entry.line, "a quote is not closed")
            }
            let parts = entry.key.split(separator: ".", maxSplits: 1).map(String.init)
            if entry.key == "bulk" {
                configuration.bulk = try configuration.number(entry, in: 0...Int.max)
            } else if entry.key == "undo.depth" {
                configuration.undoDepth = try configuration.number(entry, in: 1...maxUndoDepth)
            } else if parts.count == 2, parts[0] == "alias" {
                configuration.aliases[parts[1]] = Line(words: words, entry: entry)
            } else if parts.count == 2, parts[1] == "options", commands.contains(where: { $0.name == parts[0] }) {
                // Checked now, as the command's parser reads them: options it knows, no arguments.
                let parsed: ParsedArguments
                do {
                    parsed = try parser.parse([parts[0]] + words)
                } catch {
                    throw configuration.error(line: entry.line, "\(entry.key): \(error.message)")
                }
                if let argument = parsed.positionals.first {
                    throw configuration.error(
                        line: entry.line, "\(entry.key) takes options only, and '\(argument)' is not one")
                }
                configuration.options[parts[0]] = Line(words: words, entry: entry)
            } else {
                throw configuration.error(
                    line: entry.line,
                    "unknown key '\(entry.key)': todo knows COMMAND.options, alias.NAME, bulk and undo.depth")
            }
        }
        return configuration
    }

    /// The value of a number setting, within `range`.
    private func number(_ entry: KeyValueFile.Entry, in range: ClosedRange<Int>) throws(CLIError) -> Int {
        guard let value = Int(entry.value), range.contains(value) else {
            let bounds =
                range.upperBound == Int.max
                ? "\(range.lowerBound) or more" : "from \(range.lowerBound) to \(range.upperBound)"
            throw error(line: entry.line, "\(entry.key) is a whole number \(bounds), not '\(entry.value)'")
        }
        return value
    }

    /// The hint under every configuration error.
    static let configHint = "See 'todo help config'; 'todo --no-config' ignores the file."

    /// A usage error about line `line` of the file: `PATH:LINE: message`.
    func error(line: Int, _ message: String) -> CLIError {
        .usage("\(path ?? "config"):\(line): \(message)", hint: Self.configHint)
    }

    /// `arguments` with the alias in the command's place expanded and the command's default
    /// options put right after its name, so that options typed later win.
    ///
    /// - Throws: a usage error, naming the configuration line, for an alias that names no
    ///   command, names another alias, or has a command's name.
    func expand(_ arguments: [String], commands: [CommandSpec]) throws(CLIError) -> [String] {
        guard let index = Self.commandIndex(in: arguments, commands: commands) else { return arguments }
        let name = arguments[index]
        var expansion = [name]
        if commands.contains(where: { $0.name == name }) {
            if let alias = aliases[name] {
                throw error(
                    line: alias.entry.line, "alias.\(name) has the name of a command, which an alias may not take")
            }
        } else if let alias = aliases[name] {
            guard let target = alias.words.first else {
                throw error(line: alias.entry.line, "alias.\(name) is empty: it needs a command")
            }
            guard commands.contains(where: { $0.name == target }) else {
                let what =
                    aliases[target] != nil
                    ? "the alias '\(target)' (aliases are not expanded again)" : "'\(target)', which is not a command"
                throw error(line: alias.entry.line, "alias.\(name) names \(what)")
            }
            expansion = alias.words
        }
        if let command = expansion.first, let defaults = options[command] {
            expansion.insert(contentsOf: defaults.words, at: 1)
        }
        return Array(arguments[..<index]) + expansion + arguments[(index + 1)...]
    }

    /// Whether `arguments` ask to ignore the configuration (`--no-config` before any `--`).
    static func isIgnored(by arguments: [String], commands: [CommandSpec]) -> Bool {
        var ignored = false
        _ = scan(arguments, commands: commands) { token in
            if token == "--no-config" { ignored = true }
        }
        return ignored
    }

    /// Where the command's name is: the first word that is not an option or an option's
    /// value, before any `--`; as ``ArgumentParser`` reads it.
    static func commandIndex(in arguments: [String], commands: [CommandSpec]) -> Int? {
        scan(arguments, commands: commands) { _ in }
    }

    /// Walks the options before the command name, and after it up to `--`, calling `option`
    /// with each; returns the command name's index.
    private static func scan(
        _ arguments: [String], commands: [CommandSpec], option: (String) -> Void
    ) -> Int? {
        // An option takes a value under every command that has it (--due, --search), so the
        // words after the ones that do are skipped without knowing the command.
        let valued = Set(
            (GlobalOptions.specs + commands.flatMap(\.options)).filter { $0.value != nil }
                .flatMap { [$0.name] + ($0.short.map { [$0] } ?? []) })
        var commandIndex: Int?
        var index = 0
        while index < arguments.count {
            let token = arguments[index]
            index += 1
            if token == "--" { break }
            if token == "-" || !token.hasPrefix("-") {
                if commandIndex == nil { commandIndex = index - 1 }
                continue
            }
            option(token)
            if !token.contains("="), valued.contains(token) { index += 1 }
        }
        return commandIndex
    }
}
