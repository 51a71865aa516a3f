import Foundation
import TestSupport
import Testing

@testable import todo

/// The configuration file (issue 25, friction 2): default options per command, aliases, the
/// errors of a bad file, the ways to ignore it, and peers' verbs suggesting a command.
///
/// Every run has the sandbox's folder as HOME and, unless a test says otherwise, its own
/// XDG_CONFIG_HOME, so no user's real file is ever read.
@Suite(.timed) struct ConfigurationTests {
    let sandbox = CLISandbox()
    var configHome: String { sandbox.folder.file("config") }
    var configPath: String { configHome + "/todo/config" }

    private func writeConfig(_ text: String, to path: String? = nil) throws {
        let path = path ?? configPath
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    @discardableResult
    private func todo(_ arguments: String..., environment: [String: String] = [:]) throws -> ProcessResult {
        try sandbox.todo(arguments, environment: ["XDG_CONFIG_HOME": configHome].merging(environment) { $1 })
    }

    private func addThree() throws {
        for (name, due) in [("pears", "2030-01-03"), ("apples", "2030-01-02"), ("bread", "2030-01-01")] {
            #expect(try todo("add", name, "--due", due).status == 0)
        }
        #expect(try todo("done", "3").status == 0)
    }

    private func names(_ output: String) -> [String] {
        output.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) }
    }

    @Test func defaultOptionsAndAliasesApplyAndTypedOptionsWin() throws {
        try addThree()
        try writeConfig(
            """
            # defaults
            list.options = --sort name

            [alias]
            \tls = list --undone
            ; a quoted word keeps its spaces
            milk = add --due 2030-02-01 "Buy milk"
            """)
        #expect(names(try todo("list").stdout) == ["apples", "bread", "pears"], "list.options sorts by name")
        #expect(names(try todo("list", "--sort", "due").stdout) == ["bread", "apples", "pears"], "typed wins")
        #expect(names(try todo("ls").stdout) == ["apples", "pears"], "the alias, with list's defaults")
        // Global options before the alias are kept: `todo --color never ls`.
        #expect(names(try todo("--color", "never", "ls").stdout) == ["apples", "pears"])
        let added = try todo("milk", "today")
        #expect(added.status == 0 && added.stdout == "4\n", "\(added.stderr)")
        let json = try todo("show", "4", "--json").stdout
        #expect(json.contains("\"Buy milk today\"") && json.contains("2030-02-01"), "\(json)")
    }

    @Test func theFileIsFoundUnderHomeAndARelativeXDGConfigHomeIsIgnored() throws {
        try addThree()
        try writeConfig("alias.ls = list --undone\n", to: sandbox.folder.file(".config/todo/config"))
        for environment in [["XDG_CONFIG_HOME": ""], ["XDG_CONFIG_HOME": "relative/config"]] {
            let result = try todo("ls", environment: environment)
            #expect(result.status == 0 && names(result.stdout) == ["apples", "pears"], "\(environment) \(result)")
        }
    }

    @Test func aBadFileIsOneUsageErrorNamingItsLineAndChangesNothing() throws {
        try addThree()
        let bad = [
            ("list.options = --sort name\njust words\n", 2),
            ("[alias\nls = list\n", 1),
            ("lsit.options = --undone\n", 1),
            ("alias.x = list \"unclosed\n", 1),
            ("list.options = --nonsense\n", 1),
            ("list.options = --undone extra\n", 1),
            ("\n\nadd.options = --due\n", 3),
            ("[alias]\nls = list\n[list]\nbad key = 1\n", 4)
        ]
        for (text, line) in bad {
            try writeConfig(text)
            let before = sandbox.fileState()
            let result = try todo("add", "never added")
            #expect(result.status == 2, "\(text.debugDescription): \(result)")
            let lines = result.stderr.split(separator: "\n")
            #expect(
                lines.first?.hasPrefix("error: \(configPath):\(line): ") == true, "\(text.debugDescription): \(result)")
            #expect(lines.count <= 2 && lines.dropFirst().allSatisfy { !$0.hasPrefix("error:") })
            #expect(result.stdout.isEmpty)
            #expect(sandbox.fileState() == before, "nothing changed")
        }
        // A folder where the file should be cannot be read: an error too, naming it.
        try FileManager.default.removeItem(atPath: configPath)
        try FileManager.default.createDirectory(atPath: configPath, withIntermediateDirectories: true)
        let folder = try todo("list")
        #expect(folder.status == 2 && folder.stderr.hasPrefix("error: cannot read \(configPath)"), "\(folder)")
    }

    @Test func aliasMistakesAreErrorsWhenUsedNamingTheLine() throws {
        try addThree()
        try writeConfig(
            """
            [alias]
            l = list
            ll = l --done
            list = list --undone
            nowhere = frobnicate
            empty =
            """)
        let cases = [
            ("ll", "\(configPath):3: alias.ll names the alias 'l'"),
            ("list", "\(configPath):4: alias.list has the name of a command"),
            ("nowhere", "\(configPath):5: alias.nowhere names 'frobnicate', which is not a command"),
            ("empty", "\(configPath):6: alias.empty is empty")
        ]
        for (alias, message) in cases {
            let result = try todo(alias)
            #expect(result.status == 2 && result.stderr.hasPrefix("error: \(message)"), "\(alias): \(result)")
            #expect(result.stdout.isEmpty)
        }
        // The good alias still works, and so do the other commands.
        #expect(names(try todo("l").stdout) == ["bread", "apples", "pears"])
        #expect(try todo("show", "1").status == 0)
    }

    @Test func scriptsCanIgnoreTheFile() throws {
        try addThree()
        try writeConfig("list.options = --undone\nalias.ls = list\n")
        #expect(names(try todo("list").stdout) == ["apples", "pears"])
        for (arguments, environment) in [
            (["--no-config", "list"], [:]), (["list", "--no-config"], [:]), (["list"], ["TODO_CONFIG": "/dev/null"])
        ] {
            let result = try sandbox.todo(
                arguments, environment: ["XDG_CONFIG_HOME": configHome].merging(environment) { $1 })
            #expect(names(result.stdout) == ["bread", "apples", "pears"], "\(arguments) \(environment): \(result)")
        }
        #expect(try todo("--no-config", "ls").status == 2, "no aliases either")
        // Even a bad file is not read.
        try writeConfig("this is not a config\n")
        #expect(try todo("--no-config", "list").status == 0)
        // TODO_CONFIG names another file, read instead.
        let other = sandbox.folder.file("other-config")
        try writeConfig("alias.pending = list --undone\n", to: other)
        #expect(names(try todo("pending", environment: ["TODO_CONFIG": other]).stdout) == ["apples", "pears"])
        // `--no-config` as the value of an option is that value, not the flag.
        let value = try todo("add", "--due", "--no-config", "x")
        #expect(value.status == 2 && value.stderr.hasPrefix("error: \(configPath):1: "), "\(value)")
    }

    @Test func peersVerbsSuggestTheCommandAndTheAlias() throws {
        let verbs = [
            "ls": "list", "a": "add", "do": "done", "x": "done", "del": "rm", "delete": "rm", "remove": "rm",
            "modify": "edit", "mod": "edit", "info": "show"
        ]
        for (verb, command) in verbs {
            let result = try todo(verb, "1")
            #expect(result.status == 2, "\(verb): \(result)")
            #expect(
                result.stderr
                    == "error: unknown command '\(verb)'\nDid you mean '\(command)'? (or set an alias: alias.\(verb) = \(command) in \(configPath))\n",
                "\(verb): \(result.stderr)")
        }
        let help = try todo("help", "del")
        #expect(help.status == 2 && help.stderr.contains("Did you mean 'rm'?"), "\(help)")
        // A far word still gets no suggestion.
        #expect(try todo("report").stderr == "error: unknown command 'report'\nSee 'todo --help' for the commands.\n")
    }

    @Test func theFileIsDocumentedInHelpTheManualAndTheGuide() throws {
        let flat = { (text: String) in text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        let help = try todo("help", "config")
        #expect(help.status == 0 && flat(help.stdout).contains(flat(Configuration.documentation)), "\(help)")
        #expect(try todo("help").stdout.contains("todo help config"))
        #expect(try todo("list", "--help").stdout.contains("--no-config"))
        let page = try todo("manpage").stdout
        #expect(page.contains(".SH CONFIGURATION") && page.contains(".B TODO_CONFIG"))
        #expect(flat(page).contains(flat(ManPage.escape("A value is split into words at spaces;"))))
        let guide = try String(contentsOfFile: ProcessRunner.packageRoot + "/docs/configuration.md", encoding: .utf8)
        #expect(flat(guide).contains(flat(Configuration.documentation)))
    }

    /// One `key = value` reader: the ui's state file is read with the configuration's parser.
    @Test func theKeyValueReaderServesBothFiles() throws {
        let entries = try KeyValueFile.parse("# c\n[ui]\n  sections = outline \r\n; x\nlast.key=a # kept\n")
        #expect(
            entries == [
                .init(key: "ui.sections", value: "outline", line: 3),
                .init(key: "ui.last.key", value: "a # kept", line: 5)
            ])
        #expect(throws: KeyValueFile.SyntaxError(line: 2, message: "expected 'key = value'")) {
            try KeyValueFile.parse("a = 1\nno equals\n")
        }
        #expect(KeyValueFile.words(#"add  --due fri "Buy  milk" 'a b'"#) == ["add", "--due", "fri", "Buy  milk", "a b"])
        #expect(KeyValueFile.words("\"\"") == [""])
        #expect(KeyValueFile.words("'open") == nil)
    }
}
