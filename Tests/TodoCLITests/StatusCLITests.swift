import Foundation
import TestSupport
import Testing

/// Real statuses through the `todo` binary (issue 36, points 3 and 5): `start`, `stop`, `cancel`,
/// `done` and `undone` on every state, how rows, `show`, `--json` and the filters tell the states
/// apart, and what import and export keep.
@Suite(.timed) struct StatusCLITests {
    let sandbox = CLISandbox()

    /// `id:status:percent` of every todo, from `todo list --json`.
    private func states() throws -> [String] {
        try sandbox.listJSON().map { todo in
            "\(todo["id"] as? Int ?? 0):\(todo["status"] as? String ?? "?"):\((todo["percent"] as? Int).map(String.init) ?? "-")"
        }
    }

    @Test func startStopCancelDoneAndUndoneOnEachState() throws {
        for name in ["Buy milk", "Pay rent", "Call mom"] { _ = try sandbox.ok("add", name) }
        #expect(try sandbox.ok("start", "1", "--percent", "40") == "~ 1  Buy milk  in progress 40%\n")
        #expect(try sandbox.ok("cancel", "2-3") == "~ 2  Pay rent  cancelled\n~ 3  Call mom  cancelled\n")
        #expect(try states() == ["1:in-process:40", "2:cancelled:-", "3:cancelled:-"])
        // Done on a cancelled todo completes it: it was never completed, so it is not "already done".
        #expect(try sandbox.ok("done", "2") == "✓ 2  Pay rent\n")
        #expect(try sandbox.ok("done", "2") == "  2  Pay rent: already done\n")
        // Undone on a cancelled todo opens it again.
        #expect(try sandbox.ok("undone", "3") == "○ 3  Call mom\n")
        #expect(try states() == ["1:in-process:40", "2:completed:100", "3:needs-action:-"])
        #expect(try sandbox.ok("stop", "1", "3") == "~ 1  Buy milk  needs action\n  3  Call mom: not in progress\n")
        #expect(try states()[0] == "1:needs-action:40", "stop keeps the percent")
        #expect(try sandbox.ok("start", "1") == "~ 1  Buy milk  in progress 40%\n")
        #expect(try sandbox.ok("start", "1") == "  1  Buy milk: already in progress\n")
        #expect(try sandbox.ok("start", "1", "--percent", "60") == "~ 1  Buy milk  in progress 60%\n")
        #expect(try sandbox.ok("cancel", "1") == "~ 1  Buy milk  cancelled\n")
        #expect(try sandbox.ok("cancel", "1") == "  1  Buy milk: already cancelled\n")
        // Each command is one undo step, a range included.
        #expect(try sandbox.ok("undo") == "Undid 'cancel'.\n")
        #expect(try sandbox.ok("undo") == "Undid 'start'.\n")
        #expect(try states()[0] == "1:in-process:40")
        _ = try sandbox.ok("cancel", "1-3")
        _ = try sandbox.ok("undo")
        #expect(try states() == ["1:in-process:40", "2:completed:100", "3:needs-action:-"])
    }

    /// All or nothing, one `error:` line, and the file untouched.
    @Test func badInputChangesNothing() throws {
        _ = try sandbox.ok("add", "Buy milk")
        let before = sandbox.fileState()
        for (arguments, status, message) in [
            (["start", "1", "7"], 1, "error: no todo with id 7"),
            (["start", "1", "--percent", "100"], 2, "error: a todo at 100% is done, not in progress"),
            (["start", "1", "--percent", "forty"], 2, "error: 'forty' is not a valid value for '--percent'"),
            (["start", "1", "--percent", "-1"], 2, "error: '-1' is not a valid value for '--percent'"),
            (["cancel", "9-12"], 1, "error: no todos in 9-12"),
            (["stop", "x"], 2, "error: 'x' is not a todo id"),
            (["cancel"], 2, "error:"),
            (["list", "--status", "someday"], 2, "error: 'someday' is not a status")
        ] as [([String], Int32, String)] {
            let result = try sandbox.todo(arguments)
            #expect(result.status == status, "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix(message), "\(arguments): \(result.stderr)")
            #expect(result.stderr.components(separatedBy: "error:").count == 2, "\(arguments): one error line")
            #expect(result.stdout.isEmpty)
        }
        #expect(sandbox.fileState() == before)
    }

    /// Rows tell every state apart in a pipe, on a terminal 40 columns wide and without colour;
    /// `show` says the status and the percent; a cancelled todo is never "completed".
    @Test func rowsShowAndJSONTellTheStatesApart() throws {
        _ = try sandbox.ok("add", "Buy milk", "--due", "2024-05-01")
        _ = try sandbox.ok("add", "Renew the passport before the trip to Lisbon", "--priority", "high")
        _ = try sandbox.ok("add", "Pay rent")
        _ = try sandbox.ok("add", "Old plan")
        _ = try sandbox.ok("start", "2", "--percent", "40")
        _ = try sandbox.ok("done", "3")
        _ = try sandbox.ok("cancel", "4")
        #expect(
            try sandbox.ok("list") == """
                  1  [ ]  2024-05-01  Buy milk
                  2  [~]              40% (H) Renew the passport before the trip to Lisbon
                  3  [x]              Pay rent
                  4  [-]              Old plan

                """)
        #expect(try sandbox.ok("list", "--outline").contains("└─ 2              [~] 40% (H) Renew"))
        #expect(try sandbox.ok("list", "--outline").contains("└─ 4              [-] Old plan"))
        let narrow = try sandbox.onTerminal(["list"], columns: "40")
        let rows = narrow.split(separator: "\n").map(String.init)
        #expect(rows.count == 4 && rows.allSatisfy { $0.count <= 40 }, "\(narrow)")
        #expect(rows[1].hasPrefix("  2  [~]") && rows[1].contains("40% (H) Renew") && rows[3].hasPrefix("  4  [-]"))
        let plain = try sandbox.todo(["--color", "auto", "list"], environment: ["NO_COLOR": "1"])
        #expect(!plain.stdout.contains("\u{1B}") && plain.stdout.contains("[-]"))

        let show = try sandbox.ok("show", "2")
        #expect(show.contains("\nstatus:    in progress\n") && show.contains("\npercent:   40%\n"))
        let cancelled = try sandbox.ok("show", "4")
        #expect(cancelled.contains("\nstatus:    cancelled\n") && cancelled.contains("\ncompleted: no: cancelled\n"))
        #expect(!cancelled.contains("unknown"))
        let json = try parseJSON(try sandbox.ok("show", "4", "--json"), as: [String: Any].self, "show --json")
        #expect(json["status"] as? String == "cancelled" && json["done"] as? Bool == true)
        #expect(json["completed"] is NSNull && json["percent"] is NSNull)
        let listed = try sandbox.listJSON()
        #expect(listed.map { $0["status"] as? String } == ["needs-action", "in-process", "completed", "cancelled"])
        #expect(listed.map { $0["percent"] as? Int } == [nil, 40, 100, nil])
    }

    /// `--status` (repeatable: any of them) in `list`, bare `todo` (in place of the undone
    /// todos) and `watch`, which follows a todo into and out of the state.
    @Test func theStatusFilterInListBareTodoAndWatch() throws {
        for name in ["a", "b", "c", "d"] { _ = try sandbox.ok("add", name) }
        _ = try sandbox.ok("start", "2")
        _ = try sandbox.ok("cancel", "3")
        _ = try sandbox.ok("done", "4")
        func ids(_ arguments: String...) throws -> [Int] {
            let output = try sandbox.ok(arguments)
            return output.split(separator: "\n").compactMap { Int($0.split(separator: " ").first ?? "") }
        }
        #expect(try ids("list", "--status", "in-process") == [2])
        #expect(try ids("list", "--status", "cancelled", "--status", "needs-action") == [1, 3])
        #expect(try ids("list", "--status", "done") == [4])
        #expect(try ids("list", "--status", "cancelled", "--undone") == [])
        #expect(try ids() == [1, 2], "bare todo: the undone ones")
        #expect(try ids("--status", "cancelled") == [3], "bare todo: the state asked for instead")

        let watch = try RunningProcess(
            ProcessRunner.todoBinary, ["watch", "--status", "in-process", "--json"],
            environment: ["TODO_DB": sandbox.database])
        let first = try parseJSON(try #require(watch.nextLine()), as: [String: Any].self, "watch's first line")
        #expect((first["items"] as? [[String: Any]])?.map { $0["id"] as? Int } == [2])
        _ = try sandbox.ok("start", "1")
        let joined = try parseJSON(try #require(watch.nextLine()), as: [String: Any].self, "watch's line")
        let change = try #require((joined["changes"] as? [[String: Any]])?.first)
        #expect(change["type"] as? String == "insert" && change["id"] as? Int == 1)
        _ = try sandbox.ok("done", "2")
        let left = try parseJSON(try #require(watch.nextLine()), as: [String: Any].self, "watch's line")
        #expect((left["changes"] as? [[String: Any]])?.first?["type"] as? String == "delete")
    }

    /// Another program that knows only `done`: its UPDATE completes a todo in progress.
    @Test func theShellsUpdateOfDoneStillMeansCompleted() throws {
        _ = try sandbox.ok("add", "Buy milk")
        _ = try sandbox.ok("start", "1", "--percent", "40")
        let shell = try ProcessRunner.run("sqlite3", [sandbox.database, "UPDATE todos SET done = 1 WHERE id = 1"])
        #expect(shell.status == 0, "\(shell.stderr)")
        #expect(try sandbox.ok("list") == "  1  [x]              Buy milk\n")
        #expect(try states() == ["1:completed:40"])
        #expect(try sandbox.ok("undone", "1") == "○ 1  Buy milk\n")
        #expect(try states() == ["1:needs-action:40"])
    }

    /// `todo export` and `import` keep every state and percent; a file from before statuses
    /// (no `status` key, or `null`) imports as its `done` says.
    @Test func exportAndImportKeepTheStates() throws {
        for name in ["a", "b", "c", "d"] { _ = try sandbox.ok("add", name) }
        _ = try sandbox.ok("start", "2", "--percent", "25")
        _ = try sandbox.ok("cancel", "3")
        _ = try sandbox.ok("done", "4")
        let file = sandbox.folder.file("todos.json")
        try sandbox.ok("export").write(toFile: file, atomically: true, encoding: .utf8)
        let other = sandbox.folder.file("other.sqlite")
        _ = try sandbox.ok("--db", other, "import", file)
        let copied = try sandbox.todo(["--db", other, "list", "--json"])
        let todos = try parseJSON(copied.stdout, as: [[String: Any]].self, "the copy")
        #expect(todos.map { $0["status"] as? String } == ["needs-action", "in-process", "cancelled", "completed"])
        #expect(todos.map { $0["percent"] as? Int } == [nil, 25, nil, 100])

        let old = sandbox.folder.file("old.json")
        try
            #"[{"name": "x", "done": true}, {"name": "y", "done": true, "status": null}, {"name": "z", "status": "in-process", "percent": 10}]"#
            .write(toFile: old, atomically: true, encoding: .utf8)
        let third = sandbox.folder.file("third.sqlite")
        _ = try sandbox.ok("--db", third, "import", old)
        let read = try parseJSON(
            try sandbox.todo(["--db", third, "list", "--json"]).stdout, as: [[String: Any]].self, "the old file")
        #expect(read.map { $0["status"] as? String } == ["completed", "completed", "in-process"])
        for (bad, message) in [
            (#"[{"name": "x", "status": "doing"}]"#, #""status" cannot be "doing""#),
            (#"[{"name": "x", "percent": 140}]"#, #""percent" must be a whole number from 0 to 100"#)
        ] {
            try bad.write(toFile: old, atomically: true, encoding: .utf8)
            let result = try sandbox.todo(["--db", third, "import", old])
            #expect(result.status != 0 && result.stderr.contains(message), "\(result.stderr)")
        }
    }

    /// taskwarrior: a pending task with `start` (active) is in progress; a deleted task is
    /// skipped, never a cancelled todo.
    @Test func taskwarriorsStartIsInProgressAndDeletedIsNotCancelled() throws {
        let file = sandbox.folder.file("tasks.json")
        try """
        [{"description":"Active","status":"pending","start":"20261101T090000Z","uuid":"a"},
         {"description":"Idle","status":"pending","uuid":"b"},
         {"description":"Gone","status":"deleted","uuid":"c"},
         {"description":"Finished","status":"completed","start":"20261101T090000Z","end":"20261102T090000Z","uuid":"d"}]
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let result = try sandbox.todo(["import", "--from", "taskwarrior", file])
        #expect(result.status == 0, "\(result.stderr)")
        let todos = try sandbox.listJSON()
        #expect(todos.map { $0["name"] as? String } == ["Active", "Idle", "Finished"])
        #expect(todos.map { $0["status"] as? String } == ["in-process", "needs-action", "completed"])
    }

    @Test func helpManPageAndCompletionsKnowTheCommands() throws {
        for command in ["start", "stop", "cancel"] {
            #expect(try sandbox.ok("help", command).contains("todo \(command)"))
            #expect(try sandbox.ok("manpage", command).contains(".TH TODO-\(command.uppercased())"))
        }
        #expect(try sandbox.ok("help", "start").contains("--percent"))
        #expect(try sandbox.ok("help", "list").contains("--status"))
        for shell in ["bash", "zsh", "fish"] {
            let script = try sandbox.ok("completions", shell)
            for word in ["start", "stop", "cancel", "status", "percent", "in-process", "cancelled"] {
                #expect(script.contains(word), "\(shell): \(word)")
            }
            #expect(script.contains(shell == "fish" ? "-l status" : "--status"), "\(shell)")
        }
    }
}
