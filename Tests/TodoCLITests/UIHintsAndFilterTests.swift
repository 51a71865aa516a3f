import Foundation
import TestSupport
import Testing

/// `todo ui`'s deadline hints and colours (the same as `todo list` shows on a terminal) and
/// its filter prompt (narrows on every key, Enter keeps, Esc puts back), in tmux.
extension UITests {
    /// Todos due at every kind of hint: overdue, today, tomorrow, in 3 days, far off, done, none.
    private func addDated() throws {
        _ = try sandbox.ok("add", "Pay rent", "--due", "2020-01-01")
        _ = try sandbox.ok("add", "Buy milk", "--due", "today")
        _ = try sandbox.ok("add", "Call mom", "--due", "tomorrow")
        _ = try sandbox.ok("add", "Fix bike", "--due", "+3d")
        _ = try sandbox.ok("add", "Renew passport", "--due", "+200d")
        _ = try sandbox.ok("add", "File taxes", "--due", "2020-01-02")
        _ = try sandbox.ok("done", "6")
        _ = try sandbox.ok("add", "Read a book")
    }

    private static let names = [
        "Pay rent", "Buy milk", "Call mom", "Fix bike", "Renew passport", "File taxes", "Read a book"
    ]

    /// `todo list` on a tmux terminal of the same size: its screen, with escapes when asked.
    private func listOnTerminal(
        _ arguments: [String] = [], environment: [String: String] = [:],
        escapes: Bool
    ) throws -> [String] {
        var env = ["TODO_DB": sandbox.database, "TERM": "xterm-256color", "LANG": "C.UTF-8"]
        env.merge(environment) { $1 }
        let assignments = env.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.quote($0.value))" }.joined(
            separator: " ")
        let session = try TmuxSession(
            "env \(assignments) \(Self.quote(ProcessRunner.todoBinary)) list "
                + arguments.map(Self.quote).joined(separator: " "))
        try session.waitFor("EXITED 0")
        return try Self.capture(session, escapes: escapes)
    }

    private static func capture(_ session: TmuxSession, escapes: Bool) throws -> [String] {
        let output = TmuxSession.run(["-L", session.socket, "capture-pane", "-p"] + (escapes ? ["-e"] : [])).stdout
        return output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// The deadline and hint columns of `name`'s first row: from the date to the name (without
    /// escape sequences), e.g. "2020-01-01  overdue     ".
    private static func deadlineColumns(of name: String, in screen: [String]) -> String? {
        guard let row = screen.first(where: { $0.contains(name) }) else { return nil }
        let plain = row.replacing(/\u{1B}\[[0-9;]*m/, with: "")
        guard let date = plain.firstRange(of: /\d{4}-\d{2}-\d{2}/), let nameRange = plain.range(of: name) else {
            // No deadline: the blank columns before the name, after the id.
            return nil
        }
        return String(plain[date.lowerBound..<nameRange.lowerBound])
    }

    /// The SGR sequence just before `name`'s date on its first row, if any.
    private static func colourBeforeDate(of name: String, in screen: [String]) -> String? {
        guard let row = screen.first(where: { $0.contains(name) }),
            let match = row.firstMatch(of: /(\u{1B}\[[0-9;]*m)+(\d{4}-\d{2}-\d{2})/)
        else { return nil }
        return String(match.output.1)
    }

    @Test func rowsCarryListsDeadlineHintsAndColours() throws {
        try addDated()
        let list = try listOnTerminal(["--color", "always"], escapes: true)
        let session = try startUI(["--color", "always"])
        // The cursor's row is reverse video: move it to the last row, whose todo has no date.
        try session.press("End")
        let ui = try session.waitUntil("the cursor on the outline's last row") {
            TmuxSession.cursorLine($0)?.contains("File taxes") == true
        }
        _ = ui
        let colours = try Self.capture(session, escapes: true)
        for name in Self.names {
            #expect(Self.deadlineColumns(of: name, in: colours) == Self.deadlineColumns(of: name, in: list), "\(name)")
        }
        #expect(Self.deadlineColumns(of: "Pay rent", in: colours)?.contains("overdue") == true)
        #expect(Self.deadlineColumns(of: "Buy milk", in: colours)?.contains("today") == true)
        #expect(Self.deadlineColumns(of: "Call mom", in: colours)?.contains("tomorrow") == true)
        #expect(Self.deadlineColumns(of: "Fix bike", in: colours)?.contains("in 3 days") == true)
        // Colours as list's: overdue red, today yellow, the rest (and done todos) plain.
        for name in Self.names where name != "File taxes" {
            #expect(
                Self.colourBeforeDate(of: name, in: colours) == Self.colourBeforeDate(of: name, in: list), "\(name)")
        }
        #expect(Self.colourBeforeDate(of: "Pay rent", in: colours)?.contains("31") == true)
        #expect(Self.colourBeforeDate(of: "Buy milk", in: colours)?.contains("33") == true)
        #expect(Self.colourBeforeDate(of: "Call mom", in: colours) == nil)
        try session.press("q")
        try session.waitFor("EXITED 0")
    }

    @Test(arguments: [(["--color", "never"], [String: String]()), ([], ["NO_COLOR": "1"])])
    func noColourWithNoColorOrNever(arguments: [String], environment: [String: String]) throws {
        try addDated()
        let session = try startUI(arguments, environment: environment)
        let screen = try Self.capture(session, escapes: true)
        let rows = screen.filter { row in Self.names.contains { row.contains($0) } }
        #expect(rows.count == 2 * Self.names.count)
        #expect(rows.allSatisfy { !$0.contains("\u{1B}[") }, "\(rows)")
        // The hints are there all the same, as in list on a terminal.
        let list = try listOnTerminal(environment: ["NO_COLOR": "1"], escapes: false)
        for name in Self.names {
            #expect(Self.deadlineColumns(of: name, in: rows) == Self.deadlineColumns(of: name, in: list), "\(name)")
        }
    }

    @Test func theFilterNarrowsOnEveryKeyEnterKeepsItAndEscPutsBackTheList() throws {
        _ = try sandbox.ok("add", "Buy milk")
        _ = try sandbox.ok("add", "Buy bread")
        _ = try sandbox.ok("add", "Call mom")
        _ = try sandbox.ok("add", "Crème brûlée")
        let session = try startUI()
        try session.waitFor("All (4)")
        try session.press("/")
        try session.waitFor("Filter: _")
        // No Enter: each key narrows the list by itself.
        try session.type("b")
        var screen = try session.waitFor("All (3)")  // Buy milk, Buy bread, Crème brûlée
        #expect(!Self.allRows(screen).contains { $0.contains("Call mom") })
        try session.type("r")
        screen = try session.waitFor("All (2)")  // "br": Buy bread, Crème brûlée
        #expect(Self.allRows(screen).contains { $0.contains("Buy bread") })
        #expect(Self.allRows(screen).contains { $0.contains("Crème brûlée") })
        try session.type("e")
        screen = try session.waitFor("All (1)")
        #expect(Self.allRows(screen).first?.contains("Buy bread") == true)
        #expect(screen[0].contains("filter: \"bre\""))
        // Erasing widens it again, key by key too.
        try session.press("BSpace", "BSpace")
        try session.waitFor("All (3)")
        try session.press("C-u")
        try session.waitFor("All (4)")
        try session.type("c")
        try session.waitFor("All (2)")  // Call mom, Crème brûlée
        // Esc: the list as it was before `/` (no filter).
        try session.press("Escape")
        screen = try session.waitFor("All (4)")
        #expect(!screen[0].contains("filter:"))
        #expect(TmuxSession.footer(screen).contains("Cancelled"))
        // Enter keeps the filter and closes the prompt.
        try session.press("/")
        try session.type("MOM")
        try session.waitFor("All (1)")
        try session.press("Enter")
        screen = try session.waitFor("1 matching \"MOM\"")
        #expect(screen[0].contains("filter: \"MOM\""))
        // Esc goes back to that filter, not to none.
        try session.press("/")
        try session.type("x")
        try session.waitFor("All (0)")
        try session.press("Escape")
        screen = try session.waitFor("Cancelled")
        #expect(screen.contains { $0.hasPrefix("All (1)") })
        #expect(screen[0].contains("filter: \"MOM\""))
        // The kept filter is live: another process's matching todo appears.
        _ = try sandbox.ok("add", "Visit mom")
        try session.waitFor("All (2)")
        // A non-ASCII text, typed key by key, is matched as `todo list --search` does.
        try session.press("/", "C-u")
        try session.waitFor("All (5)")
        try session.type("CRÈ")
        screen = try session.waitFor("All (1)")
        #expect(Self.allRows(screen).first?.contains("Crème brûlée") == true)
        try session.press("Enter", "q")
        try session.waitFor("EXITED 0")
    }

    /// Erasing narrows the list `/` found in memory: it must hold the commits made since.
    @Test func erasingACharacterShowsWhatAnotherProcessAddedMeanwhile() throws {
        _ = try sandbox.ok("add", "Buy milk")
        _ = try sandbox.ok("add", "Call mom")
        let session = try startUI()
        try session.waitFor("All (2)")
        try session.press("/")
        try session.type("bu")
        try session.waitFor("All (1)")
        _ = try sandbox.ok("add", "Buy bread")
        _ = try sandbox.ok("add", "Bake a cake")
        try session.press("BSpace")
        let screen = try session.waitFor("All (3)")  // "b": Buy milk, Buy bread, Bake a cake
        #expect(Self.allRows(screen).contains { $0.contains("Bake a cake") })
        #expect(!Self.allRows(screen).contains { $0.contains("Call mom") })
        try session.press("Escape")
        try session.waitFor("All (4)")
        try session.press("q")
        try session.waitFor("EXITED 0")
    }

    /// A kept filter is a narrowing of the controller's live results: renames by another
    /// program move todos in and out of it, the ui's own toggle regroups it, and Esc after
    /// `/` finds every change in the list beneath.
    @Test func aKeptFilterFollowsRenamesTogglesAndDeletesFromAnyProgram() throws {
        _ = try sandbox.ok("add", "Buy milk")
        _ = try sandbox.ok("add", "Milk the cow")
        _ = try sandbox.ok("add", "Call mom")
        let session = try startUI()
        try session.waitFor("All (3)")
        try session.press("/")
        try session.type("milk")
        try session.waitFor("All (2)")
        try session.press("Enter")
        try session.waitFor("2 matching \"milk\"")
        // Out of it, into it, gone: each by another program.
        _ = try sandbox.ok("edit", "2", "--name", "Feed the cow")
        var screen = try session.waitFor("All (1)")
        #expect(!Self.allRows(screen).contains { $0.contains("cow") })
        _ = try sandbox.ok("edit", "3", "--name", "Call mom about milk")
        screen = try session.waitFor("All (2)")
        #expect(Self.allRows(screen).contains { $0.contains("Call mom about milk") })
        _ = try sandbox.ok("rm", "1")
        screen = try session.waitFor("All (1)")
        #expect(Self.allRows(screen).first?.contains("Call mom about milk") == true)
        // The ui's own toggle: the todo moves to Done in the outline.
        try session.press("Space")
        screen = try session.waitFor("Done (1)")
        #expect(screen.contains { $0.contains("Undone (0)") })
        // Back to the list beneath the filter: every change is there.
        try session.press("/", "C-u")
        screen = try session.waitFor("All (2)")
        #expect(Self.allRows(screen).contains { $0.contains("Feed the cow") })
        #expect(screen.contains { $0.contains("Done (1)") })
        try session.press("Enter", "q")
        try session.waitFor("EXITED 0")
    }

    /// Erasing past a search the list was fetched with (`--search`) cannot be answered from
    /// the todos at hand: it fetches, and typing after that narrows again.
    @Test func erasingPastAFetchedSearchFetches() throws {
        _ = try sandbox.ok("add", "Buy milk")
        _ = try sandbox.ok("add", "Mild salsa")
        _ = try sandbox.ok("add", "Call mom")
        let session = try startUI(["--search", "milk"])
        try session.waitFor("All (1)")
        try session.press("/")
        try session.press("BSpace")
        var screen = try session.waitFor("All (2)")  // "mil": Buy milk, Mild salsa
        #expect(Self.allRows(screen).contains { $0.contains("Mild salsa") })
        #expect(screen[0].contains("filter: \"mil\""))
        try session.press("BSpace", "BSpace", "BSpace")
        screen = try session.waitFor("All (3)")
        #expect(!screen[0].contains("filter:"))
        try session.type("sal")
        screen = try session.waitFor("All (1)")
        #expect(Self.allRows(screen).first?.contains("Mild salsa") == true)
        // Esc: the filter the ui started with.
        try session.press("Escape")
        screen = try session.waitFor("Cancelled")
        #expect(screen[0].contains("filter: \"milk\""))
        #expect(screen.contains { $0.hasPrefix("All (1)") })
        try session.press("q")
        try session.waitFor("EXITED 0")
    }

    /// `todo ui --search Buy --search milk` fetched with both terms, but the header and the
    /// filter prompt showed only "Buy", and editing replaced both. Every term shows, space
    /// separated, and each word typed is a term that must match.
    @Test func severalSearchTermsAllShowAndEachWordTypedMustMatch() throws {
        for name in ["Buy milk", "Buy bread", "milk shake", "Buy oat milk"] { _ = try sandbox.ok("add", name) }
        let session = try startUI(["--search", "Buy", "--search", "milk"])
        var screen = try session.waitFor("All (2)")
        #expect(screen[0].contains("filter: \"Buy milk\""), "\(screen[0])")
        try session.press("/")
        screen = try session.waitUntil("the filter prompt") { TmuxSession.footer($0) == "Filter: Buy milk_" }
        try session.type(" oat")
        screen = try session.waitFor("All (1)")
        #expect(Self.allRows(screen).first?.contains("Buy oat milk") == true)
        try session.press("C-w", "C-w")
        screen = try session.waitFor("All (3)")
        #expect(screen[0].contains("filter: \"Buy\""))
        try session.press("Enter")
        try session.waitFor("3 matching \"Buy\"")
        try session.press("q")
        try session.waitFor("EXITED 0")
    }

    @Test func aFilterKeyAtAHundredThousandTodosNarrowsTheListAtOnce() throws {
        try seed(100_000)
        let session = try startUI(timeout: 10)
        try session.waitFor("All (100000)", timeout: 20)
        try session.press("/")
        // "todo 9...": two terms, both matched (names containing "todo" and "9", "99"...).
        for (text, count) in [
            ("t", 100_000), ("o", 100_000), ("d", 100_000), ("o", 100_000), (" ", 100_000),
            ("9", 40_951), ("9", 3_691), ("9", 280), ("9", 19), ("9", 1)
        ] {
            try session.type(text)
            try session.waitFor("All (\(count))", timeout: 10)
        }
        // A key typed while the narrowed list's results load is handled at once.
        try session.press("Enter")
        try session.waitFor("1 matching")
        try session.press("/", "C-u")
        try session.waitFor("100000 todos", timeout: 10)
    }
}
