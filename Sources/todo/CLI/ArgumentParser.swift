/// The command line, parsed against the command specs: which command, its options, its arguments.
struct ParsedArguments: Equatable {
    /// The command's spec, or `nil` when none was named (`todo`, `todo --help`).
    var commandName: String?
    /// Option values by long name (`--due` -> `2024-05-01`); the last occurrence wins.
    var values: [String: String] = [:]
    /// Every value of each option, in the order given: for options that add up (`--search`).
    var allValues: [String: [String]] = [:]
    /// Flags that were given, by long name.
    var flags: Set<String> = []
    /// Positional arguments, in order.
    var positionals: [String] = []
    /// The options typed before a verb on todos (`todo --tag errands done`): they select the
    /// todos it acts on (``CommandSpec/selectsBefore``), apart from the verb's own options after
    /// it, so that `todo --tag errands edit --tag home` selects by one tag and adds the other.
    var leading = LeadingOptions()

    /// Options given before the command's name, kept apart from its own.
    struct LeadingOptions: Equatable {
        var allValues: [String: [String]] = [:]
        var flags: Set<String> = []
    }

    func value(_ name: String) -> String? { values[name] }
    /// Every value given for the option, in order; empty when it was not given.
    func allValues(_ name: String) -> [String] { allValues[name] ?? [] }

    /// Records a value of `option`.
    mutating func set(_ option: String, to value: String) {
        values[option] = value
        allValues[option, default: []].append(value)
    }
    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The options that select todos: those given before the verb, and with `includingOwn`
    /// (`done`, `undone`, `rm`, whose options after the verb select too) the command's own,
    /// after them; the positionals and the command's other options are left out.
    func selection(includingOwn: Bool) -> ParsedArguments {
        var result = ParsedArguments(commandName: commandName)
        for (name, values) in leading.allValues.sorted(by: { $0.key < $1.key }) {
            for value in values { result.set(name, to: value) }
        }
        result.flags = leading.flags
        guard includingOwn else { return result }
        for (name, values) in allValues.sorted(by: { $0.key < $1.key }) {
            for value in values { result.set(name, to: value) }
        }
        result.flags.formUnion(flags)
        return result
    }
}

/// A hand-written parser in the spirit of swift-argument-parser (no packages allowed).
///
/// Global options may come before or after the command; `--name=value` and `--name value`
/// are both accepted; `--` ends the options, so a todo may be named `--weird`. Errors are
/// usage errors with a "did you mean" hint when a known name is close.
struct ArgumentParser {
    let commands: [CommandSpec]
    /// What runs when no command is named (bare `todo`): its options are accepted before any
    /// command name, and checked again against the command if one follows.
    var defaultCommand: CommandSpec? = nil

    func parse(_ arguments: [String]) throws(CLIError) -> ParsedArguments {
        var result = ParsedArguments()
        var command: CommandSpec?
        var index = 0
        var optionsEnded = false
        // Options taken as the default command's before a command was named.
        var early: [String] = []
        while index < arguments.count {
            let token = arguments[index]
            index += 1
            if optionsEnded || token == "-" || !token.hasPrefix("-") {
                if command == nil && !optionsEnded {
                    let named = try lookUpCommand(
                        token, after: arguments[..<(index - 1)], followedBy: arguments[index...])
                    if named.selectsBefore {
                        // `todo --tag errands done`: what bare todo's options would list, chosen.
                        result.takeLeading(early)
                    } else if let name = early.first(where: { named.option(named: $0) == nil }) {
                        // `todo --today add x`: --today belongs to bare todo, not to add.
                        throw unknownOption(name, command: named)
                    }
                    command = named
                    result.commandName = token
                } else {
                    result.positionals.append(token)
                }
                continue
            }
            if token == "--" {
                optionsEnded = true
                continue
            }
            let (name, inlineValue) = Self.split(token)
            guard let option = GlobalOptions.spec(named: name) ?? (command ?? defaultCommand)?.option(named: name)
            else {
                throw unknownOption(name, command: command)
            }
            if command == nil, GlobalOptions.spec(named: name) == nil { early.append(option.name) }
            if option.value == nil {
                guard inlineValue == nil else {
                    throw .usage("option '\(option.name)' takes no value", hint: helpHint(command))
                }
                result.flags.insert(option.name)
            } else if let inlineValue {
                result.set(option.name, to: inlineValue)
            } else if index < arguments.count {
                result.set(option.name, to: arguments[index])
                index += 1
            } else {
                throw .usage("missing value for '\(option.name) <\(option.value ?? "value")>'", hint: helpHint(command))
            }
        }
        return result
    }

    /// Checks the positional arguments against the command's spec (skipped when help was asked).
    func validatePositionals(_ parsed: ParsedArguments, for command: CommandSpec) throws(CLIError) {
        var remaining = parsed.positionals[...]
        for argument in command.arguments {
            if remaining.isEmpty {
                if argument.optional { continue }
                throw .usage("missing argument <\(argument.name)>", hint: "Usage: \(HelpFormatter.usage(of: command))")
            }
            remaining = argument.repeats ? [] : remaining.dropFirst()
        }
        if let extra = remaining.first {
            throw .usage(
                "unexpected argument '\(extra)' for 'todo \(command.name)'",
                hint: "Usage: \(HelpFormatter.usage(of: command))")
        }
    }

    /// The command `name` names; for a word that is none, the usage error with the likeliest
    /// command, and for ids typed before a verb (`todo 463 done`, taskwarrior's order) the
    /// command line in todo's order (`todo done 463`).
    private func lookUpCommand(
        _ name: String, after before: ArraySlice<String>, followedBy rest: ArraySlice<String>
    ) throws(CLIError) -> CommandSpec {
        if let spec = commands.first(where: { $0.name == name }) { return spec }
        if let reordered = Suggestion.verbFirst(name, before: before, rest, among: commands) {
            throw .usage("unknown command '\(name)'", hint: "Did you mean '\(reordered)'?")
        }
        throw Suggestion.unknownCommand(name, among: commands.map(\.name))
    }

    private func unknownOption(_ name: String, command: CommandSpec?) -> CLIError {
        let known = GlobalOptions.specs.map(\.name) + ((command ?? defaultCommand)?.options.map(\.name) ?? [])
        let place = command.map { " for 'todo \($0.name)'" } ?? ""
        if let suggestion = Suggestion.closest(to: name, among: known) {
            return .usage(
                "unknown option '\(name)'\(place)", hint: "Did you mean '\(suggestion)'? See '\(helpCommand(command))'."
            )
        }
        return .usage("unknown option '\(name)'\(place)", hint: "See '\(helpCommand(command))'.")
    }

    private func helpHint(_ command: CommandSpec?) -> String { "See '\(helpCommand(command))'." }

    private func helpCommand(_ command: CommandSpec?) -> String {
        command.map { "todo \($0.name) --help" } ?? "todo --help"
    }

    /// Splits `--name=value` into its parts; other tokens have no inline value.
    private static func split(_ token: String) -> (String, String?) {
        guard token.hasPrefix("--"), let equals = token.firstIndex(of: "=") else { return (token, nil) }
        return (String(token[..<equals]), String(token[token.index(after: equals)...]))
    }
}

extension ParsedArguments {
    /// Moves the options named in `names` (given before the command's name) to ``leading``.
    fileprivate mutating func takeLeading(_ names: [String]) {
        for name in Set(names) {
            if let values = allValues.removeValue(forKey: name) { leading.allValues[name] = values }
            values.removeValue(forKey: name)
            if flags.remove(name) != nil { leading.flags.insert(name) }
        }
    }
}

/// "Did you mean" suggestions by edit distance.
enum Suggestion {
    /// Other tools' verbs for todo's commands (todo.txt-cli, taskwarrior, git, shells), for the
    /// words that are not a typo of a command: `ls` is two edits from `list`.
    static let peerVerbs = [
        "ls": "list", "a": "add", "do": "done", "x": "done", "del": "rm", "delete": "rm", "remove": "rm",
        "modify": "edit", "mod": "edit", "info": "show", "mv": "move"
    ]

    /// Taskwarrior's verbs that are an option of one of todo's commands: `task 3 annotate TEXT`
    /// is `todo edit 3 --append TEXT`.
    static let peerVerbOptions = [
        "annotate": (verb: "edit", option: "--append"), "append": (verb: "edit", option: "--append"),
        "prepend": (verb: "edit", option: "--prepend")
    ]

    /// The error for a command name that is neither a command nor an alias, with the command
    /// meant when there is a likely one (and, for a peer's verb, the alias that would make it one).
    static func unknownCommand(_ name: String, among commands: [String]) -> CLIError {
        if let (verb, option) = peerVerbOptions[name], commands.contains(verb) {
            return .usage("unknown command '\(name)'", hint: "Did you mean 'todo \(verb) ID \(option) TEXT'?")
        }
        if let verb = peerVerbs[name], commands.contains(verb) {
            let file = Configuration.defaultPath ?? "~/.config/todo/config"
            return .usage(
                "unknown command '\(name)'",
                hint: "Did you mean '\(verb)'? (or set an alias: alias.\(name) = \(verb) in \(file))")
        }
        return .usage(
            "unknown command '\(name)'",
            hint: closest(to: name, among: commands).map { "Did you mean '\($0)'? See 'todo --help'." }
                ?? "See 'todo --help' for the commands.")
    }

    /// `todo 463 done --yes` in todo's order, `todo done 463 --yes`, when `word` and the words
    /// after it up to a command are ids (`3`, `2,4`, `2-4`) and that command takes ids (a peer's
    /// verb counts: `todo 3 modify` is `todo edit 3`, `todo 3 annotate called` is `todo edit 3
    /// --append called`); `todo 463` alone is `todo show 463`.
    /// The words typed before the ids (options) stay before the verb. Nil for anything else.
    static func verbFirst(
        _ word: String, before: ArraySlice<String> = [], _ rest: ArraySlice<String>, among commands: [CommandSpec]
    ) -> String? {
        func isIDs(_ text: String) -> Bool { (try? CommandContext.idParts([text])) != nil }
        guard isIDs(word) else { return nil }
        let ids = [word] + rest.prefix(while: isIDs)
        let after = rest.dropFirst(ids.count - 1)
        let takesIDs = { (name: String) in
            commands.first { $0.name == name && $0.arguments.first?.name == "id" }
        }
        let verb: CommandSpec
        if let verbWord = after.first {
            if let (name, peerOption) = peerVerbOptions[verbWord], let named = takesIDs(name) {
                // `todo 3 annotate called` is `todo edit 3 --append called`: the words after it one text.
                let text = after.dropFirst().joined(separator: " ")
                let words =
                    ["todo"] + before.map(quotedIfNeeded) + [named.name] + ids + [peerOption, quotedIfNeeded(text)]
                return TodoText.sanitized(words.joined(separator: " "))
            }
            guard let named = takesIDs(verbWord) ?? peerVerbs[verbWord].flatMap(takesIDs) else { return nil }
            verb = named
        } else {
            // `todo 463`: taskwarrior's way to show one task.
            guard ids.count == 1, Int64(word) != nil, let show = takesIDs("show") else { return nil }
            verb = show
        }
        let words = ["todo"] + before.map(quotedIfNeeded) + [verb.name] + ids + after.dropFirst().map(quotedIfNeeded)
        return TodoText.sanitized(words.joined(separator: " "))
    }

    /// A word as a shell needs it to stay one word: quoted when it has a space or a quote.
    static func quotedIfNeeded(_ word: String) -> String {
        guard word.isEmpty || word.contains(where: { " \t'\"$`\\|&;<>()*?".contains($0) }) else { return word }
        return "'" + word.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }

    /// The candidate closest to `word`, if it is close enough to be a likely typo.
    static func closest(to word: String, among candidates: [String]) -> String? {
        // A typo changes the length by a few characters at most; skipping the others keeps a
        // pasted paragraph from costing a quadratic distance per candidate.
        let length = word.count
        let scored = candidates.filter { abs($0.count - length) <= 3 }.map { ($0, distance(word, $0)) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        // One edit (a transposition counts as one) for words up to 8 letters, two for longer:
        // two edits in a short word make another word ("report" is two from "export").
        let allowance = best.0.count > 8 ? 2 : 1
        return best.1 <= allowance ? best.0 : nil
    }

    /// Edit distance over Characters where swapping two neighbours counts as one edit
    /// ("lsit" is one typo from "list"). O(n*m) on short words.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
