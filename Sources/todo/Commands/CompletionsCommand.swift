import TodoStore

extension Command {
    /// `todo completions bash|zsh|fish`: prints a completion script generated from the specs.
    static let completions = Command(
        spec: CommandSpec(
            name: "completions",
            abstract: "Print a shell completion script.",
            arguments: [.init(name: "shell", help: "The shell to complete in: bash, zsh or fish.")],
            discussion: """
                The script completes commands, options and their values, and todo ids with
                their names, read with 'todo list --json' (and the --db on the line) as you type.
                zsh: run compinit before sourcing it, or save it as _todo in a folder on $fpath.
                """,
            examples: [
                "source <(todo completions bash)",
                "source <(todo completions zsh)",
                "todo completions fish > ~/.config/fish/completions/todo.fish",
            ]
        ),
        run: { (context) throws(CLIError) in
            let name = context.arguments.positionals.first ?? ""
            guard let shell = CompletionShell(rawValue: name) else {
                throw .usage("'\(name)' is not a supported shell", hint: "Use bash, zsh or fish.")
            }
            let script = CompletionScript(commands: TodoCLI.commands.map(\.spec), globals: GlobalOptions.specs)
            context.out.write(script.text(for: shell))
        }
    )
}

/// The shells `todo completions` writes scripts for.
enum CompletionShell: String, CaseIterable, Sendable { case bash, zsh, fish }

/// What the value of an option or a positional argument completes to.
///
/// Specs say only that an option takes a value (`--sort <order>`), not which values, so the
/// few fixed vocabularies live here, keyed by name; any new option or argument still
/// completes by name, and completes its value as soon as it is given an entry.
enum CompletionValues: Equatable, Sendable {
    /// Free text (a name, a number): nothing to offer.
    case nothing
    case words([String])
    case files
    /// Todo ids, with their names where the shell can show them.
    case todoIDs
    /// The command names, with their abstracts where the shell can show them.
    case commands

    /// The values of `option`: its vocabulary, else files for a path, else nothing.
    static func of(_ option: CommandSpec.Option) -> CompletionValues {
        switch option.name {
        case "--sort": .words(TodoFetchRequest.Order.allCases.map(\.rawValue))
        case "--color": .words(["auto", "always", "never"])
        case "--due": .words(["today", "tomorrow"])
        case "--from": .words(["json", "taskwarrior", "todotxt"])
        default: ["path", "file"].contains(option.value) ? .files : .nothing
        }
    }

    /// The values of a positional argument, by its name.
    static func of(_ argument: CommandSpec.Argument) -> CompletionValues {
        switch argument.name {
        case "id": .todoIDs
        case "command": .commands
        case "shell": .words(CompletionShell.allCases.map(\.rawValue))
        case "file", "path": .files
        default: .nothing
        }
    }
}

/// Completion scripts for bash, zsh and fish, generated from the command specs.
///
/// Everything the scripts know (commands, abstracts, options, which options take values) is
/// written out from the specs, so a new command or flag completes without touching this type.
/// Ids are the exception: they are read when completing, from `todo list --json`, so they
/// are always those of the database in use.
struct CompletionScript {
    let commands: [CommandSpec]
    let globals: [CommandSpec.Option]

    /// The script for `shell`.
    func text(for shell: CompletionShell) -> String {
        switch shell { case .bash: bash(); case .zsh: zsh(); case .fish: fish() }
    }

    /// Turns `list --json` lines into `id<TAB>name`: the name unescaped, control escapes as
    /// spaces (descriptions are one line). GNU sed, so no jq is needed; the id and name are
    /// the first two keys of every todo object (BRIEF 3), and each object is one line.
    static let idsSedProgram = #"s/^[[:space:]]*{"id": *\([0-9][0-9]*\), *"name": *"\(\([^"\\]\|\\.\)*\)".*/\1\t\2/;T;s/\\\\/\x01/g;s/\\[nrt]/ /g;s/\\u[0-9a-fA-F]\{4\}/ /g;s/\\\(.\)/\1/g;s/\x01/\\/g;p"#

    private var commandNames: String { commands.map(\.name).joined(separator: " ") }

    /// Long and short names of options, for shell patterns and word lists.
    private static func names(_ options: [CommandSpec.Option]) -> [String] {
        options.flatMap { [$0.name] + ($0.short.map { [$0] } ?? []) }
    }

    /// The bash script: `_todo` walks COMP_WORDS as todo's parser would, then fills COMPREPLY.
    private func bash() -> String {
        // `command,option` patterns: `*,--db|list,--sort|...`.
        let valued = ([("*", globals)] + commands.map { ($0.name, $0.options) }).flatMap { command, options in
            Self.names(options.filter { $0.value != nil }).map { "\(command),\($0)" }
        }
        var seen: Set<String> = []
        let valuedOptions = (globals + commands.flatMap(\.options)).filter { $0.value != nil && seen.insert($0.name).inserted }
        let options = commands.compactMap { command -> String? in
            command.options.isEmpty ? nil : "        \(command.name)) echo \"\(Self.names(command.options).joined(separator: " "))\" ;;"
        }
        let optionValues = valuedOptions.compactMap { option -> String? in
            bashAction(CompletionValues.of(option)).map { "        \(Self.names([option]).joined(separator: "|"))) \($0) ;;" }
        }
        let argumentValues = commands.compactMap { command -> String? in
            let branches = command.arguments.enumerated().compactMap { index, argument -> String? in
                bashAction(CompletionValues.of(argument)).map { "(($2 \(argument.repeats ? ">=" : "==") \(index))); then \($0)" }
            }
            return branches.isEmpty ? nil : "        \(command.name)) if " + branches.joined(separator: "; elif ") + "; fi ;;"
        }
        return #"""
            # bash completion for todo, generated by `todo completions bash`. Load it with
            #   source <(todo completions bash)

            # The helpers read `cur` and `db` from _todo (bash scoping is dynamic).
            _todo_words() { mapfile -t COMPREPLY < <(compgen -W "$1" -- "$cur"); }
            _todo_files() { compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- "$cur"); }

            # Offers the ids `todo list --json` prints for the --db on the line (bash shows no names).
            _todo_ids() {
                local program=${COMP_WORDS[0]}
                local -a args=(list --json)
                type -P "$program" >/dev/null 2>&1 || program=todo
                [[ -n $db ]] && args=(--db "${db/#\~/$HOME}" "${args[@]}")
                _todo_words "$("$program" "${args[@]}" 2>/dev/null | sed -n '\#(Self.idsSedProgram)' | cut -f1)"
            }

            # Whether option $1 takes a value, in command $2 (empty before the command).
            _todo_takes_value() { case $2,$1 in \#(valued.joined(separator: "|"))) return 0 ;; esac; return 1; }

            # The options of command $1, then the global ones.
            _todo_options() {
                case $1 in
            \#(options.joined(separator: "\n"))
                esac
                echo "\#(Self.names(globals).joined(separator: " "))"
            }

            # Completes the value of option $1.
            _todo_option_values() {
                case $1 in
            \#(optionValues.joined(separator: "\n"))
                esac
            }

            # Completes positional argument number $2 (from 0) of command $1.
            _todo_argument_values() {
                case $1 in
            \#(argumentValues.joined(separator: "\n"))
                esac
            }

            # The completion function: reads COMP_WORDS and COMP_CWORD, fills COMPREPLY.
            _todo() {
                local cur=${COMP_WORDS[COMP_CWORD]} prev="" command="" db="" word option=""
                local ended=0 positionals=0 i
                ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD-1]}
                COMPREPLY=()
                # Walk the words before the cursor as todo parses them: the command, --db, how
                # many arguments so far. bash splits `--db=x` into `--db`, `=`, `x`.
                for ((i = 1; i < COMP_CWORD; i++)); do
                    word=${COMP_WORDS[i]}
                    if [[ $word == = ]]; then
                        ((i++))
                    elif ((ended)) || [[ $word != -?* ]]; then
                        if [[ -z $command ]] && ((!ended)); then command=$word; else positionals=$((positionals + 1)); fi
                    elif [[ $word == -- ]]; then
                        ended=1
                    elif [[ ${COMP_WORDS[i+1]} == = ]]; then
                        [[ $word == --db ]] && db=${COMP_WORDS[i+2]}
                        ((i += 2))
                    elif _todo_takes_value "$word" "$command"; then
                        [[ $word == --db ]] && db=${COMP_WORDS[i+1]}
                        ((i++))
                    fi
                done
                # The option whose value is being completed: `--sort <TAB>`, `--sort=<TAB>`, `--sort=n<TAB>`.
                if ((!ended)); then
                    option=$prev
                    [[ $prev == = ]] && ((COMP_CWORD >= 2)) && option=${COMP_WORDS[COMP_CWORD-2]}
                fi
                [[ $cur == = ]] && cur=""
                if [[ $option == -?* ]] && _todo_takes_value "$option" "$command"; then
                    _todo_option_values "$option"
                elif [[ $cur == -* ]] && ((!ended)); then
                    _todo_words "$(_todo_options "$command")"
                elif [[ -z $command ]]; then
                    ((ended)) || _todo_words "\#(commandNames)"
                else
                    _todo_argument_values "$command" "$positionals"
                fi
                return 0
            }

            complete -F _todo todo

            """#
    }

    /// The bash code that fills COMPREPLY with `values`, or `nil` when there is nothing to offer.
    private func bashAction(_ values: CompletionValues) -> String? {
        switch values {
        case .nothing: nil
        case .words(let words): "_todo_words \"\(words.joined(separator: " "))\""
        case .files: "_todo_files"
        case .todoIDs: "_todo_ids"
        case .commands: "_todo_words \"\(commandNames)\""
        }
    }
}

extension CompletionScript {
    /// The zsh script: `_arguments` specs per command, ids and commands through `_describe`.
    fileprivate func zsh() -> String {
        let describe = { (name: String, text: String) in Self.zshQuoted(name.replacing(":", with: "\\:") + ":" + text) }
        let branches = commands.map { command in
            let arguments = command.arguments.enumerated().map { index, argument in
                let position = argument.repeats ? "*" : "\(index + 1)" + (argument.optional ? ":" : "")
                return Self.zshQuoted("\(position):\(argument.name):\(zshAction(CompletionValues.of(argument)))")
            }
            let specs = ["$globals"] + command.options.map(zshSpec) + arguments
            return "      (\(command.name)) _arguments \(specs.joined(separator: " ")) && ret=0 ;;"
        }
        return #"""
            #compdef todo
            # zsh completion for todo, generated by `todo completions zsh`. Load it with
            #   source <(todo completions zsh)     (after compinit)
            # or save it as _todo in a folder on $fpath.

            # Offers the todos of `todo list --json` (on the --db of the line) as ids described by names.
            _todo_ids() {
              local program=${todo_words[1]:-todo} at=${todo_words[(I)--db]} db=${${(M)todo_words:#--db=*}[-1]#--db=}
              local -a args=(list --json) ids
              (( at )) && db=$todo_words[at+1]
              program=${program/#\~/$HOME}
              (( $+commands[$program] )) || [[ -x $program ]] || program=todo
              [[ -n $db ]] && args=(--db ${db/#\~/$HOME} $args)
              ids=(${(f)"$(command $program $args 2>/dev/null | sed -n '\#(Self.idsSedProgram)')"})
              ids=(${${ids//\\/\\\\}/$'\t'/:})  # _describe reads backslashes as escapes
              _describe -t todo-ids 'todo' ids
            }

            # Offers the commands described by their abstracts.
            _todo_commands() {
              local -a commands=(
            \#(commands.map { "    " + describe($0.name, $0.abstract) }.joined(separator: "\n"))
              )
              _describe -t commands 'todo command' commands
            }

            # The completion function: global options and the command, then that command's own spec.
            _todo() {
              local curcontext=$curcontext state state_descr line ret=1
              local -a todo_words=("${words[@]}")
              typeset -A opt_args
              local -a globals=(
            \#(globals.map { "    " + zshSpec($0) }.joined(separator: "\n"))
              )
              # (-): options after the command belong to it, so the nested _arguments sees them.
              _arguments -C $globals '(-)1: :_todo_commands' '(-)*:: :->command' && ret=0
              if [[ $state == command ]]; then
                curcontext=${curcontext%:*:*}:todo-$words[1]:
                case $words[1] in
            \#(branches.joined(separator: "\n"))
                esac
              fi
              return ret
            }

            if [[ $funcstack[1] == _todo ]]; then
              _todo "$@"
            else
              compdef _todo todo
            fi

            """#
    }

    /// One `_arguments` spec (or two, for a short alias): `'--sort=[help]:order:(due name status)'`.
    private func zshSpec(_ option: CommandSpec.Option) -> String {
        let help = "[" + Self.zshEscaped(option.help) + "]"
        let value = option.value.map { ":\($0):\(zshAction(CompletionValues.of(option)))" } ?? ""
        let equals = option.value == nil ? "" : "="
        guard let short = option.short else { return Self.zshQuoted(option.name + equals + help + value) }
        let exclusive = "(\(short) \(option.name))"
        return [short, option.name + equals].map { Self.zshQuoted(exclusive + $0 + help + value) }.joined(separator: " ")
    }

    /// The `_arguments` action for `values`; a lone space shows the message and offers nothing.
    private func zshAction(_ values: CompletionValues) -> String {
        switch values {
        case .nothing: " "
        case .words(let words): "(\(words.joined(separator: " ")))"
        case .files: "_files"
        case .todoIDs: "_todo_ids"
        case .commands: "_todo_commands"
        }
    }

    /// Escapes what `_arguments` reads inside `[help]`.
    private static func zshEscaped(_ text: String) -> String {
        text.replacing("\\", with: "\\\\").replacing("[", with: "\\[").replacing("]", with: "\\]").replacing(":", with: "\\:")
    }

    /// `text` in zsh single quotes (as in bash: a quote is `'\''`).
    private static func zshQuoted(_ text: String) -> String {
        "'" + text.replacing("'", with: #"'\''"#) + "'"
    }

    /// The fish script: one `complete` line per command, option and argument.
    fileprivate func fish() -> String {
        let valuedGlobals = Self.names(globals.filter { $0.value != nil }).joined(separator: " ")
        let described = commands.map { "\($0.name) \(Self.fishQuoted($0.abstract))" }.joined(separator: " ")
        var lines = ["complete -c todo -n __todo_needs_command -a '(__todo_commands)'"]
        lines += globals.map { fishOption($0, condition: "") }
        for command in commands {
            let condition = "-n " + Self.fishQuoted("__todo_using \(command.name)")
            lines += command.options.map { fishOption($0, condition: condition) }
            lines += command.arguments.map { fishValues(.of($0)) }.filter { !$0.isEmpty }.map { "complete -c todo \(condition) \($0)" }
        }
        return #"""
            # fish completion for todo, generated by `todo completions fish`. Install it with
            #   todo completions fish > ~/.config/fish/completions/todo.fish

            # Prints the command on the line: the first word that is neither an option nor its value.
            function __todo_command
                set -l tokens (commandline -opc)[2..-1]
                while set -q tokens[1]
                    if contains -- $tokens[1] \#(valuedGlobals)
                        set -e tokens[1]
                    else if not string match -q -- '-?*' $tokens[1]
                        echo $tokens[1]; and return 0
                    end
                    set -e tokens[1]
                end
                return 1
            end

            # Conditions and the described command list for the `complete` lines below.
            function __todo_needs_command; not __todo_command >/dev/null; end
            function __todo_commands; printf '%s\t%s\n' \#(described); end
            function __todo_using; set -l command (__todo_command); and test "$command" = $argv[1]; end

            # Prints "id<TAB>name" per todo, from `todo list --json` on the --db given on the line.
            function __todo_ids
                set -l tokens (commandline -opc)
                set -l program $tokens[1]
                set -l db (string replace -rf -- '^--db=(.*)' '$1' $tokens)
                set -l args list --json
                command -sq $program; or set program todo
                set -l at (contains -i -- --db $tokens); and set -q tokens[(math $at + 1)]; and set db $tokens[(math $at + 1)]
                set -q db[1]; and set args --db (string replace -r -- '^~' $HOME $db[-1]) $args
                command $program $args 2>/dev/null | sed -n \#(Self.fishQuoted(Self.idsSedProgram))
            end

            complete -c todo -f
            \#(lines.joined(separator: "\n"))

            """#
    }

    /// One `complete` line for an option, under `condition` (`-n '…'`, or empty for a global one).
    private func fishOption(_ option: CommandSpec.Option, condition: String) -> String {
        var parts = ["complete -c todo", condition, option.short.map { "-s \($0.dropFirst())" } ?? "", "-l \(option.name.dropFirst(2))"]
        if option.value != nil {
            let values = CompletionValues.of(option)
            // -r: the next word is this option's value; -x also keeps fish from offering files.
            parts += [values == .files ? "-r" : "-x", fishValues(values)]
        }
        parts.append("-d \(Self.fishQuoted(option.help))")
        return parts.filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// The `complete` flags that offer `values`, or "" when there is nothing to offer.
    private func fishValues(_ values: CompletionValues) -> String {
        switch values {
        case .nothing: ""
        case .words(let words): "-a \(Self.fishQuoted(words.joined(separator: " ")))"
        case .files: "-F"
        case .todoIDs: "-a '(__todo_ids)'"
        case .commands: "-a '(__todo_commands)'"
        }
    }

    /// `text` in fish single quotes, where `\\` and `\'` are the only escapes.
    private static func fishQuoted(_ text: String) -> String {
        "'" + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
    }
}
