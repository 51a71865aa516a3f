// Fixture provenance: Fixtures/todo.txt and Fixtures/done.txt are the unedited files written by
// the real todo.txt CLI, captured on Debian 12 (bookworm) with `todotxt-cli` 2.11.0-2
// (`todo-txt -V`: TODO.TXT Command Line Interface v2.11.0), installed by
// `apt-get install todotxt-cli` (the Debian package names the script /usr/bin/todo-txt), by running
//     Tests/TodoInteropTests/Fixtures/capture-todotxt.sh Tests/TodoInteropTests/Fixtures
// That script, checked in beside the fixtures, writes a config whose TODO_DIR is a throwaway
// folder, and runs `todo-txt -f -p -d CONFIG` (with HOME and TODOTXT_CFG_FILE pointed there too):
//     -t add "(A) Call the bank about the card +finance @phone due:2024-05-02"
//     -t add "Buy milk @store due:2024-05-01"
//     add "Plan the trip +vacation @home"
//     -t add "Écrire à 祖母 ☕ +family url:https://example.com/a?b=c"
//     -t add "Submit the report +work due:2024-04-30"
//     -t add "Renew passport due:2024-06-15"
//     pri 3 B
//     pri 6 C
//     do 5        (auto-archived: moved to done.txt)
//     -a do 5     (not archived: stays in todo.txt as an "x " line; `do` drops the priority)
// `-t` prefixes the creation date and `do` the completion date: the day it ran (2026-11-22).
// Since issue 26 those dates are the created and completed times: the whole-file comparisons
// leave them out (``core(_:)``), so a capture made on any other day compares the same, and
// ``datesBecomeTheTimesAndLettersThePriority()`` checks them.
import Foundation
import TestSupport
import Testing
import TodoInterop
import TodoStore

private func tags(_ words: String...) -> TodoTags { TodoTags(words.compactMap { TodoTag($0) }) }

private let expectedTodoTxt = [
    ImportedTodo(
        name: "Call the bank about the card", deadline: day("2024-05-02"), priority: .high,
        tags: tags("+finance", "@phone")),
    ImportedTodo(name: "Buy milk", deadline: day("2024-05-01"), tags: tags("@store")),
    ImportedTodo(name: "Plan the trip", priority: TodoPriority(rawValue: 2)!, tags: tags("+vacation", "@home")),
    ImportedTodo(name: "Écrire à 祖母 ☕ url:https://example.com/a?b=c", tags: tags("+family")),
    ImportedTodo(name: "Renew passport", deadline: day("2024-06-15"), isDone: true)
]

private let expectedDoneTxt = [
    ImportedTodo(name: "Submit the report", deadline: day("2024-04-30"), isDone: true, tags: tags("+work"))
]

/// Every field but the created and completed times, which are the day a file was captured.
private func core(_ todos: [ImportedTodo]) -> [ImportedTodo] {
    todos.map {
        var todo = $0
        todo.created = nil
        todo.completed = nil
        return todo
    }
}

@Suite(.timed) struct TodoTxtImportTests {
    @Test func readsTheRealFiles() throws {
        #expect(core(try TodoImporter.parse(try Fixture.bytes("todo.txt"), format: .todotxt)) == expectedTodoTxt)
        #expect(core(try TodoImporter.parse(try Fixture.bytes("done.txt"), format: .todotxt)) == expectedDoneTxt)
    }

    @Test func readsLiveFilesFromTheInstalledTool() throws {
        try #require(Fixture.isInstalled("todo-txt"), "todotxt-cli is not installed (scripts/setup installs it)")
        let folder = TemporaryFolder()
        let run = try ProcessRunner.run("sh", [Fixture.path("capture-todotxt.sh"), folder.path])
        try #require(run.status == 0, "\(run.stderr)")
        #expect(
            core(try TodoImporter.parse(try Fixture.bytes(folder.file("todo.txt")), format: .todotxt))
                == expectedTodoTxt)
        #expect(
            core(try TodoImporter.parse(try Fixture.bytes(folder.file("done.txt")), format: .todotxt))
                == expectedDoneTxt)
    }

    @Test func datesBecomeTheTimesAndLettersThePriority() throws {
        let noon = { (day: String) in UTCTimestamp(iso: day + "T12:00:00Z") }
        let todos = try importing(
            """
            x 2024-05-02 2024-04-01 Both dates pri:B
            (C) 2024-04-03 Created
            (J) Past I is the lowest
            """, .todotxt)
        #expect(todos[0].completed == noon("2024-05-02") && todos[0].created == noon("2024-04-01"))
        #expect(
            todos[0].priority.rawValue == 2 && todos[0].name == "Both dates", "pri:B is the priority, out of the name")
        #expect(todos[1].created == noon("2024-04-03") && todos[1].priority.rawValue == 3)
        #expect(todos[2].priority == .low)
        let fixture = try TodoImporter.parse(try Fixture.bytes("todo.txt"), format: .todotxt)
        #expect(fixture[0].created == noon("2026-11-22") && fixture[4].completed == noon("2026-11-22"))
    }

    @Test func doneLinesDropTheirDates() throws {
        #expect(
            core(
                try importing(
                    """
                    x 2024-05-02 2024-04-01 Both dates
                    x 2024-05-02 Completion date only
                    x No dates at all
                    x 2024-05-02 2024-04-01 2024-03-01 A third date is part of the name
                    """, .todotxt)) == [
                    ImportedTodo(name: "Both dates", isDone: true),
                    ImportedTodo(name: "Completion date only", isDone: true),
                    ImportedTodo(name: "No dates at all", isDone: true),
                    ImportedTodo(name: "2024-03-01 A third date is part of the name", isDone: true)
                ])
    }

    /// The priority and the creation date leave the name (they are fields now); what only looks
    /// like them stays.
    @Test func prioritiesAndCreationDatesLeaveTheName() throws {
        #expect(
            try importing(
                """
                (A) Top priority
                (Z) 2024-04-01 Low priority with a creation date
                2024-04-01 Creation date only
                Buy 2024-05-01 tickets
                (a) lower case is not a priority
                (AB) neither is this
                (A)no space, no priority
                x (A) a done line keeps what follows the x
                """, .todotxt
            ).map(\.name) == [
                "Top priority",
                "Low priority with a creation date",
                "Creation date only",
                "Buy 2024-05-01 tickets",
                "(a) lower case is not a priority",
                "(AB) neither is this",
                "(A)no space, no priority",
                "(A) a done line keeps what follows the x"
            ])
    }

    @Test func markersCountOnlyAtTheStartOfTheLine() throws {
        #expect(
            try importing(
                """
                xylophone lessons
                X upper case is not done
                x
                  x indented is not done
                  (A) indented is not a priority
                Call mom x 2024-05-01
                """, .todotxt) == [
                    ImportedTodo(name: "xylophone lessons"),
                    ImportedTodo(name: "X upper case is not done"),
                    ImportedTodo(name: "x"),
                    ImportedTodo(name: "x indented is not done"),
                    ImportedTodo(name: "(A) indented is not a priority"),
                    ImportedTodo(name: "Call mom x 2024-05-01")
                ])
    }

    @Test func dueTagsBecomeTheDeadlineAndLeaveTheName() throws {
        #expect(
            try importing(
                """
                due:2024-05-01 Leading tag
                Trailing tag due:2024-05-02
                Middle  spacing kept due:2024-05-03   around it
                (B) 2024-04-01 Pay rent +home @desk due:2024-05-04 rec:1m t:2024-04-28
                Due:2024-05-05 and DUE:x are not the tag, nor is overdue:2024-05-05
                """, .todotxt) == [
                    ImportedTodo(name: "Leading tag", deadline: day("2024-05-01")),
                    ImportedTodo(name: "Trailing tag", deadline: day("2024-05-02")),
                    ImportedTodo(name: "Middle  spacing kept around it", deadline: day("2024-05-03")),
                    // Since issue 34 rec: is the repeat and t: the start: both leave the name.
                    ImportedTodo(
                        name: "Pay rent", deadline: day("2024-05-04"), priority: TodoPriority(rawValue: 2)!,
                        tags: tags("+home", "@desk"), created: UTCTimestamp(iso: "2024-04-01T12:00:00Z"),
                        repeatRule: "FREQ=MONTHLY", repeatFrom: .done, start: day("2024-04-28")),
                    ImportedTodo(name: "Due:2024-05-05 and DUE:x are not the tag, nor is overdue:2024-05-05")
                ])
    }

    @Test func projectsAndContextsAreTagsAsWritten() throws {
        // `todo list --tag work` finds them; a lone + or @ is no tag and stays.
        let todos = try importing("Email Ann +Work +q3-plan @phone @home:evening + @", .todotxt)
        #expect(
            todos == [ImportedTodo(name: "Email Ann + @", tags: tags("+Work", "+q3-plan", "@phone", "@home:evening"))])
    }

    @Test func handlesCRLFABOMBlankLinesAndNoFinalNewline() throws {
        let bytes: [UInt8] =
            [0xEF, 0xBB, 0xBF] + Array("(A) First due:2024-05-01\r\n\r\n   \r\n\tSecond\t\r\nx Third".utf8)
        #expect(
            try TodoImporter.parse(bytes, format: .todotxt) == [
                ImportedTodo(name: "First", deadline: day("2024-05-01"), priority: .high),
                ImportedTodo(name: "Second"),
                ImportedTodo(name: "Third", isDone: true)
            ])
        #expect(try importing("", .todotxt) == [])
        #expect(try importing("\n\n  \n", .todotxt) == [])
    }

    @Test func countsLinesLikeAnEditor() {
        // Line 7, blank lines and a BOM included, CRLF or not.
        let lines = ["a", "", "b", "  ", "c", "", "Pay taxes due:2023-02-29", "d"]
        #expect(
            importError(lines.joined(separator: "\n"), .todotxt)?.description
                == "line 7: due:2023-02-29 is not a day in the calendar")
        let crlf: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(lines.joined(separator: "\r\n").utf8)
        #expect(importError(crlf, .todotxt) == ImportError(.line(7), "due:2023-02-29 is not a day in the calendar"))
    }

    @Test(arguments: [
        ("Call mom due:tomorrow", "line 1: due:tomorrow is not a YYYY-MM-DD date"),
        ("Call mom due:2024/05/01", "line 1: due:2024/05/01 is not a YYYY-MM-DD date"),
        ("Call mom due:", "line 1: due: is not a YYYY-MM-DD date"),
        ("Call mom due:2024-04-31", "line 1: due:2024-04-31 is not a day in the calendar"),
        ("ok\nCall mom due:2024-05-01 due:2024-05-02", "line 2: more than one due: tag"),
        ("ok\n\nx 2024-05-01 2024-04-01", "line 3: the todo has no name"),
        ("(A) due:2024-05-01", "line 1: the todo has no name"),
        ("2024-04-01", "line 1: the todo has no name"),
        ("x ", "line 1: the todo has no name"),
        ("(A) \u{3000}", "line 1: the todo has no name")
    ])
    func namesTheBadLine(_ text: String, _ message: String) {
        #expect(importError(text, .todotxt)?.description == message)
    }

    @Test func rejectsALineThatIsNotUTF8() {
        let bytes = Array("fine\n".utf8) + [0x43, 0x61, 0x66, 0xE9, 0x0A]  // "Café" in Latin-1
        #expect(importError(bytes, .todotxt) == ImportError(.line(2), "is not UTF-8 text"))
    }
}
