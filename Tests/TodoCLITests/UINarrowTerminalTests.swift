import Foundation
import TestSupport
import Testing

@testable import todo

/// `todo ui` in a 40x20 terminal, a phone over SSH (issue 25): every prompt fits the width
/// with nothing wrapped by the terminal, and every answer key and label stays visible.
extension UITests {
    /// A line the ui drew is at most 39 columns (one less than the terminal's, so the last row
    /// never scrolls): a 40-column line is one the terminal may have wrapped.
    static func fitsFortyColumns(_ screen: [String]) -> Bool {
        screen.allSatisfy { $0.unicodeScalars.count < 40 }
    }

    @Test func everyPromptFitsFortyColumnsWithItsKeysVisible() throws {
        let longName = "Renew the passport before the trip to Lisbon in the spring"
        _ = try sandbox.ok("add", longName, "--due", "2024-05-01")
        _ = try sandbox.ok("add", "Pay rent")
        let session = try startUI(columns: 40, rows: 20)
        func check(_ screen: [String], _ what: String) {
            #expect(Self.fitsFortyColumns(screen), "\(what):\n\(screen.joined(separator: "\n"))")
            #expect(screen.first?.hasPrefix("todo · 2 todos") == true, "\(what): the header scrolled away")
        }
        check(try session.screen(), "the list")

        try session.press("d")
        var screen = try session.waitUntil("the delete prompt") { TmuxSession.footer($0).hasSuffix("\"? [y/N]") }
        #expect(TmuxSession.footer(screen).hasPrefix("Delete \"Renew the passport"))
        check(screen, "delete")
        try session.press("n")
        try session.waitFor("Kept")

        try session.press("a")
        screen = try session.waitFor("New todo: _")
        check(screen, "add name")
        try session.type(longName + " again")
        screen = try session.waitUntil("the name typed") { TmuxSession.footer($0).hasSuffix("again_") }
        check(screen, "add name, long")
        try session.press("Enter")
        screen = try session.waitFor("Deadline: _")
        // The accepted forms, wrapped above the prompt rather than cut.
        #expect(screen.joined(separator: " ").contains("(YYYY-MM-DD, tomorrow, fri, +3d; empty: none)"))
        check(screen, "deadline")
        try session.type("someday")
        try session.press("Enter")
        screen = try session.waitFor("'someday' is not a date")
        #expect(screen.joined(separator: " ").contains("fix it, or Esc cancels"))
        #expect(TmuxSession.footer(screen) == "Deadline: someday_")
        check(screen, "deadline, asked again")
        try session.press("Escape")
        try session.waitFor("Cancelled")

        try session.press("/")
        screen = try session.waitFor("Filter: _")
        check(screen, "filter")
        try session.press("Escape")
        try session.waitFor("Cancelled")

        // Help is taller than the screen: it says it scrolls, and scrolling shows its end.
        try session.press("?")
        screen = try session.waitFor("↑↓ jk scroll · other keys return")
        check(screen, "help")
        #expect(screen.contains { $0.contains("move the cursor (PgUp") })
        // The page's last words.
        func showsTheEnd(_ screen: [String]) -> Bool { screen.contains { $0.hasSuffix("erase.") } }
        #expect(!showsTheEnd(screen))
        try session.press("G")
        screen = try session.waitUntil("the end of help", showsTheEnd)
        check(screen, "help, scrolled")
        try session.press("g")
        try session.waitFor("move the cursor (PgUp")
        try session.press("x")
        try session.waitUntil("the list") { TmuxSession.footer($0).contains("q quit") }
    }

    /// Issue 25, "Must show": `todo list`, `list --outline`, `todo help` and `todo help list`
    /// in a 40x20 terminal (no COLUMNS: the width is the terminal's): nothing wrapped by the
    /// terminal, no line over 40 columns, the names there (cut) and the help's words whole.
    @Test func listAndHelpFitAFortyByTwentyTerminal() throws {
        for index in 1...12 {
            _ = try sandbox.ok("add", "Renew the passport before trip \(index)", "--due", "2024-05-\(10 + index)")
        }
        _ = try sandbox.ok("done", "3")
        for arguments in [["list"], ["list", "--outline"], ["help"], ["help", "list"]] {
            let command =
                "env TODO_DB=\(Self.quote(sandbox.database)) TERM=xterm-256color LANG=C.UTF-8 "
                + "\(Self.quote(ProcessRunner.todoBinary)) " + arguments.joined(separator: " ")
            let session = try TmuxSession(command, columns: 40, rows: 20)
            try session.waitFor("EXITED 0")
            let lines = try session.transcript()
            let what = "todo \(arguments.joined(separator: " "))"
            let wide = lines.filter { DisplayWidth.of($0) > 40 }
            #expect(
                wide.isEmpty,
                "\(what): wider than 40 columns (the terminal wrapped them):\n\(wide.joined(separator: "\n"))")
            if arguments[0] == "list" {
                #expect(lines.contains { $0.contains("Renew the pass") }, "\(what):\n\(lines.joined(separator: "\n"))")
                #expect(lines.filter { $0.hasSuffix("…") }.count >= 12, "\(what): names are cut to fit")
            } else {
                #expect(lines.contains { $0.hasPrefix("OPTIONS:") }, "\(what)")
                #expect(!lines.contains { $0.hasSuffix("…") }, "\(what): help is wrapped, never cut")
            }
        }
    }

    /// Issue 25, bug 8: a filter that matches nothing said "(no todos: press a to add one)",
    /// and after Esc the cursor sat on "Done (0)" with the "All" heading scrolled away.
    @Test func aFilterMatchingNothingSaysSoAndEscGoesBackToTheTodo() throws {
        try seed(12)
        let session = try startUI(columns: 40, rows: 20)
        for step in 2...5 {
            try session.press("j")
            try session.waitUntil("cursor on todo \(step)") {
                TmuxSession.cursorLine($0)?.hasSuffix("todo \(step)") == true
            }
        }
        try session.press("/")
        try session.type("zzz")
        var screen = try session.waitFor("(no todo matches the filter)")
        #expect(screen.contains("  (Esc puts the list back)"))
        #expect(!screen.contains { $0.contains("press a to add one") })
        try session.press("Escape")
        screen = try session.waitFor("All (12)")
        #expect(TmuxSession.cursorLine(screen)?.hasSuffix("todo 5") == true, "\(screen.joined(separator: "\n"))")
        #expect(screen[1] == "All (12)", "the heading is on screen")
        // A kept filter that matches nothing says how to clear it.
        try session.press("/")
        try session.type("zzz")
        try session.press("Enter")
        try session.waitFor("(/ Ctrl-U Enter clears it)")
    }

    /// Issue 25, friction 8: every todo was shown twice (All and Outline), halving a 20-row
    /// screen; `v` shows one section or both, and the next run starts with the same.
    @Test func vShowsOneSectionOrBothAndTheNextRunRemembers() throws {
        try seed(3)
        var session = try startUI(columns: 40, rows: 20)
        func shownOnce(_ screen: [String]) -> Bool { screen.filter { $0.hasSuffix("todo 2") }.count == 1 }
        try session.press("v")
        var screen = try session.waitFor("Showing All (v switches)")
        #expect(screen[1] == "All (3)" && !screen.contains("Outline") && shownOnce(screen))
        try session.press("v")
        screen = try session.waitFor("Showing Outline (v switches)")
        #expect(screen[1] == "Outline" && !screen.contains("All (3)") && shownOnce(screen))
        #expect(TmuxSession.cursorLine(screen)?.hasSuffix("todo 1") == true)
        try session.press("q")
        try session.waitFor("EXITED 0")
        let saved = try String(contentsOfFile: sandbox.folder.path + "/.local/state/todo/ui", encoding: .utf8)
        #expect(saved == "sections = outline\nsort = status\n", "the sort is kept beside them")

        session = try startUI(columns: 40, rows: 20)
        screen = try session.waitFor("Undone (3)")
        #expect(screen[1] == "Outline" && !screen.contains("All (3)"))
        try session.press("v")
        screen = try session.waitFor("Showing All and Outline")
        #expect(screen.contains("All (3)") && screen.contains("Outline"))
    }

    /// A state file that cannot be written is not worth failing the ui for.
    @Test func vWorksWhenTheStateFileCannotBeWritten() throws {
        try seed(3)
        let blocker = sandbox.folder.file("not-a-folder")
        #expect(FileManager.default.createFile(atPath: blocker, contents: Data("x".utf8)))
        let session = try startUI(environment: ["XDG_STATE_HOME": blocker], columns: 40, rows: 20)
        try session.press("v")
        let screen = try session.waitFor("Showing All (v switches)")
        #expect(!screen.contains { $0.contains("error") })
        try session.press("q")
        try session.waitFor("EXITED 0")
    }
}
