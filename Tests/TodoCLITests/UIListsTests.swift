import Foundation
import TestSupport
import Testing

/// `todo ui` and lists (issue 35), in a real terminal (tmux): rows name their list, `l` shows
/// one list at a time, `m` moves the todo under the cursor (one undo step), `--by list` groups
/// by list, and a list renamed by another program (the sqlite3 shell) is re-titled live.
extension UITests {
    /// Two lists: "Todos" (the default) with Buy milk (1) and Pay rent (3), "Groceries" with Eggs (2).
    private func addTwoLists() throws {
        _ = try sandbox.ok("add", "Buy milk")
        _ = try sandbox.ok("lists", "new", "Groceries")
        _ = try sandbox.ok("add", "Eggs", "--list", "Groceries")
        _ = try sandbox.ok("add", "Pay rent")
    }

    private func listName(ofTodo name: String) throws -> String? {
        try sandbox.listJSON().first { $0["name"] as? String == name }?["list"] as? String
    }

    private func waitForCursor(_ session: TmuxSession, on text: String) throws {
        try session.waitUntil("the cursor on \(text)") { TmuxSession.cursorLine($0)?.contains(text) == true }
    }

    @Test(arguments: [100, 40])
    func rowsNameTheirListWhereThereAreSeveral(columns: Int) throws {
        try addTwoLists()
        let session = try startUI(columns: columns)
        let screen = try session.waitFor("All (3)")
        let rows = Self.allRows(screen)
        #expect(rows.count == 3)
        // As `todo list` writes it, after the name; at 40 columns the row still fits (the
        // terminal's last column is left free), the outline's rows cut from the end.
        #expect(rows.first { $0.contains("Eggs") }?.hasSuffix("Eggs  in Groceries") == true, "\(rows)")
        #expect(rows.first { $0.contains("Buy milk") }?.hasSuffix("Buy milk  in Todos") == true, "\(rows)")
        #expect(screen.allSatisfy { $0.count <= columns - 1 }, "\(screen)")
        if columns == 40 { #expect(screen.contains { $0.hasSuffix("Eggs  in Groc…") }, "\(screen)") }
    }

    @Test func lShowsOneListAtATimeKeepingTheCursorOnItsTodo() throws {
        try addTwoLists()
        let session = try startUI()
        try waitForCursor(session, on: "Buy milk")
        try session.press("l")
        var screen = try session.waitFor("Showing Todos (l switches)")
        #expect(screen[0].contains("list: Todos"))
        screen = try session.waitFor("All (2)")
        // One list shown: rows do not name it.
        #expect(Self.allRows(screen).allSatisfy { !$0.contains("  in ") }, "\(screen)")
        #expect(TmuxSession.cursorLine(screen)?.contains("Buy milk") == true)
        try session.press("j")
        try waitForCursor(session, on: "Pay rent")
        // Groceries does not hold Pay rent: the cursor goes to its first todo.
        try session.press("l")
        screen = try session.waitFor("Showing Groceries (l switches)")
        #expect(screen[0].contains("list: Groceries"))
        try waitForCursor(session, on: "Eggs")
        try session.press("l")
        screen = try session.waitFor("Showing every list (l switches)")
        #expect(!screen[0].contains("list:"))
        try session.waitFor("All (3)")
        try waitForCursor(session, on: "Eggs  in Groceries")
        try session.press("?")
        try session.waitFor("move the todo to another list")
    }

    @Test func mMovesTheTodoUnderTheCursorInOneUndoStep() throws {
        try addTwoLists()
        let session = try startUI(["--by", "list"])
        try session.waitFor("▾ Groceries (1)")
        try waitForCursor(session, on: "Buy milk")
        try session.press("m")
        try session.waitFor("Move to list (Todos, Groceries): _")
        try session.type("Shops")
        try session.press("Enter")
        try session.waitFor("no list named 'Shops': fix it, or Esc cancels")
        #expect(try listName(ofTodo: "Buy milk") == "Todos")
        try session.press("C-u")
        try session.type("groceries")
        try session.press("Enter")
        try session.waitFor("Moved \"Buy milk\" to Groceries (u undoes)")
        try session.waitFor("▾ Groceries (2)")
        #expect(try listName(ofTodo: "Buy milk") == "Groceries")
        let screen = try session.waitFor("Buy milk  in Groceries")
        #expect(TmuxSession.cursorLine(screen)?.contains("Buy milk  in Groceries") == true, "\(screen)")
        try session.press("u")
        try session.waitFor("Undid 'move'")
        try session.waitFor("▾ Groceries (1)")
        #expect(try listName(ofTodo: "Buy milk") == "Todos")
        // One step: the one before it is the add of Pay rent.
        #expect(try sandbox.ok("undo").hasPrefix("Undid 'add'"))
    }

    @Test func aListRenamedByAnotherProgramIsRetitledLive() throws {
        try addTwoLists()
        let session = try startUI(["--by", "list"])
        try session.waitFor("▾ Groceries (1)")
        // Folded first: a group keyed by its list's id keeps its state through the rename.
        for _ in 0..<10 where TmuxSession.cursorLine(try session.screen())?.contains("Groceries (1)") != true {
            let line = TmuxSession.cursorLine(try session.screen())
            try session.press("j")
            try session.waitUntil("the cursor to move") { TmuxSession.cursorLine($0) != line }
        }
        try session.press("Left")
        try session.waitFor("▸ Groceries (1)")
        let rename = try ProcessRunner.run(
            "sqlite3", [sandbox.database, "UPDATE lists SET name = 'Shopping' WHERE id = 2"])
        #expect(rename.status == 0, "\(rename.stderr)")
        let screen = try session.waitFor("▸ Shopping (1)")
        #expect(TmuxSession.cursorLine(screen)?.contains("Shopping (1)") == true, "\(screen)")
        try session.waitFor("Eggs  in Shopping")
        #expect(!screen.contains { $0.contains("Groceries") }, "\(screen)")
    }
}
