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
                Ids come in numeric order; past \(CompletionScript.idLimit) todos, the newest
                \(CompletionScript.idLimit) (the largest ids), newest first.
                zsh: run compinit before sourcing it, or save it as _todo in a folder on $fpath.
                """,
            examples: [
                "source <(todo completions bash)",
                "source <(todo completions zsh)",
                "todo completions fish > ~/.config/fish/completions/todo.fish"
            ]
        ),
        run: { (context) throws(CLIError) in
            let name = context.arguments.positionals.first ?? ""
            guard let shell = CompletionShell(rawValue: name) else {
                throw .usage("'\(name)' is not a supported shell", hint: "Use bash, zsh or fish.")
            }
            let script = CompletionScript.todo
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
    /// Todo ids, with their names where the shell can show them: those `todo list --json`
    /// prints with `filter` (`--undone` for `done`, so only what the command can change), and
    /// never one already on the line.
    case todoIDs(filter: String?)
    /// The tags `todo tags` prints for the database in use, as written there (`+work`).
    case tags
    /// The names of the lists `todo lists --names` prints for the database in use.
    case lists
    /// The command names, with their abstracts where the shell can show them.
    case commands

    /// The values of `option`: its vocabulary, else files for a path, else nothing.
    static func of(_ option: CommandSpec.Option) -> CompletionValues {
        switch option.name {
        case "--sort": .words(TodoFetchRequest.Order.allCases.map(\.rawValue))
        case "--color": .words(["auto", "always", "never"])
        case "--due", "--due-before", "--due-after", "--until", "--start", "--completed-after", "--completed-before",
            "--created-after", "--created-before":
            .words(DueDateParser.completionWords)
        case "--every", "--after": .words(RepeatForm.completionWords)
        case "--from": .words(Command.importFormats)
        case "--format": .words(Command.exportFormats)
        case "--priority": .words(TodoPriority.Level.allCases.map(\.rawValue) + ["none"])
        case "--by": .words(CommandContext.groupingWords)
        case "--status": .words(TodoStatus.allCases.map(\.rawValue))
        case "--tag", "--untag", "--any-tag", "--no-tag": .tags
        case "--list", "--to", "--move-to", "--only": .lists
        default: ["path", "file"].contains(option.value) ? .files : .nothing
        }
    }

    /// The values of a positional argument of `command`, by its name.
    static func of(_ argument: CommandSpec.Argument, in command: String) -> CompletionValues {
        switch argument.name {
        case "id":
            .todoIDs(
                filter: ["done", "skip", "start", "stop", "cancel"].contains(command)
                    ? "--undone" : command == "undone" ? "--done" : nil)
        case "command": .commands
        case "shell": .words(CompletionShell.allCases.map(\.rawValue))
        case "action":
            command == "sync" ? .words(SyncRun.actions) : command == "lists" ? .words(ListsRun.actions) : .nothing
        case "file", "path": .files
        case "name": command == "lists" ? .lists : .nothing
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
    /// The options of bare `todo` (no command): offered before a command is named.
    var bare: [CommandSpec.Option] = []

    /// The script of todo's own commands and options, which `todo completions` prints.
    static let todo = CompletionScript(
        commands: TodoCLI.commands.map(\.spec), globals: GlobalOptions.specs, bare: Command.undoneOverview.spec.options)

    /// The script for `shell`.
    func text(for shell: CompletionShell) -> String {
        switch shell {
        case .bash: bash()
        case .zsh: zsh()
        case .fish: fish()
        }
    }

    /// Turns `list --json` lines into `id<TAB>name`: the name unescaped, control escapes as
    /// spaces (descriptions are one line). GNU sed, so no jq is needed; the id and name are
    /// the first two keys of every todo object (`JSON.object(_:)`), and each object is one line.
    static let idsSedProgram =
        #"s/^[[:space:]]*{"id": *\([0-9][0-9]*\), *"name": *"\(\([^"\\]\|\\.\)*\)".*/\1\t\2/;T;s/\\\\/\x01/g;s/\\[nrt]/ /g;s/\\u[0-9a-fA-F]\{4\}/ /g;s/\\\(.\)/\1/g;s/\x01/\\/g;p"#

    /// The most ids a completion offers: `todo undone <Tab>` after importing a done.txt offered
    /// 1,209, more than anyone reads. Past this many, the newest (ids are never reused, so the
    /// largest) are offered, newest first; up to it, all of them in numeric order.
    static let idLimit = 100

    /// The shell pipeline, after `todo list --json`, that prints the `id<TAB>name` lines to
    /// offer: ``idsSedProgram``, then ids in numeric order (sorted by the shell they came out
    /// as strings: 10, 100, 1000) bounded by ``idLimit``. One pipeline for the three shells;
    /// each then keeps this order (bash `nosort`, zsh `_describe -V`, fish `-k`). `quoted`
    /// quotes a program for the shell: single quotes for bash and zsh (the programs hold none).
    static func idsPipeline(quoted: (String) -> String = { "'\($0)'" }) -> String {
        // Ids come in largest first, one more than the limit to tell whether any were left out.
        let keep =
            #"{ line[NR] = $0 } END { if (NR > n) for (i = 1; i <= n; i++) print line[i]; "#
            + #"else for (i = NR; i >= 1; i--) print line[i] }"#
        return
            "sed -n \(quoted(idsSedProgram)) | sort -rn | head -n \(idLimit + 1) | awk -v n=\(idLimit) \(quoted(keep))"
    }

    private var commandNames: String { commands.map(\.name).joined(separator: " ") }

    /// Long and short names of options, for shell patterns and word lists.
    static func names(_ options: [CommandSpec.Option]) -> [String] {
        options.flatMap { [$0.name] + ($0.short.map { [$0] } ?? []) }
    }

    /// The bash script: `_todo` walks COMP_WORDS as todo's parser would, then fills COMPREPLY.
    private func bash() -> String {
        // `command,option` patterns: `*,--db|list,--sort|...`.
        let valued = ([("*", globals), ("", bare)] + commands.map { ($0.name, $0.options) }).flatMap {
            command, options in
            Self.names(options.filter { $0.value != nil }).map { "\(command),\($0)" }
        }
        var seen: Set<String> = []
        let valuedOptions = (globals + bare + commands.flatMap(\.options)).filter {
            $0.value != nil && seen.insert($0.name).inserted
        }
        // Bare `todo` is the empty command: `"")` in the case.
        let options = ([("\"\"", bare)] + commands.map { ($0.name, $0.options) }).compactMap {
            name, options -> String? in
            options.isEmpty ? nil : "        \(name)) echo \"\(Self.names(options).joined(separator: " "))\" ;;"
        }
        let optionValues = valuedOptions.compactMap { option -> String? in
            bashAction(CompletionValues.of(option)).map {
                "        \(Self.names([option]).joined(separator: "|"))) \($0) ;;"
            }
        }
        let argumentValues = commands.compactMap { command -> String? in
            let branches = command.arguments.enumerated().compactMap { index, argument -> String? in
                bashAction(CompletionValues.of(argument, in: command.name)).map {
                    "(($2 \(argument.repeats ? ">=" : "==") \(index))); then \($0)"
                }
            }
            return branches.isEmpty
                ? nil : "        \(command.name)) if " + branches.joined(separator: "; elif ") + "; fi ;;"
        }
        return #"""
            # bash completion for todo, generated by `todo completions bash`. Load it with
            #   source <(todo completions bash)

            # The helpers read `cur` and `db` from _todo (bash scoping is dynamic).
            _todo_words() { mapfile -t COMPREPLY < <(compgen -W "$1" -- "$cur"); }
            _todo_files() { compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- "$cur"); }

            # Offers the ids `todo list --json $1` prints for the --db on the line (bash shows no
            # names), at most \#(Self.idLimit) as described in CompletionScript.idsPipeline, except
            # those already on the line.
            _todo_ids() {
                local program=${COMP_WORDS[0]} id word kept=""
                local -a args=(--no-config list --json $1)
                type -P "$program" >/dev/null 2>&1 || program=todo
                [[ -n $db ]] && args=(--db "${db/#\~/$HOME}" "${args[@]}")
                compopt -o nosort 2>/dev/null  # the ids' order, not readline's sort as strings
                for id in $("$program" "${args[@]}" 2>/dev/null | \#(Self.idsPipeline()) | cut -f1); do
                    for word in "${COMP_WORDS[@]:1:COMP_CWORD-1}"; do [[ $word == "$id" ]] && continue 2; done
                    kept+="$id "
                done
                _todo_words "$kept"
            }

            # Offers the tags `todo tags --names` prints for the --db on the line that start with
            # the word typed, with or without its + or @, each quoted for the shell as it is (a
            # tag with spaces, +Home\ Improvement, is one word). Not through compgen -W, which
            # would expand what a tag holds ($(...) from a synced todo).
            _todo_tags() {
                local program=${COMP_WORDS[0]} tag quoted
                local -a args=(--no-config tags --names)
                type -P "$program" >/dev/null 2>&1 || program=todo
                [[ -n $db ]] && args=(--db "${db/#\~/$HOME}" "${args[@]}")
                while IFS= read -r tag; do
                    printf -v quoted '%q' "$tag"
                    [[ $tag == "$cur"* || ${tag:1} == "$cur"* || $quoted == "$cur"* || ${quoted:1} == "$cur"* ]] &&
                        COMPREPLY+=("$quoted")
                done < <("$program" "${args[@]}" 2>/dev/null)
            }

            # Offers the lists `todo lists --names` prints for the --db on the line that start with
            # the word typed (ignoring case), each quoted for the shell as it is, never expanded.
            _todo_lists() {
                local program=${COMP_WORDS[0]} name quoted
                local -a args=(--no-config lists --names)
                type -P "$program" >/dev/null 2>&1 || program=todo
                [[ -n $db ]] && args=(--db "${db/#\~/$HOME}" "${args[@]}")
                while IFS= read -r name; do
                    printf -v quoted '%q' "$name"
                    [[ ${name,,} == "${cur,,}"* || $quoted == "$cur"* ]] && COMPREPLY+=("$quoted")
                done < <("$program" "${args[@]}" 2>/dev/null)
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
        case .todoIDs(let filter): "_todo_ids" + (filter.map { " \($0)" } ?? "")
        case .tags: "_todo_tags"
        case .lists: "_todo_lists"
        case .commands: "_todo_words \"\(commandNames)\""
        }
    }
}
