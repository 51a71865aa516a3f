import Foundation
import TestSupport
import Testing

/// Subtasks through the `todo` binary (issue 36, points 1 and 2): made with `add --under` and
/// `edit --under`/`--top`, shown indented in `list` and bare `todo`, with their parents as
/// context when a filter finds them, in `show` and `--json`; `done` and `rm` on a parent ask,
/// refuse in a pipe, or take the subtasks along with `--with-subtasks`, all in one undo step.
@Suite(.timed) struct SubtaskCLITests {
    let sandbox = CLISandbox()

    /// The household of the issue: "Weekend groceries" (1) with Milk (2), Oat milk (3) and Eggs
    /// (4), Sourdough bread (5) under Milk, and Pay rent (6).
    private func groceries() throws {
        #expect(try sandbox.ok("add", "Weekend groceries", "--due", "2026-11-28") == "1\n")
        for name in ["Milk", "Oat milk", "Eggs"] { _ = try sandbox.ok("add", name, "--under", "1") }
        #expect(try sandbox.ok("add", "Sourdough bread", "--parent", "2") == "5\n")
        _ = try sandbox.ok("add", "Pay rent", "--due", "2026-11-20")
    }

    @Test func subtasksAreIndentedUnderTheirParents() throws {
        try groceries()
        let tree = """
              6  [ ]  2026-11-20  Pay rent
              1  [ ]  2026-11-28  Weekend groceries
              2  [ ]                Milk
              5  [ ]                  Sourdough bread
              3  [ ]                Oat milk
              4  [ ]                Eggs

            """
        #expect(try sandbox.ok("list") == tree)
        #expect(try sandbox.ok() == tree, "bare todo")
        // Point 2: a search finds the subtasks; on a terminal their parent shows above them.
        #expect(
            try sandbox.ok("list", "--search", "milk") == "  2  [ ]              Milk\n  3  [ ]              Oat milk\n"
        )
        let screen = try sandbox.onTerminal(["list", "--search", "milk"])
        #expect(screen.contains("  1  [ ]  2026-11-28  ") && screen.contains("Weekend groceries\n"))
        #expect(screen.contains("Milk\n") && screen.contains("  Oat milk"))
        let rows = screen.split(separator: "\n")
        #expect(rows.count == 3 && rows[0].contains("Weekend groceries") && rows[1].hasSuffix("  Milk"))
        // 40 columns: every row fits, the deepest indented.
        let narrow = try sandbox.onTerminal(["list"], columns: "40")
        #expect(narrow.split(separator: "\n").allSatisfy { $0.count <= 40 }, "\(narrow)")
        #expect(narrow.contains("      Sourdough"))
    }

    @Test func showAndJSONCarryParentAndChildren() throws {
        try groceries()
        let show = try sandbox.ok("show", "1")
        #expect(show.contains("\nsubtasks:  [ ] 2  Milk\n           [ ] 3  Oat milk\n           [ ] 4  Eggs\n"))
        #expect(try sandbox.ok("show", "5").contains("\nparent:    [ ] 2  Milk\n"))
        let listed = try sandbox.listJSON()
        let byID = Dictionary(uniqueKeysWithValues: listed.map { ($0["id"] as? Int ?? 0, $0) })
        #expect(byID[1]?["children"] as? [Int] == [2, 3, 4] && byID[1]?["parent"] is NSNull)
        #expect(byID[5]?["parent"] as? Int == 2 && byID[5]?["children"] as? [Int] == [])
        let one = try parseJSON(try sandbox.ok("show", "2", "--json"), as: [String: Any].self, "show --json")
        #expect(one["parent"] as? Int == 1 && one["children"] as? [Int] == [5])
    }

    /// Point 1: a parent is never deleted or completed with its subtasks left behind.
    @Test func rmAndDoneOnAParentRefuseInAPipeAndTakeTheSubtasksWhenTold() throws {
        try groceries()
        let before = sandbox.fileState()
        let rm = try sandbox.todo("rm", "1")
        #expect(rm.status == 1 && rm.stdout.isEmpty)
        #expect(rm.stderr.hasPrefix("error: todo 1 \"Weekend groceries\" has 4 subtasks\n"))
        #expect(rm.stderr.contains("'todo rm 1 --with-subtasks'"))
        let yes = try sandbox.todo("rm", "--yes", "1")
        #expect(yes.status == 1, "--yes alone does not say what becomes of the subtasks")
        let done = try sandbox.todo("done", "1")
        #expect(
            done.status == 1 && done.stderr.hasPrefix("error: todo 1 \"Weekend groceries\" has 4 undone subtasks\n"))
        #expect(sandbox.fileState() == before)

        // A subtask done already is not counted, nor completed again.
        _ = try sandbox.ok("done", "3")
        let counted = try sandbox.todo("done", "1")
        #expect(counted.stderr.hasPrefix("error: todo 1 \"Weekend groceries\" has 3 undone subtasks\n"))
        #expect(
            try sandbox.ok("done", "1", "--with-subtasks")
                == "✓ 1  Weekend groceries\n✓ 2  Milk\n✓ 4  Eggs\n✓ 5  Sourdough bread\n")
        #expect(try sandbox.ok("undo") == "Undid 'done'.\n")
        #expect(try sandbox.listJSON().filter { $0["done"] as? Bool == true }.map { $0["id"] as? Int } == [3])
        // A leaf is done and deleted as ever.
        #expect(try sandbox.ok("done", "5") == "✓ 5  Sourdough bread\n")

        #expect(try sandbox.ok("rm", "2", "--with-subtasks") == "- 2  Milk\n- 5  Sourdough bread\n")
        #expect(try sandbox.ok("undo") == "Undid 'rm'.\n")
        #expect(try sandbox.listJSON().count == 6)
    }

    /// On a terminal, one question says what else goes; no changes nothing.
    @Test func onATerminalRmAndDoneAsk() throws {
        try groceries()
        let no = try PseudoTerminal.run(
            [ProcessRunner.todoBinary, "rm", "1"], environment: ["TODO_DB": sandbox.database], answer: "n")
        #expect(no.screen.contains("Delete 1 \"Weekend groceries\" and 4 subtasks? [y/N]"))
        #expect(no.status == 0)
        #expect(try sandbox.listJSON().count == 6)
        let yes = try PseudoTerminal.run(
            [ProcessRunner.todoBinary, "done", "2"], environment: ["TODO_DB": sandbox.database], answer: "y")
        #expect(yes.screen.contains("Mark 2 \"Milk\" and 1 undone subtask done? [y/N]"))
        #expect(try sandbox.listJSON().filter { $0["done"] as? Bool == true }.map { $0["id"] as? Int } == [2, 5])
        let rm = try PseudoTerminal.run(
            [ProcessRunner.todoBinary, "rm", "1"], environment: ["TODO_DB": sandbox.database], answer: "y")
        #expect(rm.status == 0)
        #expect(try sandbox.listJSON().map { $0["id"] as? Int } == [6])
    }

    @Test func editUnderAndTopAndTheLoopsRefused() throws {
        try groceries()
        #expect(try sandbox.ok("edit", "6", "--under", "4") == "~ 6  Pay rent\n")
        #expect(try sandbox.listJSON().first { $0["id"] as? Int == 6 }?["parent"] as? Int == 4)
        #expect(try sandbox.ok("edit", "6", "--top") == "~ 6  Pay rent\n")
        let before = sandbox.fileState()
        for (arguments, status, message) in [
            (["edit", "1", "--under", "5"], 1, "error: todo 1 cannot go under 5: 5 is one of its own subtasks"),
            (["edit", "2", "--under", "2"], 1, "error: todo 2 cannot be a subtask of itself"),
            (["edit", "2", "--under", "99"], 1, "error: no todo with id 99"),
            (["edit", "2", "--under", "1", "--top"], 2, "error: '--top' and '--under' cannot be used together"),
            (["edit", "2", "--under", "1-3"], 2, "error: '1-3' is not one todo id"),
            (["add", "x", "--under", "1", "--parent", "2"], 2, "error: '--under' and '--parent' say the same"),
            (["add", "x", "--under", "99"], 1, "error: no todo with id 99")
        ] as [([String], Int32, String)] {
            let result = try sandbox.todo(arguments)
            #expect(result.status == status, "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix(message), "\(arguments): \(result.stderr)")
            #expect(result.stderr.components(separatedBy: "error:").count == 2, "\(arguments): one error line")
        }
        #expect(sandbox.fileState() == before)
    }

    @Test func moveTakesTheSubtreeAndAddUnderGoesToTheParentsList() throws {
        try groceries()
        _ = try sandbox.ok("lists", "new", "Work")
        #expect(try sandbox.ok("move", "2", "--to", "Work") == "→ 2  Milk  (Work)\n→ 5  Sourdough bread  (Work)\n")
        let listed = try sandbox.listJSON()
        #expect(listed.filter { $0["list"] as? String == "Work" }.map { $0["id"] as? Int } == [2, 5])
        #expect(listed.first { $0["id"] as? Int == 2 }?["parent"] is NSNull)
        #expect(try sandbox.ok("add", "Slides", "--under", "2") == "7\n")
        #expect(try sandbox.listJSON("--list", "Work").map { $0["id"] as? Int } == [2, 5, 7])
        let refused = try sandbox.todo("add", "y", "--under", "2", "--list", "Todos")
        #expect(refused.status == 1 && refused.stderr.hasPrefix("error: todo 2 is in the list 'Work'"))
    }

    /// `todo check` reports what another program left: a subtask whose parent it deleted.
    @Test func checkReportsLooseSubtasks() throws {
        try groceries()
        #expect(try sandbox.ok("check").contains("\nsubtasks: ok\n"))
        let shell = try ProcessRunner.run("sqlite3", [sandbox.database, "DELETE FROM todos WHERE id = 2"])
        #expect(shell.status == 0)
        let check = try sandbox.ok("check")
        #expect(
            check.contains(
                "subtasks: 1 todo is under a todo gone or in another list (shown at the top level); first: 5 under 2"))
        #expect(try sandbox.ok("list").contains("  5  [ ]              Sourdough bread\n"))
    }
}
