import Foundation
import TestSupport
import Testing

/// Bad input gets one clear `error:` line, the right exit status, and changes nothing.
@Suite(.timed) struct BadInputTests {
    let sandbox = CLISandbox()

    /// Runs `arguments`, expects `status`, one `error:` line (plus at most one hint line),
    /// nothing on stdout, and the database byte for byte as it was.
    private func expectRefusal(
        _ arguments: [String], status: Int32, mentioning word: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let before = sandbox.fileState()
        let result = try sandbox.todo(arguments)
        let label = "todo \(arguments.joined(separator: " "))"
        #expect(result.status == status, "\(label): \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, "\(label)", sourceLocation: sourceLocation)
        let lines = result.stderrLines
        #expect((1...2).contains(lines.count), "\(label): \(lines)", sourceLocation: sourceLocation)
        #expect(lines.first?.hasPrefix("error: ") == true, "\(label): \(lines)", sourceLocation: sourceLocation)
        if let word {
            #expect(result.stderr.contains(word), "\(label): \(result.stderr)", sourceLocation: sourceLocation)
        }
        #expect(sandbox.fileState() == before, "\(label) changed the database", sourceLocation: sourceLocation)
    }

    /// A typo gets the command it was meant for; a word that is not one gets no guess
    /// ("report" is two edits from "export", which is no typo).
    @Test func onlyACloseWordIsSuggested() throws {
        for (typed, meant) in [
            ("lsit", "list"), ("exprot", "export"), ("udnone", "undone"), ("copmletions", "completions")
        ] {
            let result = try sandbox.todo([typed])
            #expect(
                result.status == 2 && result.stderr.contains("Did you mean '\(meant)'?"), "\(typed): \(result.stderr)")
        }
        // Peers' verbs ("ls", "del") are suggested by name: ConfigurationTests.
        for word in ["report", "tasks"] {
            let result = try sandbox.todo([word])
            #expect(result.status == 2 && !result.stderr.contains("Did you mean"), "\(word): \(result.stderr)")
        }
    }

    @Test func usageErrorsExit2AndChangeNothing() throws {
        _ = try sandbox.ok("add", "Buy milk", "--due", "2024-05-01")
        try expectRefusal(["frobnicate"], status: 2, mentioning: "unknown command")
        try expectRefusal(["lsit"], status: 2, mentioning: "'list'")
        try expectRefusal(["list", "--jsno"], status: 2, mentioning: "'--json'")
        try expectRefusal(["--verbose", "list"], status: 2, mentioning: "unknown option")
        try expectRefusal(["add"], status: 2, mentioning: "missing argument")
        try expectRefusal(["add", ""], status: 2, mentioning: "needs a name")
        try expectRefusal(["add", "   "], status: 2, mentioning: "needs a name")
        try expectRefusal(["add", "x", "--due", "2023-02-29"], status: 2, mentioning: "2023-02-29")
        try expectRefusal(["add", "x", "--due", "next blue moon"], status: 2, mentioning: "not a date")
        try expectRefusal(["add", "x", "--due"], status: 2, mentioning: "missing value")
        try expectRefusal(["done"], status: 2, mentioning: "missing argument")
        try expectRefusal(["done", "abc"], status: 2, mentioning: "'abc'")
        try expectRefusal(["done", "1", "-3"], status: 2, mentioning: "unknown option")
        try expectRefusal(["rm", "0"], status: 2, mentioning: "'0'")
        try expectRefusal(["list", "--sort", "colour"], status: 2, mentioning: "colour")
        try expectRefusal(["list", "--limit", "-1"], status: 2)
        try expectRefusal(["list", "--done", "--undone"], status: 2)
        try expectRefusal(["list", "extra"], status: 2, mentioning: "unexpected argument")
        try expectRefusal(["list", "--json=yes"], status: 2, mentioning: "takes no value")
        try expectRefusal(["--color", "purple", "list"], status: 2, mentioning: "purple")
    }

    @Test func failedOperationsExit1AndChangeNothing() throws {
        _ = try sandbox.ok("add", "a")
        _ = try sandbox.ok("add", "b")
        try expectRefusal(["done", "42"], status: 1, mentioning: "no todo with id 42")
        try expectRefusal(["done", "1", "42", "43"], status: 1, mentioning: "42, 43")
        try expectRefusal(["rm", "2", "42"], status: 1, mentioning: "42")
        #expect(try sandbox.listJSON().count == 2)
    }

    @Test func aFileThatIsNotADatabaseIsRefusedUntouched() throws {
        let path = sandbox.folder.file("notes.txt")
        let content = Data("my shopping list\n".utf8)
        #expect(FileManager.default.createFile(atPath: path, contents: content))
        let result = try sandbox.todo("--db", path, "add", "x")
        #expect(result.status == 1)
        #expect(result.stderrLines.first?.hasPrefix("error: ") == true)
        #expect(result.stderr.contains("not an SQLite database"))
        #expect(sandbox.folder.contents(path) == content)
    }

    @Test func aDatabaseFromANewerTodoIsRefusedUntouchedNamingBothVersions() throws {
        _ = try sandbox.ok("add", "x")
        let bump = try ProcessRunner.run("sqlite3", [sandbox.database, "PRAGMA user_version = 42"])
        #expect(bump.status == 0)
        let before = sandbox.fileState()
        let result = try sandbox.todo("list")
        #expect(result.status == 1)
        #expect(result.stderrLines.first?.hasPrefix("error: ") == true)
        let known = try FileManager.default.contentsOfDirectory(atPath: ProcessRunner.packageRoot + "/Migrations")
            .filter { $0.hasSuffix(".sql") }.count
        #expect(
            result.stderr.contains("version 42") && result.stderr.contains("the \(known) this todo knows"),
            "\(result.stderr)")
        #expect(sandbox.fileState() == before)
    }

    @Test func helpAndVersionSucceed() throws {
        #expect(try sandbox.ok("--help").contains("USAGE: todo"))
        #expect(try sandbox.ok("help", "add").contains("USAGE: todo add"))
        #expect(try sandbox.ok("rm", "--help").contains("OPTIONS:"))
        #expect(try sandbox.ok("--version").hasPrefix("todo "))
        // Help never opens (or creates) the database.
        #expect(!FileManager.default.fileExists(atPath: sandbox.database))
    }
}
