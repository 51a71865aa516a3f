import Foundation
import TestSupport
import Testing

/// What a week of daily use asked for (issue 12): the forms people type and the ways out of a
/// stuck undo.
@Suite(.timed) struct DailyUseTests {
    let sandbox = CLISandbox()

    private func seed(_ count: Int) throws {
        for index in 1...count { _ = try sandbox.ok("add", "todo \(index)") }
    }

    private func doneIDs() throws -> [Int] {
        try sandbox.listJSON().filter { $0["done"] as? Bool == true }.compactMap { $0["id"] as? Int }.sorted()
    }

    @Test func aTaskwarriorImportSaysWhatItDidNotKeep() throws {
        // Since issue 26 priority, project, tags and annotations are kept; what still has no
        // place (a tag with a tab in it, a priority other than H, M, L) is said.
        let tasks = """
            [{"uuid":"a","status":"pending","description":"Buy milk","project":"home","tags":["shop","food"],"priority":"H",
              "annotations":[{"entry":"20240501T000000Z","description":"2 litres"}]},
             {"uuid":"b","status":"completed","description":"Pay rent","tags":["bills", "tab\\there"],"priority":"X"},
             {"uuid":"c","status":"pending","description":"Call mum"}]
            """
        let output = try sandbox.ok(["import", "--from", "taskwarrior", "-"], environment: ["TZ": "UTC"], stdin: tasks)
        #expect(output == "Imported 3 todos. Not kept: 1 tag, 1 priority.\n")
        let milk = try #require(try sandbox.listJSON().first { $0["name"] as? String == "Buy milk" })
        #expect(milk["tags"] as? [String] == ["+shop", "+food"] && milk["priority"] as? Int == 1)
        #expect(milk["project"] as? String == "home", "the project, apart from the tags (issue 37)")
        #expect(milk["note"] as? String == "2024-05-01 00:00 2 litres", "the annotation's local date and time")
        // Nothing to report: the plain line.
        let plain = try sandbox.ok(
            ["import", "--from", "taskwarrior", "-"], stdin: #"[{"status":"pending","description":"Walk"}]"#)
        #expect(plain == "Imported 1 todo.\n")
    }

    @Test func todoAloneListsTheUndoneTodos() throws {
        try seed(4)
        _ = try sandbox.ok("done", "2-3")
        // In a pipe: exactly what 'todo list --undone' prints, no count line.
        #expect(try sandbox.ok() == (try sandbox.ok("list", "--undone")))
        #expect(try sandbox.ok().split(separator: "\n").count == 2)
        #expect(try sandbox.ok("list").split(separator: "\n").count == 4, "todo list keeps showing them all")
        #expect(try sandbox.ok("help").contains("USAGE"))
        #expect(try sandbox.ok("help").contains("With no command, todo lists the undone todos"))
        // On a terminal, one line counts the done ones.
        let screen = try PseudoTerminal.run(
            [ProcessRunner.todoBinary, "--color", "never"], environment: ["TODO_DB": sandbox.database, "TZ": "UTC"]
        ).screen
        let lines = screen.replacingOccurrences(of: "\r", with: "").split(separator: "\n")
        #expect(lines.count == 3 && lines.last == "2 done todos hidden: todo list --done", "\(screen)")
        #expect(lines.first?.hasSuffix("todo 1") == true && lines[1].hasSuffix("todo 4"), "\(screen)")
        _ = try sandbox.ok("done", "1,4")
        let allDone = try PseudoTerminal.run(
            [ProcessRunner.todoBinary, "--color", "never"], environment: ["TODO_DB": sandbox.database, "TZ": "UTC"]
        ).screen
        #expect(
            allDone.replacingOccurrences(of: "\r", with: "") == "No todos.\n4 done todos hidden: todo list --done\n")
    }

    @Test func idsTakeRangesAndLists() throws {
        try seed(9)
        _ = try sandbox.ok("done", "2-4")
        #expect(try doneIDs() == [2, 3, 4])
        _ = try sandbox.ok("done", "6,8", "9")
        #expect(try doneIDs() == [2, 3, 4, 6, 8, 9])
        _ = try sandbox.ok("undone", "2-3,9")
        #expect(try doneIDs() == [4, 6, 8])
        // All or nothing, as with single ids.
        let missing = try sandbox.todo("rm", "--yes", "8-9", "10", "12")
        #expect(missing.status == 1 && missing.stderr.hasPrefix("error: no todos with ids 10, 12"))
        #expect(try sandbox.listJSON().count == 9)
        for bad in ["4-2", "0-3", "2-", "-3", "2,,3", "1-20000", "a-b"] {
            let result = try sandbox.todo("done", bad)
            #expect(result.status == 2 && result.stderr.hasPrefix("error: "), "done \(bad): \(result.stderr)")
        }
        #expect(try doneIDs() == [4, 6, 8])
    }

    @Test func rangesMeanTheTodosThatExistInThem() throws {
        try seed(12)
        _ = try sandbox.ok("rm", "--yes", "7")
        // Ids are never reused: 5-12 is 5, 6 and 8 to 12, never an error for the deleted 7.
        #expect(try sandbox.ok("done", "5-12").split(separator: "\n").count == 7)
        #expect(try doneIDs() == [5, 6, 8, 9, 10, 11, 12])
        #expect(
            try sandbox.ok("undone", "1-6,11-30") == "  1  todo 1: already undone\n  2  todo 2: already undone\n"
                + "  3  todo 3: already undone\n  4  todo 4: already undone\n○ 5  todo 5\n○ 6  todo 6\n○ 11  todo 11\n○ 12  todo 12\n"
        )
        #expect(try doneIDs() == [8, 9, 10])
        let before = sandbox.fileState()
        // A range with no todo, or a single id that does not exist, is an error, and all or
        // nothing still holds: the other ids are left alone.
        for arguments in [
            ["done", "1-3", "7-7"], ["rm", "--yes", "13-20"], ["done", "1-4", "7"], ["undone", "7", "8-9"]
        ] {
            let result = try sandbox.todo(arguments)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderrLines.first?.hasPrefix("error: no todo") == true, "\(arguments): \(result.stderr)")
        }
        #expect(try sandbox.todo("done", "1-3", "7-7").stderr.hasPrefix("error: no todos in 7-7"))
        #expect(sandbox.fileState() == before)
        _ = try sandbox.ok("rm", "--yes", "6-8")
        #expect(try sandbox.listJSON().compactMap { $0["id"] as? Int } == [1, 2, 3, 4, 5, 9, 10, 11, 12])
    }

    @Test func doneOnADoneTodoSaysSoAndRecordsNoUndoStep() throws {
        try seed(2)
        _ = try sandbox.ok("done", "1")
        #expect(try sandbox.ok("done", "1", "2") == "  1  todo 1: already done\n✓ 2  todo 2\n")
        #expect(try sandbox.ok("done", "1") == "  1  todo 1: already done\n")
        // The last real step was 'done 2' (with 'done 1' before it), not the no-op.
        #expect(try sandbox.ok("undo") == "Undid 'done'.\n")
        #expect(try doneIDs() == [1])
        #expect(try sandbox.ok("undone", "2") == "  2  todo 2: already undone\n")
    }

    @Test func aStuckUndoCanBeSkipped() throws {
        try seed(2)
        // Another program deletes the todo the last 'add' made: undoing that add conflicts.
        _ = try ProcessRunner.run("sqlite3", [sandbox.database, "DELETE FROM todos WHERE id = 2"])
        let refused = try sandbox.todo("undo")
        #expect(refused.status == 1)
        #expect(refused.stderrLines.first == "error: cannot undo 'add': todo 2 changed since, in another program")
        #expect(refused.stderrLines.last?.contains("todo undo --skip") == true)
        #expect(try sandbox.todo("undo").status == 1)  // still stuck...
        #expect(try sandbox.ok("undo", "--skip") == "Forgot 'add'; no todo was changed.\n")
        #expect(try sandbox.listJSON().count == 1)
        #expect(try sandbox.ok("undo") == "Undid 'add'.\n")  // ...and older steps are reachable
        #expect(try sandbox.listJSON().isEmpty)
    }

    /// `undo --skip` forgets only a stuck step: one that would undo cleanly is kept (exit 1,
    /// nothing changed) unless `--force` says to drop it anyway.
    @Test func skipKeepsAStepThatCouldBeUndone() throws {
        try seed(2)
        let before = sandbox.fileState()
        let refused = try sandbox.todo("undo", "--skip")
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(refused.stderrLines.first == "error: the newest undo step ('add') can be undone; it was not skipped")
        #expect(sandbox.fileState() == before)
        #expect(try sandbox.todo("undo", "--force").status == 2)
        #expect(try sandbox.ok("undo", "--skip", "--force") == "Forgot 'add'; no todo was changed.\n")
        #expect(try sandbox.listJSON().count == 2)
    }

    @Test func aDamagedHistoryEntryIsReportedAndCanBeSkipped() throws {
        try seed(1)
        _ = try ProcessRunner.run(
            "sqlite3", [sandbox.database, "INSERT INTO todo_history (command, changeset) VALUES ('edit', X'54000102')"])
        let damaged = try sandbox.todo("undo")
        #expect(damaged.status == 1)
        #expect(damaged.stderrLines.first == "error: the newest undo step ('edit') is damaged and cannot be applied")
        _ = try sandbox.ok("undo", "--skip")
        #expect(try sandbox.ok("undo") == "Undid 'add'.\n")
    }

    @Test func redoUntilTheNextChange() throws {
        try seed(1)
        _ = try sandbox.ok("done", "1")
        _ = try sandbox.ok("undo")
        #expect(try doneIDs() == [])
        #expect(try sandbox.ok("redo") == "Redid 'done'.\n")
        #expect(try doneIDs() == [1])
        let nothing = try sandbox.todo("redo")
        #expect(nothing.status == 1 && nothing.stderrLines.first == "error: nothing to redo")
        _ = try sandbox.ok("undo")
        _ = try sandbox.ok("add", "new change")
        #expect(try sandbox.todo("redo").status == 1)
    }
}

/// `--overdue`, `--due-before`, `--due-after` in list, watch and export.
@Suite(.timed) struct DeadlineFilterTests {
    let sandbox = CLISandbox()

    private func names(_ arguments: String...) throws -> [String] {
        let json = arguments.first == "export" ? arguments : arguments + ["--json"]
        return try parseJSON(sandbox.ok(json), as: [[String: Any]].self).compactMap { $0["name"] as? String }
    }

    @Test func filtersByDeadline() throws {
        _ = try sandbox.ok("add", "late", "--due", "2020-01-01")
        _ = try sandbox.ok("add", "late but done", "--due", "2020-01-02")
        _ = try sandbox.ok("done", "2")
        _ = try sandbox.ok("add", "soon", "--due", "+3d")
        _ = try sandbox.ok("add", "later", "--due", "+30d")
        _ = try sandbox.ok("add", "undated")
        #expect(try names("list", "--overdue") == ["late"])
        #expect(try names("list", "--due-before", "+7d") == ["late", "late but done", "soon"])
        #expect(try names("list", "--due-after", "+7d") == ["later"])
        #expect(try names("list", "--due-after", "2019-12-31", "--due-before", "+7d", "--undone") == ["late", "soon"])
        #expect(try names("list", "--overdue", "--due-before", "2019-06-01") == [])
        #expect(try names("export", "--overdue") == ["late"])
        let conflict = try sandbox.todo("list", "--overdue", "--done")
        #expect(conflict.status == 2 && conflict.stderr.hasPrefix("error: '--overdue' and '--done'"))
        let bad = try sandbox.todo("list", "--due-before", "someday")
        #expect(bad.status == 2)
        // Outline and text forms take them too.
        #expect(try sandbox.ok("list", "--outline", "--overdue").hasPrefix("Undone (1)\n"))
    }

    @Test func todayAndWeekKeepTheUndoneTodosDueByTheirLastDay() throws {
        for (name, due) in [
            ("late", "2020-01-01"), ("due today", "today"), ("sunday", "eow"), ("next monday", "next week"),
            ("done today", "today")
        ] {
            _ = try sandbox.ok("add", name, "--due", due)
        }
        _ = try sandbox.ok("add", "undated")
        _ = try sandbox.ok("done", "5")
        let all = try parseJSON(sandbox.ok("list", "--json"), as: [[String: Any]].self)
        let deadline = Dictionary(
            uniqueKeysWithValues: all.map { ($0["name"] as? String ?? "", $0["deadline"] as? String) })
        // Due by a day, not done, in list order (deadline, then id); on a Sunday eow is today.
        func dueBy(_ last: String?) -> [String] {
            all.filter { todo in
                guard let due = todo["deadline"] as? String, let last else { return false }
                return todo["done"] as? Bool == false && due <= last
            }.compactMap { $0["name"] as? String }
        }
        let today = dueBy(deadline["due today"] ?? nil)
        let week = dueBy(deadline["sunday"] ?? nil)
        #expect(today.starts(with: ["late", "due today"]) && !today.contains("next monday"))
        #expect(week.starts(with: ["late", "due today"]) && week.contains("sunday") && !week.contains("next monday"))
        #expect(try names("list", "--today") == today)
        #expect(try names("list", "--week") == week)
        #expect(try names("export", "--today") == today)
        #expect(try names("list", "--today", "--week") == today, "both: the narrower")
        // Bare todo takes them (in a pipe: the rows only), and so does watch, in help too.
        #expect(try sandbox.ok("--today").split(separator: "\n").count == today.count)
        #expect(try sandbox.ok("--week", "--color", "never").split(separator: "\n").count == week.count)
        #expect(try sandbox.ok("help").contains("--today and --week"))
        #expect(try sandbox.ok("watch", "--help").contains("--week"))
        for arguments in [["list", "--today", "--done"], ["--week", "add", "x"], ["--today", "show", "1"], ["--overdu"]]
        {
            let result = try sandbox.todo(arguments)
            #expect(result.status == 2 && result.stderr.hasPrefix("error: "), "\(arguments): \(result.stderr)")
        }
        #expect(
            try sandbox.todo("--week", "add", "x").stderr.hasPrefix("error: unknown option '--week' for 'todo add'"))
        #expect(try sandbox.listJSON().count == 6)
    }

    @Test func watchTakesTheFilters() throws {
        _ = try sandbox.ok("add", "late", "--due", "2020-01-01")
        _ = try sandbox.ok("add", "later", "--due", "+30d")
        let watch = try RunningProcess(
            ProcessRunner.todoBinary, ["--db", sandbox.database, "watch", "--json", "--overdue"])
        let first = try parseJSON(
            #require(watch.nextLine(timeout: 10)), as: [String: Any].self, "todo watch's first line")
        #expect(try field(first, "items", as: [[String: Any]].self).compactMap { $0["name"] as? String } == ["late"])
        _ = watch.interrupt()
    }
}
