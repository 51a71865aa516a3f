import Foundation
import TestSupport
import Testing

@testable import todo

/// Subtasks in a 40x20 terminal (issue 36, "Must show"): a three-level tree in `todo list`,
/// `todo list --outline` and `todo ui`, folded and unfolded; every line fits, each level is
/// indented under the one above, and the ui's cursor stays on its todo through other programs'
/// commits (one that moves it to another level, one that puts it under a folded todo).
extension UITests {
    /// Weekend groceries > Milk > Oat milk, and Pay rent at the top: names too long for 40
    /// columns, so that fitting cuts them.
    func addThreeLevels() throws {
        _ = try sandbox.ok("add", "Weekend groceries for the whole family")
        _ = try sandbox.ok("add", "Milk and dairy from the farm shop", "--under", "1")
        _ = try sandbox.ok("add", "Oat milk unsweetened barista edition", "--under", "2")
        _ = try sandbox.ok("add", "Pay rent")
    }

    /// The todo rows of the "All" section on the screen (its lines with a state mark).
    static func todoRows(_ screen: [String]) -> [String] {
        allRows(screen).filter { row in ["[ ]", "[x]", "[~]", "[-]"].contains { row.contains($0) } }
    }

    /// Where a row's name starts: the column of `word` in the line that has it.
    static func column(of word: String, in lines: [String]) -> Int? {
        for line in lines {
            if let range = line.range(of: word) { return line.distance(from: line.startIndex, to: range.lowerBound) }
        }
        return nil
    }

    @Test func aThreeLevelTreeFitsFortyColumnsInListAndOutline() throws {
        try addThreeLevels()
        for arguments in [["list"], ["list", "--outline"]] {
            let command =
                "env TODO_DB=\(Self.quote(sandbox.database)) TERM=xterm-256color LANG=C.UTF-8 "
                + "\(Self.quote(ProcessRunner.todoBinary)) " + arguments.joined(separator: " ")
            let session = try TmuxSession(command, columns: 40, rows: 20)
            try session.waitFor("EXITED 0")
            let lines = try session.transcript()
            let what = "todo \(arguments.joined(separator: " ")):\n\(lines.joined(separator: "\n"))"
            #expect(lines.allSatisfy { DisplayWidth.of($0) <= 40 }, "\(what)")
            // Each level two columns right of the one above it.
            let columns = ["Weekend", "Milk and", "Oat milk"].map { Self.column(of: $0, in: lines) }
            #expect(columns.allSatisfy { $0 != nil }, "\(what)")
            if let top = columns[0], let middle = columns[1], let bottom = columns[2] {
                #expect(middle == top + 2 && bottom == top + 4, "\(what)")
            }
            #expect(Self.column(of: "Pay rent", in: lines) == columns[0], "\(what)")
        }
    }

    @Test func theUIShowsFoldsAndGrowsTheTreeAndKeepsTheCursorOnItsTodo() throws {
        try addThreeLevels()
        let session = try startUI(columns: 40, rows: 20)
        func check(_ screen: [String], _ what: String) {
            #expect(Self.fitsFortyColumns(screen), "\(what):\n\(screen.joined(separator: "\n"))")
        }
        // "All" alone, so that a fold shows in what the screen holds.
        try session.press("v")
        var screen = try session.waitFor("Showing All")
        check(screen, "the tree")
        let rows = Self.todoRows(screen)
        let what = rows.joined(separator: "\n")
        #expect(rows.count == 4, "\(what)")
        // The parent's mark says it is open; each level is two columns deeper.
        #expect(rows.first?.contains("▾ Weekend") == true, "\(what)")
        let columns = ["Weekend", "Milk and", "Oat milk"].map { Self.column(of: $0, in: rows) }
        if let top = columns[0], let middle = columns[1], let bottom = columns[2] {
            #expect(middle == top + 2 && bottom == top + 4, "\(what)")
        } else {
            Issue.record("a level is missing:\n\(what)")
        }

        // Folded: the cursor's todo (the first) hides its two levels of subtasks.
        #expect(TmuxSession.cursorLine(screen)?.contains("Weekend") == true)
        try session.press("Left")
        screen = try session.waitUntil("folded") { Self.todoRows($0).count == 2 }
        check(screen, "folded")
        #expect(Self.todoRows(screen).first?.contains("▸ Weekend") == true, "\(screen.joined(separator: "\n"))")
        #expect(screen.contains { $0.hasPrefix("All (4)") }, "the count is every todo's")
        try session.press("Right")
        screen = try session.waitUntil("unfolded") { Self.todoRows($0).count == 4 }
        check(screen, "unfolded")
        try session.press("z")
        try session.waitUntil("folded by z") { Self.todoRows($0).count == 2 }
        try session.press("z")
        try session.waitUntil("unfolded by z") { Self.todoRows($0).count == 4 }

        // A fourth level under "Oat milk", with A; the cursor goes to it.
        try session.press("j", "j")
        try session.waitUntil("the cursor on Oat milk") { TmuxSession.cursorLine($0)?.contains("Oat milk") == true }
        try session.press("A")
        screen = try session.waitFor("New subtask")
        check(screen, "the subtask prompt")
        try session.type("Fourth level")
        try session.press("Enter")
        try session.waitFor("Deadline: _")
        try session.press("Enter")
        screen = try session.waitUntil("the subtask added") { TmuxSession.cursorLine($0)?.contains("Fourth") == true }
        check(screen, "four levels")
        let oat = Self.column(of: "Oat milk", in: Self.todoRows(screen))
        let fourth = Self.column(of: "Fourth", in: Self.todoRows(screen))
        #expect(oat != nil && fourth == oat.map { $0 + 2 }, "\(screen.joined(separator: "\n"))")
        let added = try sandbox.listJSON().first { $0["name"] as? String == "Fourth level" }
        #expect(added?["parent"] as? Int == 3)

        // Another program moves the cursor's todo to the top level, and adds a todo above it:
        // the cursor stays on it.
        _ = try sandbox.ok("add", "Earlier", "--due", "2020-01-01")
        _ = try sandbox.ok("edit", "5", "--top")
        screen = try session.waitUntil("moved to the top") { screen in
            Self.todoRows(screen).count == 6 && Self.column(of: "Fourth", in: Self.todoRows(screen)) == columns[0]
        }
        #expect(TmuxSession.cursorLine(screen)?.contains("Fourth") == true, "\(screen.joined(separator: "\n"))")
        check(screen, "after other programs' commits")

        // Folded "Weekend", then another program puts the cursor's todo under it: the fold
        // opens so that the cursor stays on its todo.
        try session.press("g")
        try session.waitUntil("the cursor on the first") { TmuxSession.cursorLine($0)?.contains("Earlier") == true }
        try session.press("j", "Left")
        try session.waitUntil("folded again") { Self.todoRows($0).count == 4 }
        // Undated todos in id order: "Fourth level" (5) is the last.
        try session.press("G")
        try session.waitUntil("the cursor on Fourth") { TmuxSession.cursorLine($0)?.contains("Fourth") == true }
        _ = try sandbox.ok("edit", "5", "--under", "2")
        screen = try session.waitUntil("under the folded todo") { screen in
            Self.column(of: "Fourth", in: Self.todoRows(screen)) == columns[0].map { $0 + 4 }
        }
        #expect(TmuxSession.cursorLine(screen)?.contains("Fourth") == true, "\(screen.joined(separator: "\n"))")
        check(screen, "revealed")

        // The help screen names the keys.
        try session.press("?")
        try session.waitFor("fold or unfold")
        try session.press("j", "j", "j", "j", "j", "j")
        screen = try session.waitFor("add a subtask")
        check(screen, "help")
    }
}
