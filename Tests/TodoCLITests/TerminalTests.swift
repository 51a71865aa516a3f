import Foundation
import TestSupport
import Testing

/// Behaviour that depends on a terminal: colour, widths, the delete question.
@Suite(.timed) struct TerminalTests {
    let sandbox = CLISandbox()
    private let escape = "\u{1B}["

    private func onTerminal(_ arguments: String..., environment: [String: String] = [:], answer: String? = nil) throws
        -> PseudoTerminal.Result
    {
        var env = ["TODO_DB": sandbox.database, "TZ": "UTC"]
        env.merge(environment) { $1 }
        return try PseudoTerminal.run([ProcessRunner.todoBinary] + arguments, environment: env, answer: answer)
    }

    @Test func colourOnlyOnATerminalAndNeverWithNoColorOrNever() throws {
        _ = try sandbox.ok("add", "late", "--due", "2001-01-01")
        #expect(try onTerminal("list").screen.contains(escape))
        // Each colourless screen must still show the list: an empty one has no colour either.
        for (arguments, environment) in [
            (["list"], ["NO_COLOR": "1"]), (["list", "--color", "never"], [:]), (["list"], ["TERM": "dumb"])
        ] {
            let screen = try PseudoTerminal.run(
                [ProcessRunner.todoBinary] + arguments,
                environment: ["TODO_DB": sandbox.database, "TZ": "UTC"].merging(environment) { $1 }
            ).screen
            #expect(
                screen.contains("late") && !screen.contains(escape),
                "\(arguments) \(environment): \(screen.debugDescription)")
        }
        let piped = try sandbox.ok("list")
        #expect(piped.contains("late") && !piped.contains(escape), "a pipe gets no colour")
        #expect(
            try sandbox.ok("list", "--color", "always").contains("\(escape)31m"),
            "--color always forces it; overdue is red")
        #expect(try sandbox.ok("--color=always", "list", environment: ["NO_COLOR": "1"]).contains(escape))
    }

    @Test func namesAreCutToTheWidthCountingWideCharacters() throws {
        _ = try sandbox.ok("add", String(repeating: "long name ", count: 20))
        _ = try sandbox.ok("add", String(repeating: "日本語", count: 20))
        _ = try sandbox.ok("add", "short")
        let screen = try PseudoTerminal.run(
            [ProcessRunner.todoBinary, "list", "--color", "never"],
            environment: ["TODO_DB": sandbox.database, "COLUMNS": "60"]
        ).screen
        let lines = screen.replacingOccurrences(of: "\r", with: "").split(separator: "\n")
        #expect(lines.count == 3, "\(screen)")
        #expect(lines[0].hasSuffix("…") && lines[1].hasSuffix("…"))
        #expect(lines[2].hasSuffix("short"))
        // Display width: ASCII 1 column, CJK 2 columns; no row may pass 60 columns.
        for line in lines {
            let width = line.unicodeScalars.reduce(0) { $0 + (($1.value >= 0x3000 && $1.value < 0xA000) ? 2 : 1) }
            #expect(width <= 60, "\(line) is \(width) columns")
        }
        #expect(try sandbox.ok("list").contains(String(repeating: "long name ", count: 20)), "a pipe is never cut")
        // Not even with COLUMNS exported (`export COLUMNS=40; todo list | grep ...`).
        let piped = try sandbox.ok("list", environment: ["COLUMNS": "40"])
        #expect(piped.contains(String(repeating: "long name ", count: 20)) && !piped.contains("…"), "\(piped)")
    }

    /// At 40 columns (a phone over SSH) no row is wider than the terminal: the hint column goes
    /// first, then names are cut; at 100 columns the hints are back.
    @Test func rowsFitAFortyColumnTerminal() throws {
        for index in 1...12 {
            _ = try sandbox.ok("add", "a rather long todo name number \(index)", "--due", "tomorrow")
        }
        _ = try sandbox.ok("done", "3")
        func screen(_ arguments: [String], columns: Int) throws -> [String] {
            let screen = try PseudoTerminal.run(
                [ProcessRunner.todoBinary] + arguments + ["--color", "never"],
                environment: ["TODO_DB": sandbox.database, "COLUMNS": String(columns)]
            ).screen
            return screen.replacingOccurrences(of: "\r", with: "").split(separator: "\n").map(String.init)
        }
        for arguments in [["list"], ["list", "--outline"]] {
            let narrow = try screen(arguments, columns: 40)
            #expect(narrow.count >= 12, "\(arguments): \(narrow)")
            for line in narrow { #expect(line.count <= 40, "\(arguments): \(line) is \(line.count) columns") }
            #expect(!narrow.contains { $0.contains("tomorrow") }, "\(arguments): the hint column stays at 40")
            #expect(narrow.contains { $0.hasSuffix("…") }, "\(arguments): names are cut")
            let wide = try screen(arguments, columns: 100)
            #expect(wide.contains { $0.contains("tomorrow") && $0.hasSuffix("number 1") }, "\(arguments): \(wide)")
        }
    }

    /// Issue 25, friction 10: help on a 40-column terminal broke lines mid-word (the terminal
    /// wrapped them). It is wrapped at word boundaries to the width, option descriptions hanging
    /// under their labels; in a pipe it is unchanged, whatever COLUMNS says.
    @Test func helpIsWrappedToTheTerminalAtWordBoundaries() throws {
        func words(_ text: String) -> [Substring] { text.split { $0.isWhitespace } }
        for arguments in [["help"], ["help", "list"], ["list", "--help"], ["help", "import"], ["--help"]] {
            let screen = try PseudoTerminal.run(
                [ProcessRunner.todoBinary] + arguments, environment: ["TODO_DB": sandbox.database, "COLUMNS": "40"]
            ).screen
            let lines = screen.replacingOccurrences(of: "\r", with: "").split(separator: "\n")
            for line in lines { #expect(line.count <= 40, "\(arguments): \(line) is \(line.count) columns") }
            let piped = try sandbox.ok(arguments, environment: ["COLUMNS": "40"])
            #expect(piped.split(separator: "\n").contains { $0.count > 40 }, "\(arguments): a pipe is not wrapped")
            // The same words, none cut or split: only the spaces and line breaks differ.
            #expect(words(screen) == words(piped), "\(arguments):\n\(screen)")
        }
        let list = try onTerminal("help", "list", environment: ["COLUMNS": "40"]).screen
            .replacingOccurrences(of: "\r", with: "")
        #expect(
            list.contains(
                "  --outline\n      Group the todos under \"Undone\" and\n      \"Done\" (both always shown), or as\n"
                    + "      --by says; subtasks are indented\n      under their parent in its group.\n"
            ))
        #expect(list.contains("USAGE: todo list [--outline]\n       [--by <group>] [--sort <order>]"), "\(list)")
        // Wide enough for two columns, descriptions hang at their column.
        let wide = try onTerminal("help", "list", environment: ["COLUMNS": "60"]).screen
            .replacingOccurrences(of: "\r", with: "")
        #expect(
            wide.contains(
                "  --sort <order>        due (deadline, undated last, a todo\n                        after the todos it waits for; the\n"
            ),
            "\(wide)")
    }

    /// Issue 25, bug 1: a row's id column was as wide as the file's largest id, not the largest
    /// id listed, taking columns from the name at 40. It is as wide as the widest id shown:
    /// filtered, limited, outlined, and in a pipe too.
    @Test func theIdColumnIsAsWideAsTheWidestIdShown() throws {
        _ = try sandbox.ok("list")
        let sql =
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1200) "
            + "INSERT INTO todos(name, done) SELECT 'imported ' || i, 1 FROM n;"
        #expect(try ProcessRunner.run("sqlite3", [sandbox.database, sql]).status == 0)
        _ = try sandbox.ok("add", "Renew the passport before the trip")
        _ = try sandbox.ok("add", "Pay rent", "--due", "2024-05-01")
        for id in ["7", "12"] { _ = try sandbox.ok("undone", id) }
        // Undone: ids 7, 12, 1201, 1202; done up to 1200.
        #expect(
            try sandbox.ok("list", "--undone", "--search", "imported") == "   7  [ ]  "
                + String(repeating: " ", count: 10) + "  imported 7\n  12  [ ]  " + String(repeating: " ", count: 10)
                + "  imported 12\n")
        #expect(
            try sandbox.ok("list", "--limit", "1", "--search", "imported 7") == "  7  [ ]  "
                + String(repeating: " ", count: 10) + "  imported 7\n")
        #expect(
            try sandbox.ok("list", "--sort", "name", "--limit", "1") == "  1  [x]  " + String(repeating: " ", count: 10)
                + "  imported 1\n")
        let outline = try sandbox.ok("list", "--outline", "--undone", "--search", "imported")
        #expect(
            outline == "Undone (2)\n├─  7  " + String(repeating: " ", count: 10) + "  imported 7\n└─ 12  "
                + String(repeating: " ", count: 10) + "  imported 12\nDone (0)\n", "\(outline)")
        // The widest id is the largest one shown.
        #expect(try sandbox.ok("list", "--undone").hasPrefix("  1202  [ ]  2024-05-01  Pay rent\n"))
        // At 40 columns, the name keeps the columns the file's largest id took.
        let screen = try PseudoTerminal.run(
            [ProcessRunner.todoBinary, "list", "--undone", "--search", "passport", "--color", "never"],
            environment: ["TODO_DB": sandbox.database, "COLUMNS": "40"]
        ).screen.replacingOccurrences(of: "\r", with: "")
        #expect(screen == "  1201  [ ]              Renew the pass…\n", "\(screen)")
        let small = try PseudoTerminal.run(
            [ProcessRunner.todoBinary, "list", "--undone", "--search", "imported", "--color", "never"],
            environment: ["TODO_DB": sandbox.database, "COLUMNS": "40"]
        ).screen.replacingOccurrences(of: "\r", with: "")
        #expect(small.hasPrefix("   7  [ ]              imported 7\n"), "\(small)")
    }

    @Test func rmAsksOnATerminalAndNoKeepsTheTodo() throws {
        _ = try sandbox.ok("add", "Buy milk")
        let declined = try onTerminal("rm", "1", answer: "n")
        #expect(declined.screen.contains("Delete 1 \"Buy milk\"? [y/N]"))
        #expect(declined.status == 0)
        #expect(try sandbox.listJSON().count == 1)

        let accepted = try onTerminal("rm", "1", answer: "y")
        #expect(accepted.screen.contains("- 1  Buy milk"))
        #expect(try sandbox.listJSON().isEmpty)
    }

    @Test func rmWithYesOrWithoutATerminalDoesNotAsk() throws {
        _ = try sandbox.ok("add", "a")
        _ = try sandbox.ok("add", "b")
        let forced = try onTerminal("rm", "--yes", "1")
        #expect(!forced.screen.contains("[y/N]"))
        #expect(forced.screen.contains("- 1  a"))
        #expect(try sandbox.ok("rm", "2") == "- 2  b\n")
    }

    @Test func rmOfAMissingIdFailsBeforeAsking() throws {
        _ = try sandbox.ok("add", "a")
        let result = try onTerminal("rm", "1", "7", answer: "y")
        #expect(result.status == 1)
        #expect(!result.screen.contains("[y/N]"))
        #expect(try sandbox.listJSON().count == 1)
    }
}
