import Foundation
import TestSupport
import Testing

@testable import todo

/// `scripts/install` as a new user meets it: the binaries, the manual and the completions
/// under PREFIX, working in a new shell with no other step; `--uninstall` takes exactly that
/// away. It installs the test build's binaries (TODO_BINARIES) rather than building a release.
@Suite(.timed, .serialized) struct InstallTests {
    let folder = TemporaryFolder()
    var prefix: String { folder.file("prefix") }
    var binaries: String { URL(fileURLWithPath: ProcessRunner.todoBinary).deletingLastPathComponent().path }

    func install(_ arguments: [String] = []) throws -> ProcessResult {
        try ProcessRunner.run(
            "/bin/bash", [ProcessRunner.packageRoot + "/scripts/install"] + arguments,
            environment: [
                "PREFIX": prefix, "TODO_BINARIES": binaries, "HOME": folder.path,
                "PATH": "/opt/swift/usr/bin:/usr/local/bin:/usr/bin:/bin"
            ], timeout: 120)
    }

    /// Every file under `path`, relative to it.
    func files(under path: String) -> [String] {
        (FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? [])
            .filter {
                var isFolder: ObjCBool = false
                return FileManager.default.fileExists(atPath: path + "/" + $0, isDirectory: &isFolder)
                    && !isFolder.boolValue
            }
            .sorted()
    }

    @Test func installsTheManualAndCompletionsWhereEachShellLooksAndUninstallsExactlyThat() throws {
        let installed = try install()
        #expect(installed.status == 0, "\(installed.stderr)")
        let files = files(under: prefix)
        for expected in [
            "bin/todo", "bin/todo-sync", "share/man/man1/todo.1", "share/man/man1/todo-add.1",
            "share/man/man1/todo-sync.1",
            "share/bash-completion/completions/todo", "share/zsh/site-functions/_todo",
            "share/fish/vendor_completions.d/todo.fish"
        ] {
            #expect(files.contains(expected), "\(expected) not installed: \(files)")
        }
        // man finds the pages.
        let man = try ProcessRunner.run(
            "/usr/bin/man", ["-w", "todo", "todo-add"], environment: ["MANPATH": prefix + "/share/man"])
        #expect(man.stdout == "\(prefix)/share/man/man1/todo.1\n\(prefix)/share/man/man1/todo-add.1\n", "\(man.stderr)")

        // fish completes from its vendor folder on XDG_DATA_DIRS, in a new shell of a new user.
        let database = folder.file("todo.sqlite")
        _ = try ProcessRunner.run(prefix + "/bin/todo", ["add", "Buy milk"], environment: ["TODO_DB": database])
        let environment = [
            "XDG_DATA_DIRS": prefix + "/share:/usr/share", "PATH": prefix + "/bin:/usr/bin:/bin",
            "TODO_DB": database, "HOME": folder.path
        ]
        let fish = try ProcessRunner.run(
            "/usr/bin/fish", ["-c", "complete -C 'todo d'; complete -C 'todo done '"], environment: environment)
        #expect(
            fish.stdout.contains("done\t") && fish.stdout.contains("1\tBuy milk"), "fish: \(fish.stdout) \(fish.stderr)"
        )

        // bash with the bash-completion package, as ~/.bashrc enables it on Debian: `todo d<TAB>`
        // completes to `todo done`, and `todo done <TAB>` offers the ids.
        let bash = try TmuxSession.newBash(
            home: folder, database: database,
            environment: "XDG_DATA_DIRS=\(prefix)/share:/usr/share PATH=\(prefix)/bin:/usr/bin:/bin")
        try bash.type("todo d")
        try bash.press("Tab")
        _ = try bash.waitFor("$ todo done")
        try bash.press("C-u")
        try bash.type("todo done ")
        try bash.press("Tab")
        _ = try bash.waitFor("$ todo done 1")

        // zsh, with the site-functions folder on fpath (it is by default for /usr/local).
        let zsh = try TmuxSession(
            "env -i HOME=\(folder.path) TERM=xterm PATH=\(prefix)/bin:/usr/bin:/bin TODO_DB=\(database) zsh -f")
        try zsh.type("fpath=(\(prefix)/share/zsh/site-functions $fpath); autoload -Uz compinit; compinit -u; PS1='%% '")
        try zsh.press("Enter")
        _ = try zsh.waitFor("%")
        try zsh.type("todo don")
        try zsh.press("Tab")
        _ = try zsh.waitFor("% todo done")

        let uninstalled = try install(["--uninstall"])
        #expect(uninstalled.status == 0, "\(uninstalled.stderr)")
        #expect(!FileManager.default.fileExists(atPath: prefix), "left behind: \(self.files(under: prefix))")
    }

    @Test func uninstallLeavesWhatItDidNotInstall() throws {
        try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        try "mine".write(toFile: prefix + "/bin/other-tool", atomically: true, encoding: .utf8)
        #expect(try install().status == 0)
        #expect(try install(["--uninstall"]).status == 0)
        #expect(files(under: prefix) == ["bin/other-tool"])
        let again = try install(["--uninstall"])
        #expect(again.status == 1 && again.stderr.hasPrefix("error: "))
    }
}

/// The manual: one page per command from the same specs as help, valid roff.
@Suite(.timed) struct ManPageTests {
    let folder = TemporaryFolder()

    func pages() throws -> [String] {
        let result = try ProcessRunner.run(ProcessRunner.todoBinary, ["manpage", "--write-all", folder.path])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test func everyPageIsCleanForMandocAndMan() throws {
        let pages = try pages()
        #expect(pages.count > 15)
        let lint = try ProcessRunner.run("/usr/bin/mandoc", ["-T", "lint"] + pages)
        #expect(lint.stdout.isEmpty && lint.stderr.isEmpty, "mandoc -T lint: \(lint.stdout)\(lint.stderr)")
        for page in pages {
            let man = try ProcessRunner.run(
                "/usr/bin/man", ["--warnings", "-E", "UTF-8", "-l", page], environment: ["MANWIDTH": "80"])
            #expect(man.status == 0 && man.stderr.isEmpty, "man --warnings \(page): \(man.stderr)")
        }
    }

    /// What NO_COLOR does is one text: the manual and the guide both say the code's rule.
    @Test func theManualAndTheGuideSayTheSameOfNoColor() throws {
        let page = try ProcessRunner.run(ProcessRunner.todoBinary, ["manpage"]).stdout
        #expect(page.replacingOccurrences(of: "\n", with: " ").contains(ManPage.escape(TextStyle.noColorRule)))
        let guide = try String(contentsOfFile: ProcessRunner.packageRoot + "/docs/everyday-use.md", encoding: .utf8)
        #expect(guide.contains(TextStyle.noColorRule))
    }

    /// The schema in DATABASE is shown as written: each column line indented alike, the long
    /// `deadline` line too (it was cut at the width and lost its indentation).
    @Test func theSchemaKeepsItsIndentation() throws {
        let page = try #require(try pages().first { $0.hasSuffix("/todo.1") })
        let shown = try ProcessRunner.run(
            "/usr/bin/man", ["-E", "UTF-8", "-l", page],
            environment: ["MANWIDTH": "100", "MANPAGER": "cat", "PAGER": "cat"])
        let all = shown.stdout.split(separator: "\n").map(String.init)
        let table = try #require(all.firstIndex { $0.contains("CREATE TABLE todos (") }, "\(shown.stdout)")
        let lines = Array(all[(table + 1)...].prefix(4))
        let columns = ["id ", "name ", "deadline ", "done "].compactMap { column in
            lines.first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(column) }
        }
        #expect(columns.count == 4, "\(shown.stdout)")
        let indents = Set(columns.map { $0.prefix { $0 == " " }.count })
        #expect(indents.count == 1, "\(columns)")
    }

    /// One source: every command of `todo help` has a page, and each page says what help says
    /// (the usage line, every argument and option with its text, every example).
    @Test func thePagesSayWhatHelpSays() throws {
        let pages = Set(try pages().map { URL(fileURLWithPath: $0).lastPathComponent })
        let overview = try ProcessRunner.run(ProcessRunner.todoBinary, ["help"]).stdout
        let commands = overview.components(separatedBy: "COMMANDS:\n")[1].components(separatedBy: "\n\n")[0]
            .split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(commands.count > 15)
        #expect(pages == Set(["todo.1"] + commands.map { "todo-\($0).1" }))
        for command in commands {
            let help = try ProcessRunner.run(ProcessRunner.todoBinary, ["help", command]).stdout
            let rendered = try ProcessRunner.run(
                "/bin/sh",
                ["-c", "/usr/bin/mandoc -T utf8 -O width=1000 '\(folder.file("todo-\(command).1"))' | /usr/bin/col -b"]
            ).stdout
            let page = rendered.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            // Help's rows: "  --due <date>   The deadline..." -> each side must be on the page.
            for line in help.split(separator: "\n") where line.hasPrefix("  ") {
                let words = line.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                // Help writes placeholders as <date>; the page sets them in italics instead.
                let text = words.replacing(/<([a-z-]+)>/) { String($0.1) }
                #expect(page.contains(text), "todo-\(command)(1) lacks help's line: \(text)")
            }
        }
    }
}

extension TmuxSession {
    /// A new interactive bash with the bash-completion package loaded, as Debian's ~/.bashrc
    /// loads it, and nothing else; waits for its `$` prompt.
    static func newBash(home: TemporaryFolder, database: String, environment: String) throws -> TmuxSession {
        let rc = home.file("bashrc")
        try ". /usr/share/bash-completion/bash_completion\nPS1='$ '\n".write(
            toFile: rc, atomically: true, encoding: .utf8)
        let bash = try TmuxSession(
            "env -i HOME=\(home.path) TERM=xterm \(environment) TODO_DB=\(database) bash --rcfile \(rc) -i")
        _ = try bash.waitFor("$")
        return bash
    }
}

/// The README's first command installs what building and running `todo` needs, and nothing a
/// user did not ask for: no server (nginx or Cyrus would start one on a desktop with systemd),
/// no test tool. Read from the scripts themselves: every package that `scripts/install` or a
/// script it runs (followed to the end; comments aside) may install.
@Suite(.timed) struct InstallPackagesTests {
    /// The packages a script and the scripts it names install: each `missing+=(...)`.
    static func packages(of script: String, seen: inout Set<String>) throws -> Set<String> {
        guard seen.insert(script).inserted else { return [] }
        // Only the scripts themselves (scripts/benchlib, say, is a folder of Python modules).
        var isFolder: ObjCBool = false
        guard
            FileManager.default.fileExists(
                atPath: ProcessRunner.packageRoot + "/scripts/" + script, isDirectory: &isFolder),
            !isFolder.boolValue
        else { return [] }
        // Comments name other scripts without running them.
        let text = try String(contentsOfFile: ProcessRunner.packageRoot + "/scripts/" + script, encoding: .utf8)
            .split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#") }
            .joined(separator: "\n")
        var packages = Set(text.matches(of: /missing\+=\(([a-z0-9.+-]+)\)/).map { String($0.output.1) })
        for named in Set(
            text.matches(of: /scripts\/([a-z-]+)|dirname "\$0"\)\/([a-z-]+)/).compactMap {
                $0.output.1 ?? $0.output.2
            })
        {
            packages.formUnion(try Self.packages(of: String(named), seen: &seen))
        }
        return packages
    }

    @Test func theInstallScriptInstallsOnlyWhatBuildingTodoNeeds() throws {
        var seen: Set<String> = []
        let packages = try Self.packages(of: "install", seen: &seen)
        let build: Set<String> = [
            "libc6-dev", "binutils", "pkg-config", "libsqlite3-dev", "libcurl4-openssl-dev", "libxml2-dev"
        ]
        #expect(packages == build, "scripts/install may install \(packages.subtracting(build).sorted())")
        #expect(!seen.contains("setup-tests"), "scripts/install runs the test set-up: \(seen.sorted())")
        // And the test set-up does install the servers the suite runs.
        var testSeen: Set<String> = []
        let tests = try Self.packages(of: "test", seen: &testSeen)
        for server in ["radicale", "xandikos", "cyrus-caldav", "nginx", "apache2-bin"] {
            #expect(tests.contains(server), "scripts/test does not install \(server)")
        }
    }
}
