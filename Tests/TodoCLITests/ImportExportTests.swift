import Foundation
import TestSupport
import Testing

/// `todo export` and `todo import`, end to end: round trips, other tools' files, bad files.
@Suite(.timed) struct ImportExportTests {
    let sandbox = CLISandbox()
    let fixtures = ProcessRunner.packageRoot + "/Tests/TodoInteropTests/Fixtures"

    /// The todos without their ids (an import gives new ones), in list order.
    private func contents(_ database: String? = nil) throws -> [String] {
        let output = try sandbox.ok(["list", "--json"] + (database.map { ["--db", $0] } ?? []))
        let list = try parseJSON(output, as: [[String: Any]].self, "todo list --json")
        return list.map {
            "\($0["name"] as? String ?? "")|\($0["deadline"] as? String ?? "")|\($0["done"] as? Bool == true)"
        }
    }

    @Test func importingTheSameJSONTwiceSkipsTheTodosByUID() throws {
        _ = try sandbox.ok("add", "Buy milk", "--due", "2024-05-01")
        _ = try sandbox.ok("add", "Pay rent")
        _ = try sandbox.ok("export", "--format", "ics")  // gives both todos their UIDs
        _ = try sandbox.ok("add", "No UID yet")
        let export = try sandbox.ok("export")
        let todos = try parseJSON(export, as: [[String: Any]].self, "todo export")
        #expect(todos.map { ($0["uid"] as? String)?.isEmpty == false } == [true, true, false])
        #expect(todos.map { $0.keys.count } == [21, 21, 20], "no uid key for a todo without one")
        let file = sandbox.folder.file("todos.json")
        try export.write(toFile: file, atomically: true, encoding: .utf8)

        let other = sandbox.folder.file("other.sqlite")
        #expect(try sandbox.ok("--db", other, "import", file) == "Imported 3 todos.\n")
        // The UIDs came along, so a second import adds only the todo that had none, under a new
        // id (its own is taken), and says so.
        let again =
            "Imported 1 new todo, updated 0, 2 unchanged. Not kept: id not free here (given a new one) on 1 todo.\n"
        #expect(try sandbox.ok("--db", other, "import", file) == again)
        #expect(try contents(other).count == 4)
        // Into the database it came from, too.
        #expect(try sandbox.ok("import", file) == again)
        // A uid that is not a string is a bad record: nothing is imported.
        let before = sandbox.fileState()
        let bad = try sandbox.todo(["import", "-"], stdin: #"[{"name": "a", "uid": 3}]"#)
        #expect(bad.status == 1 && bad.stderr.hasPrefix("error: standard input: record 1: \"uid\""), "\(bad.stderr)")
        #expect(sandbox.fileState() == before)
    }

    @Test func exportThenImportIntoAFreshDatabaseGivesIdenticalTodos() throws {
        _ = try sandbox.ok("add", "Buy milk", "--due", "2024-05-01")
        _ = try sandbox.ok("add", "日本語 \"quoted\" \\ back\tslash")
        _ = try sandbox.ok("add", "Pay rent", "--due", "2024-04-30")
        _ = try sandbox.ok("done", "2")
        _ = try sandbox.ok("rm", "1")
        let export = try sandbox.ok("export")
        let file = sandbox.folder.file("todos.json")
        try export.write(toFile: file, atomically: true, encoding: .utf8)

        let fromFile = sandbox.folder.file("from-file.sqlite")
        #expect(try sandbox.ok("--db", fromFile, "import", file) == "Imported 2 todos.\n")
        #expect(try contents(fromFile) == contents())
        func withoutIDs(_ json: String) -> String {
            json.replacingOccurrences(of: #""id": \d+, "#, with: "", options: .regularExpression)
        }
        #expect(
            withoutIDs(try sandbox.ok("--db", fromFile, "export")) == withoutIDs(export),
            "the re-export differs only by the ids the new database gave")

        let fromStdin = sandbox.folder.file("from-stdin.sqlite")
        let piped = try sandbox.todo(["--db", fromStdin, "import", "-"], stdin: export)
        #expect(piped.status == 0)
        #expect(try contents(fromStdin) == contents())
    }

    @Test func taskwarriorsExportImportsWithLocalDates() throws {
        // Captured with TZ=Asia/Tokyo: due:2024-05-01 is stored as 20240430T150000Z.
        _ = try sandbox.ok(
            ["import", "--from", "taskwarrior", fixtures + "/taskwarrior-export.json"],
            environment: ["TZ": "Asia/Tokyo"])
        let todos = try contents()
        #expect(todos.contains("Buy milk|2024-05-01|false"))
        #expect(!todos.contains { $0.contains("deleted") }, "deleted tasks are skipped")
        #expect(todos.contains { $0.hasSuffix("|true") }, "completed tasks are done")
    }

    @Test func todoTxtImportsDoneMarksDueTagsAndKeepsProjects() throws {
        let output = try sandbox.ok("import", "--from", "todotxt", fixtures + "/todo.txt")
        #expect(output.hasPrefix("Imported "))
        let todos = try contents()
        #expect(!todos.contains { $0.contains("+") || $0.contains("@") }, "+project and @context are tags now")
        let call = try #require(
            try sandbox.listJSON().first { ($0["name"] as? String)?.hasPrefix("Call the bank") == true })
        #expect(call["tags"] as? [String] == ["+finance", "@phone"] && call["priority"] as? Int == 1)
        #expect(todos.contains { $0.hasSuffix("|true") }, "'x ' lines are done")
        #expect(!todos.contains { $0.contains("due:") }, "due: tags become deadlines")
        #expect(!todos.contains { $0.hasPrefix("(") }, "priorities leave the name")
    }

    /// Without --from the format is recognised from the file, and the summary says which it
    /// took (todo's own JSON, the default, goes unnamed).
    @Test func theFormatIsRecognisedWithoutFrom() throws {
        #expect(try sandbox.ok("import", fixtures + "/todo.txt").hasSuffix("(read as todotxt).\n"))
        let todoTxt = try contents()
        #expect(todoTxt.contains { $0.hasSuffix("|true") } && !todoTxt.contains { $0.contains("due:") })
        let taskwarrior = sandbox.folder.file("taskwarrior.sqlite")
        let imported = try sandbox.ok(
            ["--db", taskwarrior, "import", fixtures + "/taskwarrior-export.json"], environment: ["TZ": "Asia/Tokyo"])
        #expect(imported.contains("(read as taskwarrior)"), "\(imported)")
        #expect(try contents(taskwarrior).contains("Buy milk|2024-05-01|false"))
        let ics = sandbox.folder.file("todos.ics")
        try
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VTODO\r\nUID:a@t\r\nSUMMARY:From a phone\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
            .write(toFile: ics, atomically: true, encoding: .utf8)
        _ = try sandbox.ok("import", ics)
        #expect(try contents().contains("From a phone||false"))
        // A file that is none of them: the error says what it was read as.
        let odd = sandbox.folder.file("odd.json")
        try "[1, 2]".write(toFile: odd, atomically: true, encoding: .utf8)
        let refused = try sandbox.todo(["import", odd])
        #expect(refused.status == 1 && refused.stderr.contains("read as json; --from chooses"), "\(refused.stderr)")
    }

    @Test func aFileWithOneBadRecordImportsNothing() throws {
        _ = try sandbox.ok("add", "existing")
        let cases: [(format: String, content: String, mentions: String)] = [
            ("json", #"[{"name": "ok"}, {"name": "bad", "deadline": "2023-02-29"}]"#, "record 2"),
            ("json", #"[{"name": "ok"}, {"name": 5}]"#, "record 2"),
            ("json", #"[{"name": "ok"}"#, "line 1"),
            ("todotxt", "first\nsecond due:2024-13-01\nthird\n", "line 2"),
            (
                "taskwarrior",
                #"[{"description": "ok", "status": "pending"}, {"description": "x", "status": "exploded"}]"#, "record 2"
            )
        ]
        for (format, content, mentions) in cases {
            let file = sandbox.folder.file("bad.\(format)")
            try content.write(toFile: file, atomically: true, encoding: .utf8)
            let before = sandbox.fileState()
            let result = try sandbox.todo("import", "--from", format, file)
            #expect(result.status == 1, "\(format): \(content)")
            #expect(result.stderrLines.first?.hasPrefix("error: \(file): \(mentions)") == true, "\(result.stderr)")
            #expect(result.stderrLines.count <= 2)
            #expect(sandbox.fileState() == before, "a bad \(format) file changed the database")
        }
        let missing = try sandbox.todo("import", sandbox.folder.file("nope.json"))
        #expect(missing.status == 1)
        #expect(missing.stderr.hasPrefix("error: cannot read"))
        let format = try sandbox.todo("import", "--from", "csv", "x")
        #expect(format.status == 2)
    }

    @Test func undoRemovesAWholeImport() throws {
        _ = try sandbox.ok("add", "kept")
        let file = sandbox.folder.file("three.json")
        try #"[{"name": "a"}, {"name": "b"}, {"name": "c", "done": true}]"#.write(
            toFile: file, atomically: true, encoding: .utf8)
        _ = try sandbox.ok("import", file)
        #expect(try contents().count == 4)
        #expect(try sandbox.ok("undo") == "Undid 'import'.\n")
        #expect(try contents() == ["kept||false"])
    }

    /// Names other programs stored, which `todo add` refuses, survive an export and import.
    @Test func anExportAlwaysImportsBackWhole() throws {
        _ = try sandbox.ok("add", "normal", "--due", "2024-05-01")
        _ = try ProcessRunner.run(
            "sqlite3",
            [
                sandbox.database,
                "INSERT INTO todos (name, done) VALUES ('', 1), ('   ', 0), (char(9) || 'tab', 0)"
            ])
        let export = try sandbox.ok("export")
        let copy = sandbox.folder.file("copy.sqlite")
        let imported = try sandbox.todo(["--db", copy, "import", "-"], stdin: export)
        #expect(imported.status == 0, "\(imported.stderr)")
        let strip: ([String: Any]) -> String = { "\($0["name"] ?? "-")|\($0["deadline"] ?? "-")|\($0["done"] ?? "-")" }
        let original = try parseJSON(export, as: [[String: Any]].self, "todo export")
        let copied = try parseJSON(
            sandbox.ok(["--db", copy, "export"]), as: [[String: Any]].self, "todo export of the copy")
        #expect(copied.map(strip) == original.map(strip))
    }
}
