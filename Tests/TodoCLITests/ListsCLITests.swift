import Foundation
import TestSupport
import Testing

/// `todo lists`, `--list`, `todo move`, `edit --list` and `--by list` (issue 35), end to end.
@Suite(.timed) struct ListsCLITests {
    let sandbox = CLISandbox()

    @Test func listsAreMadeFilledShownAndRemoved() throws {
        _ = try sandbox.ok("add", "Buy milk", "+shop")
        #expect(try sandbox.ok("lists", "new", "Groceries", "#2e7d32") == "+ list Groceries\n")
        _ = try sandbox.ok("add", "Eggs", "-l", "groceries")
        _ = try sandbox.ok("add", "Bread", "--list", "GROCERIES")
        #expect(
            try sandbox.ok("lists") == "* Todos      1 undone, 0 done\n  Groceries  2 undone, 0 done  #2E7D32\n")
        // With two lists, a row names its list unless the view is of one list.
        // (Rows without a deadline leave its column blank: 12 spaces.)
        let blank = String(repeating: " ", count: 12)
        #expect(
            try sandbox.ok("list")
                == "  1  [ ]  \(blank)Buy milk +shop  in Todos\n  2  [ ]  \(blank)Eggs  in Groceries\n"
                + "  3  [ ]  \(blank)Bread  in Groceries\n")
        #expect(try sandbox.ok("list", "--list", "Groceries") == "  2  [ ]  \(blank)Eggs\n  3  [ ]  \(blank)Bread\n")
        #expect(
            try sandbox.ok("list", "--by", "list")
                == "Todos (1)\n└─ 1  \(blank)Buy milk +shop\nGroceries (2)\n├─ 2  \(blank)Eggs\n└─ 3  \(blank)Bread\n")
        #expect(try sandbox.ok("list", "-l", "todos", "-l", "groceries", "--json").contains("\"list\": \"Groceries\""))
        #expect(try sandbox.ok("show", "2").hasSuffix("list:      Groceries\n"))

        #expect(try sandbox.ok("move", "1", "--to", "Groceries") == "→ 1  Buy milk  (Groceries)\n")
        #expect(try sandbox.ok("edit", "2", "--list", "Todos") == "~ 2  Eggs\n")
        #expect(
            try sandbox.ok("lists", "--json").contains(
                "\"name\": \"Todos\", \"color\": null, \"default\": true, \"undone\": 1"))
        #expect(try sandbox.ok("undo") == "Undid 'edit'.\n")

        // A list with todos goes only when told what becomes of them; undo brings it all back.
        let refused = try sandbox.todo("lists", "rm", "Groceries")
        #expect(refused.status == 1 && refused.stderr.hasPrefix("error: the list 'Groceries' holds 3 todos\n"))
        #expect(try sandbox.ok("lists", "rm", "Groceries", "--move-to", "Todos").hasSuffix("- list Groceries\n"))
        #expect(try sandbox.ok("lists") == "* Todos  3 undone, 0 done\n")
        _ = try sandbox.ok("undo")
        #expect(try sandbox.ok("list", "--list", "Groceries", "--json").split(separator: "\n").count == 5)
        let gone = try sandbox.ok("lists", "rm", "Groceries", "--delete-todos")
        #expect(gone == "- 1  Buy milk\n- 2  Eggs\n- 3  Bread\n- list Groceries\n")
        #expect(try sandbox.ok("list").isEmpty)
    }

    @Test func badListWordsAreClearErrorsThatChangeNothing() throws {
        _ = try sandbox.ok("add", "a")
        let before = try sandbox.ok("list", "--json")
        for (arguments, status, words) in [
            (["add", "b", "--list", "Nope"], 1, "error: no list named 'Nope'"),
            (["list", "--list", "Nope"], 1, "error: no list named 'Nope'"),
            (["move", "1", "--to", "Nope"], 1, "error: no list named 'Nope'"),
            (["move", "1"], 2, "error: 'todo move' needs the list to move to"),
            (["move", "9", "--to", "Todos"], 1, "error: no todo with id 9"),
            (["lists", "new", "todos"], 1, "error: a list named 'Todos' exists already"),
            (["lists", "new", "Work", "red"], 2, "error: 'red' is not a colour"),
            (["lists", "rm", "Todos"], 1, "error: 'Todos' is the default list and cannot be removed"),
            (["lists", "rename", "Todos"], 2, "error: 'todo lists rename' takes a list's name and its new name"),
            (["lists", "remove", "Todos"], 2, "error: 'remove' is not an action of 'todo lists'"),
            (["lists", "new", "a\u{1B}b"], 2, "error: 'a^[b' cannot name a list")
        ] {
            let result = try sandbox.todo(arguments)
            #expect(result.status == Int32(status), "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix(words + "\n"), "\(arguments): \(result.stderr)")
        }
        #expect(try sandbox.ok("list", "--json") == before)
        #expect(try sandbox.ok("lists") == "* Todos  1 undone, 0 done\n")
        #expect(try sandbox.todo("mv", "1").stderr.contains("Did you mean 'move'?"))
    }

    @Test func addOnATerminalSaysWhichListItWentTo() throws {
        _ = try sandbox.ok("lists", "new", "Groceries")
        let screen = try sandbox.onTerminal(["add", "Eggs", "--list", "Groceries"])
        #expect(screen.contains("+ 1  Eggs  in Groceries"), "\(screen)")
    }

    @Test func importAndExportTakeAList() throws {
        _ = try sandbox.ok("lists", "new", "Work")
        let file = sandbox.folder.file("in.txt")
        try "Call Bob\nx Write report\n".write(toFile: file, atomically: true, encoding: .utf8)
        _ = try sandbox.ok("import", "--from", "todotxt", "--list", "Work", file)
        _ = try sandbox.ok("add", "Home thing")
        #expect(try sandbox.ok("export", "--format", "todotxt", "--list", "Work").split(separator: "\n").count == 2)
        #expect(try sandbox.ok("lists") == "* Todos  1 undone, 0 done\n  Work   1 undone, 1 done\n")
    }
}

/// `todo export` then `todo import` into another database keeps each todo's list.
@Suite(.timed) struct ListsRoundTripTests {
    let sandbox = CLISandbox()
    let other = CLISandbox()

    @Test func anExportImportedElsewhereKeepsTheLists() throws {
        _ = try sandbox.ok("lists", "new", "Work")
        _ = try sandbox.ok("add", "Report", "--list", "Work")
        _ = try sandbox.ok("add", "Milk")
        let file = sandbox.folder.file("export.json")
        try sandbox.ok("export").write(toFile: file, atomically: true, encoding: .utf8)
        _ = try other.ok("import", file)
        #expect(try other.ok("lists") == "* Todos  1 undone, 0 done\n  Work   1 undone, 0 done\n")
        #expect(try other.ok("list", "--list", "work", "--json").contains("\"name\": \"Report\""))
        // --list puts them all in one list.
        _ = try other.ok("lists", "new", "Inbox")
        _ = try other.ok("import", "--list", "Inbox", file)
        #expect(try other.ok("lists").contains("  Inbox  2 undone, 0 done\n"))
    }
}

/// `todo lists rm` on a terminal asks what becomes of the todos, and never guesses.
@Suite(.timed) struct ListsRemovalPromptTests {
    let sandbox = CLISandbox()

    private func removeOnTerminal(answer: String) throws -> PseudoTerminal.Result {
        try PseudoTerminal.run(
            [ProcessRunner.todoBinary, "lists", "rm", "Work"], environment: ["TODO_DB": sandbox.database],
            answer: answer, prompt: "(Enter: keep everything)")
    }

    @Test func theAnswerSaysWhereTheTodosGoAndEnterKeepsEverything() throws {
        _ = try sandbox.ok("lists", "new", "Work")
        _ = try sandbox.ok("add", "Report", "--list", "Work")
        let kept = try removeOnTerminal(answer: "")
        #expect(kept.status == 0 && kept.screen.contains("Nothing was changed."), "\(kept.screen)")
        #expect(try sandbox.ok("lists").contains("Work"))
        let wrong = try removeOnTerminal(answer: "Nope")
        #expect(wrong.status == 1 && wrong.screen.contains("error: no list named 'Nope'"), "\(wrong.screen)")
        let moved = try removeOnTerminal(answer: "todos")
        #expect(moved.status == 0 && moved.screen.contains("→ 1  Report  (Todos)"), "\(moved.screen)")
        #expect(try sandbox.ok("lists") == "* Todos  1 undone, 0 done\n")
    }
}
