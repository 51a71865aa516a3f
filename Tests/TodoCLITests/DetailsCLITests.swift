import Foundation
import TestSupport
import Testing

/// Issue 26 on the command line: priorities, tags and notes typed, shown, filtered and sorted,
/// through the built `todo`.
@Suite(.timed) struct DetailsCLITests {
    let sandbox = CLISandbox()

    private func names(_ arguments: String...) throws -> [String] {
        try sandbox.listJSON(arguments).map { $0["name"] as? String ?? "?" }
    }

    @Test func addTakesPriorityTagsAndANoteAndTheShorthandOutsideTheName() throws {
        _ = try sandbox.ok("add", "Call", "mom", "+family", "@phone", "--priority", "high", "--note", "about Sunday")
        _ = try sandbox.ok("add", "Buy milk +shop", "--tag", "errands", "--tag", "@town")
        let todos = try sandbox.listJSON()
        let call = try #require(todos.first { $0["id"] as? Int == 1 })
        #expect(call["name"] as? String == "Call mom", "words of their own that are tags leave the name")
        #expect(call["tags"] as? [String] == ["+family", "@phone"] && call["priority"] as? Int == 1)
        #expect(call["note"] as? String == "about Sunday" && (call["created"] as? String)?.hasSuffix("Z") == true)
        let milk = try #require(todos.first { $0["id"] as? Int == 2 })
        #expect(milk["name"] as? String == "Buy milk +shop", "a quoted name keeps its words")
        #expect(milk["tags"] as? [String] == ["+errands", "@town"] && milk["priority"] as? Int == 0)
        #expect(
            try sandbox.ok("list")
                == "  1  [ ]              (H) Call mom +family @phone\n  2  [ ]              Buy milk +shop +errands @town\n"
        )
    }

    @Test func badPrioritiesAndTagsAreUsageErrorsThatChangeNothing() throws {
        _ = try sandbox.ok("add", "x")
        let before = sandbox.fileState()
        for arguments in [
            ["add", "y", "--priority", "urgent"], ["add", "y", "--tag", "two +words"],
            ["edit", "1", "--priority", "10"],
            ["edit", "1", "--untag", "+"], ["list", "--priority", "soon"], ["list", "--tag", "@"],
            ["edit", "1", "--note", "a", "--append", "b"]
        ] {
            let result = try sandbox.todo(arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(
                result.stderrLines.first?.hasPrefix("error: ") == true && result.stderrLines.count <= 2,
                "\(arguments): \(result.stderr)")
        }
        #expect(sandbox.fileState() == before, "nothing changed")
    }

    @Test func editChangesEveryDetailInOneUndoableStep() throws {
        _ = try sandbox.ok("add", "Plan trip", "+travel", "+work", "--note", "flights")
        _ = try sandbox.ok(
            "edit", "1", "--priority", "2", "--untag", "WORK", "--tag", "@home", "--append", "hotel", "--prepend",
            "first", "--name", "Plan the trip")
        let edited = try #require(try sandbox.listJSON().first)
        #expect(edited["name"] as? String == "Plan the trip" && edited["priority"] as? Int == 2)
        #expect(edited["tags"] as? [String] == ["+travel", "@home"])
        #expect(edited["note"] as? String == "first\nflights\nhotel")
        #expect(try sandbox.ok("undo") == "Undid 'edit'.\n")
        let undone = try #require(try sandbox.listJSON().first)
        #expect(undone["name"] as? String == "Plan trip" && undone["tags"] as? [String] == ["+travel", "+work"])
        #expect(undone["note"] as? String == "flights" && undone["priority"] as? Int == 0)
        _ = try sandbox.ok("edit", "1", "--note", "")
        #expect(try sandbox.listJSON().first?["note"] is NSNull, "an empty note removes it")
    }

    @Test func tagAndPriorityFiltersCombineAndSortByPriority() throws {
        _ = try sandbox.ok("add", "report", "+work", "@office", "--priority", "high")
        _ = try sandbox.ok("add", "gym", "+workout", "--priority", "low")
        _ = try sandbox.ok("add", "email", "@Work", "--priority", "3")
        _ = try sandbox.ok("add", "milk", "+home")
        _ = try sandbox.ok("done", "4")
        #expect(try names("--tag", "work", "--sort", "name") == ["email", "report"], "never +workout")
        #expect(try names("--tag", "work", "--tag", "office") == ["report"])
        #expect(try names("--priority", "high", "--sort", "name") == ["email", "report"])
        #expect(try names("--priority", "3") == ["email"])
        #expect(try names("--priority", "none") == ["milk"])
        #expect(try names("--priority", "high", "--priority", "low", "--sort", "name") == ["email", "gym", "report"])
        #expect(try names("--tag", "home", "--undone") == [])
        #expect(try names("--tag", "work", "--search", "rep") == ["report"])
        #expect(try names("--sort", "priority") == ["report", "email", "gym", "milk"])
        // --search reads the tags too, as a text: `+work` is in `+workout`; --tag is the exact tag.
        #expect(try names("--search", "+work", "--sort", "name") == ["gym", "report"])
        #expect(try names("--search", "@office", "--search", "rep") == ["report"])
        #expect(try names("--search", "home") == ["milk"])
        let result = try sandbox.todo("list", "--sort", "urgency")
        #expect(result.status == 2 && result.stderr.contains("due, name, status"), "\(result.stderr)")
    }

    @Test func showAndTagsTellEveryDetail() throws {
        _ = try sandbox.ok("add", "Call mom", "+family", "--priority", "7", "--note", "line one\nline\u{1b}two")
        _ = try sandbox.ok("add", "Dinner", "@Family", "+cook")
        _ = try sandbox.ok("done", "2")
        let shown = try sandbox.ok("show", "1")
        #expect(shown.contains("priority:  low (7)\ntags:      +family\nnote:      line one\n           line^[two\n"))
        #expect(shown.contains("completed: not done"))
        #expect(try sandbox.ok("tags") == "+family  1 undone, 1 done\n+cook    0 undone, 1 done\n")
        let json = try parseJSON(try sandbox.ok("tags", "--json"), as: [[String: Any]].self, "todo tags --json")
        #expect(json.map { $0["tag"] as? String } == ["+family", "+cook"])
        #expect(try sandbox.ok(["--db", sandbox.folder.file("empty.sqlite"), "tags"]) == "", "no tags: no lines")
    }

    @Test func anExportImportsBackWithEveryDetail() throws {
        _ = try sandbox.ok("add", "Call mom", "+family", "@phone", "--priority", "2", "--note", "a\nb")
        _ = try sandbox.ok("add", "Paid")
        _ = try sandbox.ok("done", "2")
        let file = sandbox.folder.file("export.json")
        try sandbox.ok("export").write(toFile: file, atomically: true, encoding: .utf8)
        let other = sandbox.folder.file("other.sqlite")
        _ = try sandbox.ok("--db", other, "import", file)
        let strip: ([String: Any]) -> String = { todo in
            ["name", "priority", "tags", "note", "created", "completed", "done"].map { "\(todo[$0] ?? "-")" }
                .joined(separator: "|")
        }
        #expect(try sandbox.listJSON().map(strip) == (try sandbox.listJSON(["--db", other])).map(strip))
        let bad = sandbox.folder.file("bad.json")
        try #"[{"name": "x", "priority": 12}]"#.write(toFile: bad, atomically: true, encoding: .utf8)
        let refused = try sandbox.todo("--db", other, "import", bad)
        #expect(
            refused.status == 1 && refused.stderr.contains("\"priority\" must be a whole number"), "\(refused.stderr)")
    }

    @Test func aFortyColumnListCutsTheNameButKeepsTheRowOnOneLine() throws {
        _ = try sandbox.ok("add", "A rather long name for a narrow terminal", "+work", "--priority", "high")
        // COLUMNS sets the width on a terminal only (a pipe is never cut).
        let screen = try PseudoTerminal.run(
            [ProcessRunner.todoBinary, "--color", "never", "list"],
            environment: ["TODO_DB": sandbox.database, "TZ": "UTC", "COLUMNS": "40"]
        ).screen.replacingOccurrences(of: "\r", with: "")
        let rows = screen.split(separator: "\n").map(String.init)
        let row = try #require(rows.first)
        #expect(rows.count == 1 && row.count <= 40, "\(screen)")
        #expect(row.contains("(H) A rather"), "\(row)")
    }
}
