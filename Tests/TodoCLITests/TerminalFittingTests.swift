import Foundation
import TestSupport
import Testing

/// Issue 37, point 7, in a real terminal (tmux): `todo next` and bare `todo` show what fits the
/// terminal's height and say how many more there are (a pipe gets every row of bare `todo`);
/// `todo ui` opens on the undone todos and remembers its sort as it remembers its sections.
@Suite(.timed) struct TerminalFittingTests {
    let sandbox = CLISandbox()

    /// The environment of a command run in tmux: the sandbox's file, home and a UTF-8 locale.
    private var environment: String {
        [
            "TODO_DB": sandbox.database, "HOME": sandbox.folder.path, "XDG_DATA_HOME": sandbox.folder.file("xdg"),
            "TERM": "xterm-256color", "LANG": "C.UTF-8", "NO_COLOR": "1", "TZ": "UTC"
        ].sorted { $0.key < $1.key }.map { "\($0.key)=\(UITests.quote($0.value))" }.joined(separator: " ")
    }

    /// `todo ARGUMENTS` in a tmux window `rows` high; its screen once it has exited, the last
    /// row a stand-in for the shell's prompt, `$ 0` (its exit status): the rows above it are
    /// what a person sees.
    private func screen(_ arguments: [String], rows: Int, columns: Int = 80) throws -> [String] {
        // printf leaves the cursor on the prompt's line, as a shell's prompt does: an echo's
        // newline would scroll the screen by one more line than a person's shell does.
        let command =
            "env \(environment) \(UITests.quote(ProcessRunner.todoBinary)) "
            + arguments.map(UITests.quote).joined(separator: " ") + "; printf '$ %s' $?; sleep 600"
        let session = try TmuxSession(command, columns: columns, rows: rows)
        let screen = try session.waitUntil("the prompt") { $0.contains("$ 0") }
        // Rows from the first to the prompt's (capture-pane ends with a newline: no row).
        return Array(screen.prefix { $0 != "$ 0" }) + ["$ 0"]
    }

    /// `count` undone todos named "todo N", priority N % 10, and `done` done ones, by sqlite3.
    private func seed(_ count: Int, done: Int = 0) throws {
        _ = try sandbox.ok("list")
        let sql = """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(count))
            INSERT INTO todos(name, priority) SELECT 'todo ' || i, i % 10 FROM n;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(done))
            INSERT INTO todos(name, done) SELECT 'finished ' || i, 1 FROM n WHERE \(done) > 0;
            """
        let result = try ProcessRunner.run("sqlite3", [sandbox.database, sql])
        #expect(result.status == 0, "sqlite3: \(result.stderr)")
    }

    @Test func nextFitsTheTerminalsHeightAndSaysHowManyMore() throws {
        try seed(40)
        // 12 rows: 10 todos, the "more" line, and the prompt.
        let shown = try screen(["next"], rows: 12)
        #expect(shown.count == 12)
        #expect(shown[0].hasSuffix("todo 1"), "the most urgent is on the screen: \(shown)")
        #expect(shown[0].hasPrefix("  6.0"), "\(shown[0])")
        #expect(shown[10] == "… and 30 more: todo next --limit 40")
        #expect(shown[11] == "$ 0")
        // What the most urgent ten are: priorities 1 to 4 (high), by id.
        let ids = shown[0..<10].compactMap { $0.split(separator: " ").dropFirst().first.flatMap { Int($0) } }
        #expect(ids == [1, 2, 3, 4, 11, 12, 13, 14, 21, 22])
        // Filters are kept in the line that names the command, each a shell word; a note above
        // the rows takes a row of its own.
        let filtered = try screen(["next", "--no-tag", "nosuch"], rows: 12)
        #expect(filtered[0] == "note: no todo has the tag +nosuch")
        #expect(filtered[10] == "… and 31 more: todo next --no-tag nosuch --limit 40", "\(filtered)")
        let searched = try screen(["next", "--search", "todo 1"], rows: 8)
        #expect(searched[6] == "… and 5 more: todo next --search 'todo 1' --limit 11", "\(searched)")
        // --limit asks for more than fit: they scroll, and the line still counts the rest.
        let asked = try screen(["next", "--limit", "35"], rows: 12)
        #expect(asked.contains("… and 5 more: todo next --limit 40"))
        // On a narrow terminal the line wraps, and takes a row more from the todos.
        let narrow = try screen(["next"], rows: 12, columns: 30)
        #expect(narrow.count == 12 && narrow[0].hasPrefix("  6.0   1  [ ]"), "\(narrow)")
        #expect((narrow[9] + narrow[10]).hasPrefix("… and 31 more: todo next"), "\(narrow)")
        // Few enough to fit: every one, no line.
        let few = try screen(["next", "--tag", "nosuch"], rows: 12)
        #expect(few.contains("No todos.") && !few.contains { $0.hasPrefix("…") })
    }

    @Test func bareTodoFitsTheTerminalAndAPipeGetsEveryRow() throws {
        try seed(40, done: 3)
        // 12 rows: 9 todos, "… and 31 more", the done count, and the prompt.
        let shown = try screen([], rows: 12)
        #expect(shown.count == 12)
        #expect(shown[0].contains("todo 1") && shown[8].contains("todo 9"), "\(shown)")
        #expect(shown[9] == "… and 31 more: todo list --undone")
        #expect(shown[10] == "3 done todos hidden: todo list --done")
        #expect(shown[11] == "$ 0")
        // Its options are named again, each a shell word.
        let listed = try screen(["--list", "Todos", "--blocked"], rows: 6)
        #expect(listed.contains("No todos."))
        let unblocked = try screen(["--unblocked", "--list", "Todos"], rows: 12)
        #expect(unblocked[9] == "… and 31 more: todo list --undone --unblocked --list Todos")
        // A screen that holds them all: no line.
        let tall = try screen([], rows: 50)
        #expect(tall.contains { $0.contains("todo 40") } && !tall.contains { $0.hasPrefix("…") })
        // A pipe gets every row, as today.
        #expect(try sandbox.ok().split(separator: "\n").count == 40)
    }

    /// Starts `todo ui` and waits for its first screen.
    private func startUI(_ arguments: [String] = [], rows: Int = 30) throws -> TmuxSession {
        let command =
            "env \(environment) \(UITests.quote(ProcessRunner.todoBinary)) ui "
            + arguments.map(UITests.quote).joined(separator: " ")
        let session = try TmuxSession(command, columns: 100, rows: rows)
        try session.waitUntil("the first screen") { screen in
            screen.contains { $0.hasPrefix("All (") } && TmuxSession.footer(screen).contains("quit")
        }
        return session
    }

    @Test func uiOpensOnUndoneTodosAndRemembersItsSort() throws {
        // Forty todos due in 2026, and one done in 2021 with the earliest deadline of all.
        _ = try sandbox.ok("add", "Old chore", "--due", "2021-03-01")
        _ = try sandbox.ok("done", "1")
        _ = try sandbox.ok("list")
        let sql = """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 40)
            INSERT INTO todos(name, deadline) SELECT 'chore ' || i, date('2026-01-01', '+' || i || ' days') FROM n;
            """
        #expect(try ProcessRunner.run("sqlite3", [sandbox.database, sql]).status == 0)

        let session = try startUI()
        var screen = try session.screen()
        #expect(
            !screen.contains { $0.contains("Old chore") },
            "a done todo of 2021 opens the list:\n\(screen.joined(separator: "\n"))")
        #expect(screen.contains { $0.contains("chore 1") })
        #expect(screen.first?.contains("sort: status") == true, "\(screen.first ?? "")")
        // s sorts by priority; the next run starts there.
        try session.press("s")
        try session.waitUntil("the new sort") { TmuxSession.footer($0).contains("Sorted by priority") }
        try session.press("q")
        try session.waitFor("EXITED 0")
        let state = try String(contentsOfFile: sandbox.folder.file(".local/state/todo/ui"), encoding: .utf8)
        #expect(state.contains("sort = priority"), "\(state)")
        let again = try startUI()
        screen = try again.screen()
        #expect(screen.first?.contains("sort: priority") == true, "\(screen.first ?? "")")
        try again.press("q")
        try again.waitFor("EXITED 0")
        // --sort chooses for one run, and is not remembered; due puts the old deadline first.
        let due = try startUI(["--sort", "due"])
        screen = try due.screen()
        #expect(UITests.allRows(screen).first?.contains("Old chore") == true, "\(screen.joined(separator: "\n"))")
        try due.press("q")
        try due.waitFor("EXITED 0")
        #expect(try String(contentsOfFile: sandbox.folder.file(".local/state/todo/ui"), encoding: .utf8) == state)
        // v keeps the sort in the file too.
        let sections = try startUI()
        try sections.press("v")
        try sections.waitUntil("the sections") { TmuxSession.footer($0).contains("Showing") }
        try sections.press("q")
        try sections.waitFor("EXITED 0")
        let both = try String(contentsOfFile: sandbox.folder.file(".local/state/todo/ui"), encoding: .utf8)
        #expect(both.contains("sort = priority") && both.contains("sections = all"), "\(both)")
    }
}
