import Foundation
import TestSupport
import Testing

/// What changing commands say (issue 25, friction 6): on a terminal, what was added, the new
/// values of an edit, and the todos an undo or redo changed; in a pipe, the documented output.
/// "No todos." is a message on stderr, so `todo list | wc -l` counts 0.
@Suite(.timed) struct FeedbackTests {
    let sandbox = CLISandbox()

    /// The screen of `todo arguments` run on a pseudo-terminal, without carriage returns.
    private func onTerminal(_ arguments: String...) throws -> String {
        try PseudoTerminal.run(
            [ProcessRunner.todoBinary] + arguments + ["--color", "never"],
            environment: ["TODO_DB": sandbox.database, "TZ": "UTC"]
        ).screen.replacingOccurrences(of: "\r", with: "")
    }

    @Test func addSaysWhatItAddedOnATerminalAndPrintsTheIdInAPipe() throws {
        #expect(try onTerminal("add", "Buy milk", "--due", "2030-01-04") == "+ 1  Buy milk  due fri 2030-01-04\n")
        #expect(try onTerminal("add", "No date") == "+ 2  No date\n")
        // A name is shown with its control characters escaped.
        #expect(try onTerminal("add", "evil\u{1B}[2Jname") == "+ 3  evil^[[2Jname\n")
        #expect(try sandbox.ok("add", "piped", "--due", "2030-01-04") == "4\n", "the scripting contract")
        #expect(try onTerminal("add", "json", "--json").hasPrefix("{\"id\": 5"))
    }

    @Test func editShowsTheNewValuesOnATerminal() throws {
        _ = try sandbox.ok("add", "Buy milk")
        #expect(
            try onTerminal("edit", "1", "--name", "Buy oat milk", "--due", "2030-01-05")
                == "~ 1  Buy oat milk  due sat 2030-01-05\n")
        #expect(try onTerminal("edit", "1", "--no-due") == "~ 1  Buy oat milk  no deadline\n")
        #expect(try sandbox.ok("edit", "1", "--due", "2030-01-05") == "~ 1  Buy oat milk\n", "a pipe is unchanged")
    }

    @Test func undoAndRedoNameTheTodosTheyChangedOnATerminal() throws {
        _ = try sandbox.ok("add", "Buy milk")
        _ = try sandbox.ok("add", "Pay rent")
        _ = try sandbox.ok("done", "1-2")
        #expect(try onTerminal("undo") == "Undid 'done'.\n○ 1  Buy milk\n○ 2  Pay rent\n")
        #expect(try onTerminal("redo") == "Redid 'done'.\n✓ 1  Buy milk\n✓ 2  Pay rent\n")
        _ = try sandbox.ok("rm", "--yes", "2")
        #expect(try onTerminal("undo") == "Undid 'rm'.\n+ 2  Pay rent\n")
        _ = try sandbox.ok("edit", "2", "--name", "Pay the rent")
        #expect(try onTerminal("undo") == "Undid 'edit'.\n~ 2  Pay rent\n")
        _ = try sandbox.ok("add", "Third")
        #expect(try onTerminal("undo") == "Undid 'add'.\n- 3  Third\n")
        // A pipe keeps the one documented line.
        #expect(try sandbox.ok("redo") == "Redid 'add'.\n")
        #expect(try sandbox.ok("undo") == "Undid 'add'.\n")
    }

    @Test func noTodosIsAMessageOnStderr() throws {
        for arguments in [["list"], [], ["list", "--undone"]] {
            let result = try sandbox.todo(arguments)
            #expect(
                result.status == 0 && result.stdout.isEmpty && result.stderr == "No todos.\n", "\(arguments): \(result)"
            )
        }
        _ = try sandbox.ok("add", "x")
        _ = try sandbox.ok("done", "1")
        let undone = try sandbox.todo("list", "--undone")
        #expect(undone.stdout.isEmpty && undone.stderr == "No todos.\n")
        #expect(try sandbox.ok("list").contains("x"), "a list with todos says nothing on stderr")
    }
}
