import Foundation
import TestSupport
import Testing

@testable import todo

/// Whether a program is on PATH; the zsh and fish checks run only where those shells are.
private func isInstalled(_ program: String) -> Bool {
    (try? ProcessRunner.which(program)) != nil
}

/// `todo completions`: the scripts are generated from the specs and work in real shells.
///
/// bash is always there and is driven for real (COMP_WORDS in, COMPREPLY out). zsh and fish
/// are checked when installed; tests never install them. fish can also be driven for real
/// with `complete -C`; zsh completion needs an interactive line editor, so zsh gets a parse
/// check and a check that the script registers itself with compinit.
@Suite(.timed) struct CompletionsTests {
    let sandbox = CLISandbox()

    /// The specs the built `todo` generates from.
    private var script: CompletionScript { CompletionScript.todo }

    /// The built `todo`'s script for `shell`, saved in the sandbox; its path.
    private func scriptFile(_ shell: String) throws -> String {
        let path = sandbox.folder.file("todo.\(shell)")
        try sandbox.ok("completions", shell).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// PATH with the built `todo` first, as a user's shell finds it.
    private var path: String {
        URL(fileURLWithPath: ProcessRunner.todoBinary).deletingLastPathComponent().path
            + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    }

    private var shellEnvironment: [String: String] {
        ["PATH": path, "TODO_DB": sandbox.database, "HOME": sandbox.folder.path]
    }

    /// Runs bash's completion function on `words` (the last one is under the cursor) and
    /// returns COMPREPLY, as bash would for `complete -F _todo todo`.
    private func bashComplete(_ words: String...) throws -> [String] {
        let driver = #"""
            source "$1"; shift
            COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
            COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
            _todo todo "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\n' "${COMPREPLY[@]}"
            """#
        let result = try ProcessRunner.run(
            "bash", ["-c", driver, "bash", try scriptFile("bash")] + words,
            environment: shellEnvironment)
        #expect(result.status == 0 && result.stderr.isEmpty, "bash: \(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test func everyCommandAndOptionOfEverySpecIsInEveryScript() {
        for shell in CompletionShell.allCases {
            let text = script.text(for: shell)
            for spec in TodoCLI.commands.map(\.spec) {
                #expect(text.contains(spec.name), "\(shell) lacks the command \(spec.name)")
                for option in spec.options + GlobalOptions.specs {
                    // fish names options without their dashes: `-l sort`, `-s y`.
                    let long = shell == .fish ? "-l \(option.name.dropFirst(2))" : option.name
                    #expect(text.contains(long), "\(shell) lacks \(option.name) of \(spec.name)")
                    if let short = option.short {
                        #expect(text.contains(shell == .fish ? "-s \(short.dropFirst())" : short))
                    }
                }
            }
            #expect(text.contains("list --json"), "\(shell) reads ids from todo list --json")
        }
    }

    @Test func scriptsFollowTheSpecsNotAFixedList() {
        let extra = CommandSpec(
            name: "frobnicate", abstract: "Frobnicate todos.",
            arguments: [.init(name: "id", help: "Ids.", repeats: true)],
            options: [.init(name: "--wobble", value: "level", help: "How much.")])
        let generated = CompletionScript(commands: [extra], globals: GlobalOptions.specs)
        for shell in CompletionShell.allCases {
            let text = generated.text(for: shell)
            #expect(text.contains("frobnicate") && text.contains("wobble"), "\(shell)")
            #expect(
                text.contains("Frobnicate todos.") == (shell != .bash), "zsh and fish describe commands; bash cannot")
            #expect(text.contains("_todo_ids"), "\(shell): an `id` argument completes todo ids")
        }
    }

    @Test func theCommandPrintsTheGeneratedScript() throws {
        for shell in CompletionShell.allCases {
            #expect(try sandbox.ok("completions", shell.rawValue) == script.text(for: shell))
        }
        #expect(!FileManager.default.fileExists(atPath: sandbox.database), "printing a script opens no database")
    }

    @Test func anUnknownShellIsAUsageError() throws {
        let result = try sandbox.todo("completions", "tcsh")
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines == ["error: 'tcsh' is not a supported shell", "Use bash, zsh or fish."])
        #expect(try sandbox.todo("completions").status == 2, "the shell is required")
        #expect(try sandbox.todo("completions", "bash", "zsh").status == 2, "one shell at a time")
    }

    @Test func helpShowsUsageArgumentsAndExamples() throws {
        let help = try sandbox.ok("help", "completions")
        #expect(help.contains("USAGE: todo completions <shell>"))
        #expect(help.contains("<shell>"))
        #expect(help.contains("source <(todo completions bash)"))
        #expect(help.contains("todo completions fish > ~/.config/fish/completions/todo.fish"))
    }

    @Test func bashCompletesCommandsOptionsAndValues() throws {
        #expect(try bashComplete("todo", "l") == ["list", "lists"])
        #expect(try bashComplete("todo", "") == TodoCLI.commands.map(\.spec.name))
        let list = try #require(TodoCLI.commands.first { $0.spec.name == "list" }?.spec)
        #expect(try bashComplete("todo", "list", "--s") == list.options.map(\.name).filter { $0.hasPrefix("--s") })
        #expect(try bashComplete("todo", "list", "--s").contains("--sort"))
        #expect(try bashComplete("todo", "list", "--sort", "") == ["due", "name", "status", "priority"])
        #expect(try bashComplete("todo", "list", "--sort", "=", "n") == ["name"], "bash splits --sort=n at '='")
        #expect(try bashComplete("todo", "--color", "a") == ["auto", "always"])
        // Bare todo's own options (every filter of list), before a command only.
        #expect(try bashComplete("todo", "--t") == ["--today", "--tag"])
        #expect(try bashComplete("todo", "--week", "--t") == ["--today", "--tag"])
        #expect(try bashComplete("todo", "add", "--to") == [])
        #expect(try bashComplete("todo", "add", "--priority", "") == ["high", "medium", "low", "none"])
        #expect(try bashComplete("todo", "list", "--priority", "l") == ["low"])
        #expect(try sandbox.ok("completions", "zsh").contains("_arguments -C $globals '--done["))
        #expect(try sandbox.ok("completions", "zsh").contains(" '--today["))
        #expect(try sandbox.ok("completions", "fish").contains("complete -c todo -n __todo_needs_command -l week"))
        #expect(try bashComplete("todo", "completions", "") == ["bash", "zsh", "fish"])
        #expect(try bashComplete("todo", "help", "ed") == ["edit"])
        #expect(try bashComplete("todo", "rm", "-").contains("--yes"))
        #expect(try bashComplete("todo", "rm", "-").contains("--db"), "global options complete after the command")
        #expect(
            try bashComplete("todo", "--db", sandbox.folder.path + "/todo.b").map { $0.hasSuffix("todo.bash") } == [
                true
            ],
            "--db completes files")
    }

    @Test func bashCompletesTheIdsOfTheDatabaseInUse() throws {
        for name in ["Buy milk", "牛乳を買う", "say \"hi\""] { _ = try sandbox.ok("add", name) }
        _ = try sandbox.ok("rm", "2")
        #expect(try bashComplete("todo", "done", "") == ["1", "3"])
        #expect(try bashComplete("todo", "done", "1", "") == ["3"], "done takes several ids, each once")
        #expect(try bashComplete("todo", "show", "1", "") == [], "show takes one id")
        #expect(try bashComplete("todo", "rm", "--yes", "3") == ["3"])
        // done offers what is not done yet, undone what is done.
        _ = try sandbox.ok("done", "3")
        #expect(try bashComplete("todo", "done", "") == ["1"])
        #expect(try bashComplete("todo", "undone", "") == ["3"])
        #expect(try bashComplete("todo", "rm", "") == ["1", "3"])

        let other = sandbox.folder.file("other.sqlite")
        for name in ["a", "b", "c", "d"] { _ = try sandbox.ok("--db", other, "add", name) }
        #expect(try bashComplete("todo", "--db", other, "done", "") == ["1", "2", "3", "4"], "the --db on the line")
        #expect(
            try bashComplete("todo", "edit", "--db", "=", other, "") == ["1", "2", "3", "4"],
            "--db=PATH after the command")
    }

    /// Issue 26: `--tag` and `--untag` complete the tags of the database in use (`todo tags
    /// --names`), typed with or without the sigil; a tag is offered quoted for the shell, never
    /// expanded by it (a synced tag can hold `$(...)`). Issue 36, point 4: a tag with spaces is
    /// one word, `+Home\ Improvement`.
    @Test func tagsCompleteFromTheDatabaseQuotedAndAreNeverExpanded() throws {
        let marker = sandbox.folder.file("expanded")
        _ = try sandbox.ok("add", "Call mom", "+family", "@phone")
        _ = try sandbox.ok("add", "Tax", "+Finance", "+$(touch${IFS}\(marker))")
        _ = try sandbox.ok("add", "Fix the sink", "--tag", "Home Improvement")
        let all = try bashComplete("todo", "list", "--tag", "")
        #expect(
            all.sorted()
                == [
                    "+family", "+Finance", "+\\$\\(touch\\$\\{IFS\\}\(marker)\\)", "@phone", "+Home\\ Improvement"
                ].sorted(), "\(all)")
        #expect(try bashComplete("todo", "list", "--tag", "fa") == ["+family"], "without the sigil")
        #expect(try bashComplete("todo", "list", "--tag", "Ho") == ["+Home\\ Improvement"])
        #expect(try bashComplete("todo", "list", "--tag", "+Home\\ I") == ["+Home\\ Improvement"], "as typed, quoted")
        #expect(try bashComplete("todo", "edit", "1", "--untag", "@") == ["@phone"])
        #expect(!FileManager.default.fileExists(atPath: marker), "a tag was run as a command")
        #expect(try bashComplete("todo", "list", "--by", "") == ["done", "priority", "tag", "project", "due", "list"])
        #expect(script.text(for: .zsh).contains("_todo_tags"))
        #expect(script.text(for: .fish).contains("__todo_tags"))
    }

    /// Issue 35: `--list`, `--to`, `--move-to` and `todo lists ACTION NAME` complete the lists of
    /// the database in use, ignoring case, each quoted for the shell and never expanded.
    @Test func listsCompleteFromTheDatabaseQuotedAndNeverExpanded() throws {
        let marker = sandbox.folder.file("expanded")
        _ = try sandbox.ok("lists", "new", "Home Improvement")
        _ = try sandbox.ok("lists", "new", "$(touch${IFS}\(marker))")
        #expect(try bashComplete("todo", "add", "x", "--list", "home") == ["Home\\ Improvement"])
        #expect(try bashComplete("todo", "move", "1", "--to", "t") == ["Todos"])
        #expect(try bashComplete("todo", "lists", "rename", "T") == ["Todos"])
        #expect(try bashComplete("todo", "list", "--list", "").count == 3)
        #expect(!FileManager.default.fileExists(atPath: marker), "a list's name was run as a command")
        #expect(try bashComplete("todo", "lists", "") == ["new", "rename", "color", "default", "rm"])
        #expect(script.text(for: .zsh).contains("_todo_lists"))
        #expect(script.text(for: .fish).contains("__todo_lists"))
    }

    /// Issue 25, friction 10: ids came in the list's order (and shells sorted them as strings:
    /// 10, 100, 1000), and `todo undone <Tab>` offered 1,209. They come in numeric order; past
    /// ``CompletionScript/idLimit``, the newest that many, newest first.
    @Test func idsComeInNumericOrderAndAtMostTheNewestHundred() throws {
        for index in 1...12 { _ = try sandbox.ok("add", "todo \(index)") }
        _ = try sandbox.ok("edit", "10", "--due", "2024-05-01")
        #expect(try bashComplete("todo", "done", "") == (1...12).map(String.init), "not the list's order (10 first)")
        let sql =
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 150) "
            + "INSERT INTO todos(name) SELECT 'more ' || i FROM n;"
        #expect(try ProcessRunner.run("sqlite3", [sandbox.database, sql]).status == 0)
        let limit = CompletionScript.idLimit
        #expect(limit == 100)
        #expect(try bashComplete("todo", "done", "") == (63...162).reversed().map(String.init))
        #expect(try bashComplete("todo", "done", "162", "").first == "161", "an id on the line is still left out")
        #expect(script.text(for: .bash).contains("compopt -o nosort"), "readline keeps the order")
        #expect(script.text(for: .zsh).contains("_describe -V"), "zsh keeps the order")
        #expect(script.text(for: .fish).contains("-k -a '(__todo_ids"), "fish keeps the order")
    }

    /// zsh completes ids for real, in its line editor: `_arguments` calls `_todo_ids` with
    /// compadd's options first (`-J -default- --undone`), which the script took for the filter,
    /// so `todo done <Tab>` offered nothing. Ids come in numeric order, described by names.
    @Test(.enabled(if: isInstalled("zsh"), "zsh is not installed: its script is checked where it is"))
    func zshCompletesIdsWithNamesInItsLineEditor() throws {
        let file = try scriptFile("zsh")
        for index in 1...12 { _ = try sandbox.ok("add", "todo \(index)") }
        _ = try sandbox.ok("done", "5")
        let session = try TmuxSession(
            "env TODO_DB=\(UITests.quote(sandbox.database)) PATH=\(UITests.quote(path)) TERM=xterm-256color zsh -f",
            columns: 60, rows: 30)
        try session.type("autoload -U compinit && compinit -u -D && source \(UITests.quote(file)) && PS1='> '")
        try session.press("Enter")
        try session.type("clear")
        try session.press("Enter")
        try session.waitUntil("the prompt") { $0.first == ">" }
        try session.type("todo done ")
        try session.press("Tab")
        let screen = try session.waitFor("12  -- todo 12")
        let offered = screen.filter { $0.contains(" -- ") }
        let expected = [1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12].map { "\($0)" }
        #expect(offered.map { String($0.prefix { $0 != " " }) } == expected, "\(screen.joined(separator: "\n"))")
        #expect(offered.first == "1   -- todo 1", "\(screen.joined(separator: "\n"))")
    }

    @Test func idsAndNamesAreReadFromListJSONWithSed() throws {
        for name in ["Buy milk", "牛乳を買う", "say \"hi\" \\ back", "tab\there"] { _ = try sandbox.ok("add", name) }
        let program = "s='\(CompletionScript.idsSedProgram)'; \(ProcessRunner.todoBinary) list --json | sed -n \"$s\""
        let result = try ProcessRunner.run("bash", ["-c", program], environment: shellEnvironment)
        #expect(result.stdout == "1\tBuy milk\n2\t牛乳を買う\n3\tsay \"hi\" \\ back\n4\ttab here\n")
    }

    @Test(.enabled(if: isInstalled("zsh"), "zsh is not installed: its script is checked where it is"))
    func zshScriptParsesAndRegistersWithCompinit() throws {
        let file = try scriptFile("zsh")
        let parse = try ProcessRunner.run("zsh", ["-n", file], environment: shellEnvironment)
        #expect(parse.status == 0, "zsh -n: \(parse.stderr)")
        let load = try ProcessRunner.run(
            "zsh", ["-fc", "autoload -U compinit && compinit -u -D && source \(file) && print $_comps[todo]"],
            environment: shellEnvironment)
        #expect(load.stdout == "_todo\n", "\(load.stderr)")
    }

    @Test(.enabled(if: isInstalled("zsh"), "zsh is not installed: its script is checked where it is"))
    func zshOffersIdsByStateAndNotTwice() throws {
        let file = try scriptFile("zsh")
        for name in ["Buy milk", "Pay rent", "Call mum"] { _ = try sandbox.ok("add", name) }
        _ = try sandbox.ok("done", "3")
        // _todo_ids as _arguments calls it, with _describe replaced by a printer of what it offers.
        func offered(_ words: [String], _ filter: String) throws -> String {
            let line = words.map { "'\($0)'" }.joined(separator: " ")
            let script =
                "autoload -U compinit && compinit -u -D && source \(file) && _describe() { print -rl -- ${(P)${@[-1]}} }; "
                + "todo_words=(\(line)); CURRENT=\(words.count); _todo_ids \(filter)"
            let result = try ProcessRunner.run("zsh", ["-fc", script], environment: shellEnvironment)
            #expect(result.stderr.isEmpty, "\(result.stderr)")
            return result.stdout
        }
        let todo = ProcessRunner.todoBinary
        #expect(try offered([todo, "done", ""], "--undone") == "1:Buy milk\n2:Pay rent\n")
        #expect(try offered([todo, "done", "2", ""], "--undone") == "1:Buy milk\n")
        #expect(try offered([todo, "undone", ""], "--done") == "3:Call mum\n")
    }

    @Test(.enabled(if: isInstalled("zsh"), "zsh is not installed: its script is checked where it is"))
    func zshOffersTheTagsOfTheDatabaseInUse() throws {
        let file = try scriptFile("zsh")
        _ = try sandbox.ok("add", "Call mom", "+family", "@phone", "+family", "+Home Improvement")
        // _todo_tags as _arguments calls it, with compadd replaced by a printer of what it offers.
        let script =
            "autoload -U compinit && compinit -u -D && source \(file) && compadd() { print -rl -- ${@:#--} }; "
            + "todo_words=('\(ProcessRunner.todoBinary)' list --tag ''); CURRENT=4; _todo_tags"
        let result = try ProcessRunner.run("zsh", ["-fc", script], environment: shellEnvironment)
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        #expect(Set(result.stdout.split(separator: "\n")) == ["+family", "@phone", "+Home Improvement"])
    }

    @Test(.enabled(if: isInstalled("fish"), "fish is not installed: its script is checked where it is"))
    func fishScriptParsesAndCompletesIdsWithNames() throws {
        let file = try scriptFile("fish")
        let parse = try ProcessRunner.run("fish", ["--no-execute", file], environment: shellEnvironment)
        #expect(parse.status == 0, "fish --no-execute: \(parse.stderr)")
        for name in ["Buy milk", "牛乳を買う"] { _ = try sandbox.ok("add", name) }
        func complete(_ line: String) throws -> [String] {
            let result = try ProcessRunner.run(
                "fish", ["-c", "source \(file); complete -C '\(line)'"], environment: shellEnvironment)
            return result.stdout.split(separator: "\n").map(String.init)
        }
        #expect(try complete("todo done ") == ["1\tBuy milk", "2\t牛乳を買う"])
        #expect(try complete("todo done 1 ") == ["2\t牛乳を買う"], "an id already on the line")
        _ = try sandbox.ok("done", "2")
        #expect(try complete("todo done ") == ["1\tBuy milk"])
        #expect(try complete("todo undone ") == ["2\t牛乳を買う"])
        #expect(
            try complete("todo list --sort ").map { $0.prefix { $0 != "\t" } }.sorted() == [
                "due", "name", "priority", "status"
            ])
        #expect(try complete("todo l").first?.hasPrefix("list\t") == true)
        _ = try sandbox.ok("edit", "1", "--tag", "+shop", "--tag", "Home Improvement")
        #expect(
            try complete("todo list --tag ").map { $0.prefix { $0 != "\t" } }.sorted() == [
                "+Home Improvement", "+shop"
            ], "one candidate, which fish quotes as it inserts it")
    }
}
