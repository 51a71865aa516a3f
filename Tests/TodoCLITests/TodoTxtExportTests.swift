import Foundation
import TestSupport
import Testing

/// Issue 26: `todo export --format todotxt`, read by the real todo.txt CLI (Debian's
/// todotxt-cli, which scripts/setup installs) with the same priorities, projects, contexts and
/// dates, and imported back by todo with the same fields (the note aside: todo.txt has no place
/// for it).
@Suite(.timed) struct TodoTxtExportTests {
    let sandbox = CLISandbox()

    /// Runs todo.txt-cli (`todo-txt`) on `folder`'s todo.txt, with a config of its own.
    private func todoTxt(_ folder: TemporaryFolder, _ arguments: String...) throws -> String {
        let config = folder.file("config")
        if !FileManager.default.fileExists(atPath: config) {
            try """
            export TODO_DIR=\(folder.path)
            export TODO_FILE="$TODO_DIR/todo.txt"
            export DONE_FILE="$TODO_DIR/done.txt"
            export REPORT_FILE="$TODO_DIR/report.txt"
            """.write(toFile: config, atomically: true, encoding: .utf8)
            #expect(FileManager.default.createFile(atPath: folder.file("done.txt"), contents: Data()))
        }
        let result = try ProcessRunner.run(
            "/usr/bin/todo-txt", ["-p", "-d", config] + arguments,
            environment: ["HOME": folder.path, "TODOTXT_CFG_FILE": config, "PATH": "/usr/bin:/bin"])
        #expect(result.status == 0, "todo-txt \(arguments): \(result.stderr)")
        return result.stdout
    }

    @Test func todoTxtCLIReadsTheExportAndItImportsBack() throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: "/usr/bin/todo-txt"),
            "todotxt-cli is not installed (scripts/setup installs it)")
        _ = try sandbox.ok("add", "Call the bank", "+finance", "@phone", "--priority", "high", "--due", "2024-05-02")
        _ = try sandbox.ok("add", "Plan the trip", "+vacation", "--priority", "2", "--note", "not in todo.txt")
        _ = try sandbox.ok("add", "Renew passport", "--due", "2024-06-15", "--priority", "low")
        _ = try sandbox.ok("add", "Two\nlines")
        _ = try sandbox.ok("done", "3")
        let export = try sandbox.ok("export", "--format", "todotxt")
        let today = try #require(try sandbox.listJSON().first?["created"] as? String).prefix(10)
        #expect(
            export == """
                (A) \(today) Call the bank +finance @phone due:2024-05-02
                x \(today) \(today) Renew passport due:2024-06-15 pri:I
                (B) \(today) Plan the trip +vacation
                \(today) Two lines

                """)

        let folder = TemporaryFolder()
        try export.write(toFile: folder.file("todo.txt"), atomically: true, encoding: .utf8)
        let listed = try todoTxt(folder, "ls")
        #expect(listed.contains("1 (A) \(today) Call the bank +finance @phone due:2024-05-02"), "\(listed)")
        #expect(try todoTxt(folder, "lsp").contains("(B) \(today) Plan the trip"), "the priorities are todo.txt's")
        #expect(try todoTxt(folder, "lsprj") == "+finance\n+vacation\n")
        #expect(try todoTxt(folder, "lsc") == "@phone\n")

        // todo.txt-cli's own edits come back too: it gives the 4th line a priority and completes
        // the 1st (its `do` drops the priority, as todo.txt does).
        _ = try todoTxt(folder, "pri", "4", "C")
        _ = try todoTxt(folder, "-a", "do", "1")
        let other = sandbox.folder.file("other.sqlite")
        _ = try sandbox.ok("--db", other, "import", "--from", "todotxt", folder.file("todo.txt"))
        let back = try sandbox.listJSON(["--db", other, "--sort", "name"])
        let fields = back.map { todo in
            ["name", "priority", "tags", "done", "deadline"].map { "\(todo[$0] ?? "-")" }.joined(separator: "|")
        }
        #expect(
            fields == [
                "Call the bank|0|[\"+finance\", \"@phone\"]|1|2024-05-02",
                "Plan the trip|2|[\"+vacation\"]|0|<null>",
                "Renew passport|9|[]|1|2024-06-15",
                "Two lines|3|[]|0|<null>"
            ], "\(back)")
    }
}
