import Foundation
import TestSupport
import Testing

/// Issue 37, point 4: `done`, `undone`, `rm`, `edit` (and the other verbs on todos) on many
/// todos at once, selected by `todo list`'s filters typed before the verb (taskwarrior's order:
/// `todo --tag errands --overdue done`) or, for done/undone/rm, after it; all or nothing, one
/// undo step, a question past the bulk threshold on a terminal and a refusal without `--yes` in
/// a pipe. Every selection is checked against `todo list` with the same options.
@Suite(.timed) struct BulkVerbTests {
    let sandbox = CLISandbox()

    /// Eight todos: five tagged errands that `todo list --tag errands` shows (three overdue, one
    /// done), one errand not started yet (which it hides), and one todo of another tag.
    private func errands() throws {
        let adds: [[String]] = [
            ["Buy milk", "+errands", "--due", CLISandbox.day(-2)],
            ["Post letter", "+errands", "--due", CLISandbox.day(-1)],
            ["Return books", "+errands", "--due", CLISandbox.day(3)],
            ["Pick up parcel", "+errands"],
            ["Call plumber", "+home", "--due", CLISandbox.day(-1)],
            ["Old errand", "+errands"],
            ["Future errand", "+errands", "--start", CLISandbox.day(5), "--due", CLISandbox.day(10)],
            ["Fix bike", "+errands", "--due", CLISandbox.day(-3)]
        ]
        for add in adds { _ = try sandbox.ok(["add"] + add) }
        _ = try sandbox.ok("done", "6")
    }

    /// The ids `todo list OPTIONS` shows, sorted (not `listJSON`'s, which adds --all).
    private func listed(_ options: [String]) throws -> [Int] {
        try ids(of: try sandbox.ok(["list", "--json"] + options))
    }

    /// Every todo's id and done state, and the history's length: what "nothing changed" compares.
    private func state() throws -> String {
        try Reliability.sqlite(
            sandbox.database,
            "SELECT group_concat(id || ':' || done || ':' || priority || ':' || tags, ' ') FROM todos; SELECT count(*) FROM todo_history"
        ).stdout
    }

    private func ids(of json: String) throws -> [Int] {
        try parseJSON(json, as: [[String: Any]].self, json).compactMap { $0["id"] as? Int }.sorted()
    }

    private func doneIDs() throws -> [Int] {
        try sandbox.listJSON().filter { $0["done"] as? Bool == true }.compactMap { $0["id"] as? Int }.sorted()
    }

    @Test func doneAndUndoneByFilterBeforeOrAfterTheVerbChangeWhatListShows() throws {
        try errands()
        let overdue = try listed(["--tag", "errands", "--overdue"])
        #expect(overdue == [1, 2, 8])
        // Three: not more than the bulk threshold, so no --yes even in a pipe.
        let before = try sandbox.ok("--tag", "errands", "--overdue", "done")
        #expect(before == "✓ 8  Fix bike\n✓ 1  Buy milk\n✓ 2  Post letter\n")
        #expect(try doneIDs() == [1, 2, 6, 8])
        #expect(try sandbox.ok("undo") == "Undid 'done'.\n")
        #expect(try doneIDs() == [6])
        _ = try sandbox.ok("done", "--tag", "errands", "--overdue")
        #expect(try doneIDs() == [1, 2, 6, 8])

        // undone: the done errands, both spellings.
        #expect(try listed(["--tag", "errands", "--done"]) == [1, 2, 6, 8])
        _ = try sandbox.ok("--tag", "errands", "--done", "undone", "--yes")
        #expect(try doneIDs() == [])
        _ = try sandbox.ok("undo")
        _ = try sandbox.ok("undone", "--done", "--tag", "errands", "--yes")
        #expect(try doneIDs() == [])
        // Before and after the verb together: both narrow.
        _ = try sandbox.ok("--tag", "errands", "done", "--overdue")
        #expect(try doneIDs() == [1, 2, 8])
    }

    @Test func rmByFilterRemovesExactlyWhatListShowsDoneOnesTooAndNotStartedOnesWithAll() throws {
        try errands()
        let shown = try listed(["--tag", "errands"])
        #expect(shown == [1, 2, 3, 4, 6, 8], "the one not started yet is hidden, the done one shown")
        let removed = try sandbox.ok("--tag", "errands", "rm", "--yes")
        #expect(removed.split(separator: "\n").count == shown.count)
        #expect(try listed(["--all"]) == [5, 7])
        _ = try sandbox.ok("undo")
        #expect(try listed(["--all"]) == [1, 2, 3, 4, 5, 6, 7, 8])
        _ = try sandbox.ok("rm", "--tag", "errands", "--all", "--yes")
        #expect(try listed(["--all"]) == [5])
        _ = try sandbox.ok("undo")
        // Ids and a filter: the ids typed that the filter selects.
        #expect(try sandbox.ok("--tag", "errands", "rm", "4", "5", "6") == "- 4  Pick up parcel\n- 6  Old errand\n")
        #expect(try listed(["--all"]) == [1, 2, 3, 5, 7, 8])
    }

    @Test func editByFilterBeforeTheVerbChangesEachTodoWhileEditIDTagStillAddsATag() throws {
        try errands()
        let result = try sandbox.ok("--tag", "errands", "--overdue", "edit", "--priority", "high", "--tag", "town")
        #expect(result == "~ 8  Fix bike\n~ 1  Buy milk\n~ 2  Post letter\n")
        let todos = try sandbox.listJSON()
        let town = todos.filter { ($0["tags"] as? [String])?.contains("+town") == true }.compactMap { $0["id"] as? Int }
        #expect(town.sorted() == [1, 2, 8])
        let high = todos.filter { $0["priority"] as? Int == 1 }.compactMap { $0["id"] as? Int }
        #expect(high.sorted() == [1, 2, 8])
        // After the verb, --tag adds a tag, as ever: one id, or several.
        #expect(try sandbox.ok("edit", "5", "--tag", "town") == "~ 5  Call plumber\n")
        #expect(try listed(["--tag", "town"]) == [1, 2, 5, 8])
        _ = try sandbox.ok("edit", "3-4", "--untag", "errands")
        #expect(try listed(["--tag", "errands"]) == [1, 2, 6, 8])
        // No id and no filter: nothing to edit.
        let none = try sandbox.todo("edit", "--priority", "low")
        #expect(none.status == 2 && none.stderr.hasPrefix("error: missing argument <id>\n"), "\(none.stderr)")
    }

    @Test func theOtherVerbsOnTodosTakeTheFilterBeforeThemToo() throws {
        try errands()
        _ = try sandbox.ok("--tag", "errands", "--overdue", "start")
        #expect(try listed(["--status", "in-process"]) == [1, 2, 8])
        _ = try sandbox.ok("--status", "in-process", "stop")
        #expect(try listed(["--status", "in-process"]) == [])
        _ = try sandbox.ok("lists", "new", "Town")
        _ = try sandbox.ok("--tag", "errands", "--overdue", "move", "--to", "Town")
        #expect(try listed(["--list", "Town"]) == [1, 2, 8])
    }

    @Test func oneTodoThatCannotChangeLeavesEveryTodoUnchanged() throws {
        try errands()
        // A selected parent whose subtask is not selected: done would complete it too, which a
        // pipe does not do without --with-subtasks; nothing of the selection changes.
        _ = try sandbox.ok("add", "Milk and eggs", "--under", "1")
        let state = try self.state()
        let refused = try sandbox.todo("--tag", "errands", "--overdue", "done")
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("error: todo 1 \"Buy milk\" has 1 undone subtask\n"), "\(refused.stderr)")
        #expect(refused.stderr.contains("--with-subtasks"))
        #expect(try self.state() == state)
        _ = try sandbox.ok("--tag", "errands", "--overdue", "done", "--with-subtasks")
        #expect(try doneIDs() == [1, 2, 6, 8, 9])

        // An edit one of them cannot take: --times on a todo that does not repeat.
        _ = try sandbox.ok("add", "Rent", "+bills", "--every", "month")
        _ = try sandbox.ok("add", "Gas", "+bills", "--due", CLISandbox.day(4))
        let before = try self.state()
        let edit = try sandbox.todo("--tag", "bills", "edit", "--times", "3")
        #expect(edit.status == 1 && edit.stderr.hasPrefix("error: todo 11 \"Gas\" does not repeat\n"), "\(edit.stderr)")
        #expect(try self.state() == before)
    }

    @Test func oneUndoRevertsTheWholeChangeAndRedoRedoesIt() throws {
        for index in 1...40 { _ = try sandbox.ok("add", "Errand \(index)", "+errands") }
        let before = try state()
        let output = try sandbox.ok("--tag", "errands", "done", "--yes")
        #expect(output.split(separator: "\n").count == 40)
        #expect(try doneIDs().count == 40)
        #expect(try sandbox.ok("undo") == "Undid 'done'.\n")
        #expect(try state() == before)
        #expect(try sandbox.ok("redo") == "Redid 'done'.\n")
        #expect(try doneIDs().count == 40)
    }

    @Test func inAPipeMoreThanTheBulkThresholdIsRefusedWithoutYes() throws {
        try errands()
        let state = try self.state()
        for arguments in [
            ["--tag", "errands", "done"], ["rm", "--tag", "errands"], ["--tag", "errands", "edit", "--priority", "low"]
        ] {
            let refused = try sandbox.todo(arguments)
            #expect(refused.status == 1, "\(arguments)")
            #expect(refused.stdout.isEmpty)
            #expect(
                refused.stderr.hasPrefix("error: the filter selects 6 todos, more than 3 to change without --yes\n"),
                "\(refused.stderr)")
            #expect(refused.stderr.contains("Nothing was changed. Add --yes"), "\(refused.stderr)")
            #expect(refused.stderr.contains("'todo list --tag errands' shows them"), "\(refused.stderr)")
            #expect(try self.state() == state)
        }
        // Ids alone never ask: only a filter can select more than was meant.
        _ = try sandbox.ok("done", "1-5")
        _ = try sandbox.ok("undo")
        // The threshold is the configuration's `bulk`; 0 never asks.
        let config = sandbox.folder.file("config")
        try "bulk = 6\n".write(toFile: config, atomically: true, encoding: .utf8)
        #expect(try sandbox.todo(["--tag", "errands", "done"], environment: ["TODO_CONFIG": config]).status == 0)
        _ = try sandbox.ok("undo")
        try "bulk = 0\n".write(toFile: config, atomically: true, encoding: .utf8)
        #expect(try sandbox.todo(["--all", "done"], environment: ["TODO_CONFIG": config]).status == 0)
        try "bulk = many\n".write(toFile: config, atomically: true, encoding: .utf8)
        let bad = try sandbox.todo(["--tag", "errands"], environment: ["TODO_CONFIG": config])
        #expect(bad.status == 2 && bad.stderr.contains("bulk is a whole number 0 or more, not 'many'"), "\(bad.stderr)")
    }

    @Test func onATerminalAFilterOfManyTodosSaysHowManyAndAsks() throws {
        try errands()
        let state = try self.state()
        let env = [
            "TODO_DB": sandbox.database, "HOME": sandbox.folder.path, "TODO_CONFIG": "/dev/null", "TZ": "UTC",
            "TERM": "xterm-256color", "LANG": "C.UTF-8", "NO_COLOR": "1"
        ]
        let assignments = env.sorted { $0.key < $1.key }.map { "\($0.key)=\(UITests.quote($0.value))" }
        let command = "env \(assignments.joined(separator: " ")) \(UITests.quote(ProcessRunner.todoBinary))"
        let no = try TmuxSession("\(command) --tag errands done")
        var screen = try no.waitFor("[y/N]")
        #expect(screen.contains("The filter selects 6 todos ('todo list --tag errands' shows them):"), "\(screen)")
        #expect(screen.contains("  8  Fix bike") && screen.contains("  4  Pick up parcel"), "\(screen)")
        #expect(screen.contains("  and 1 more") && !screen.contains("  6  Old errand"), "\(screen)")
        #expect(screen.contains("Mark the 6 todos done? [y/N]"), "\(screen)")
        try no.type("n")
        try no.press("Enter")
        screen = try no.waitFor("EXITED")
        #expect(screen.contains("Nothing was changed.") && screen.contains("EXITED 0"), "\(screen)")
        #expect(try self.state() == state)

        let yes = try TmuxSession("\(command) --tag errands done")
        try yes.waitFor("[y/N]")
        try yes.type("y")
        try yes.press("Enter")
        screen = try yes.waitFor("EXITED")
        #expect(screen.contains("✓ 8  Fix bike") && screen.contains("EXITED 0"), "\(screen)")
        #expect(try doneIDs() == [1, 2, 3, 4, 6, 8])

        // --yes asks nothing; a filter of three (not more than the threshold) neither.
        _ = try sandbox.ok("undo")
        let quiet = try TmuxSession("\(command) --tag errands --overdue done")
        screen = try quiet.waitFor("EXITED")
        #expect(!screen.joined().contains("[y/N]") && screen.contains("EXITED 0"), "\(screen)")
    }

    @Test func aFilterThatSelectsNothingSaysNoTodosAndRecordsNothing() throws {
        try errands()
        let state = try self.state()
        for verb in ["done", "undone", "rm", "start"] {
            let result = try sandbox.todo("--tag", "nowhere", verb)
            #expect(result.status == 0 && result.stdout.isEmpty && result.stderr == "No todos.\n", "\(verb): \(result)")
        }
        let edit = try sandbox.todo("--tag", "errands", "--priority", "low", "edit", "--name", "x")
        #expect(edit.status == 0 && edit.stderr == "No todos.\n", "\(edit)")
        #expect(try self.state() == state)
    }

    /// Point 8: `--json` on every verb prints the changed todos as `todo list --json` prints
    /// them (rm: as they were; undo and redo: an object with the step, the todos now, the ones removed).
    @Test func everyVerbPrintsTheTodosItChangedWithJSON() throws {
        try errands()
        let listed = try sandbox.listJSON()
        let done = try sandbox.ok("--tag", "errands", "--overdue", "done", "--json")
        #expect(try ids(of: done) == [1, 2, 8])
        let first = try #require(try parseJSON(done, as: [[String: Any]].self, done).first)
        #expect(Set(first.keys) == Set(try #require(listed.first).keys), "the same object as list --json")
        #expect(first["done"] as? Bool == true)
        #expect(try ids(of: try sandbox.ok("undone", "1", "2", "--json")) == [1, 2])
        #expect(try ids(of: try sandbox.ok("edit", "3", "--priority", "high", "--json")) == [3])
        #expect(try ids(of: try sandbox.ok("start", "3", "--json")) == [3])
        #expect(try ids(of: try sandbox.ok("stop", "3", "--json")) == [3])
        #expect(try ids(of: try sandbox.ok("cancel", "3", "--json")) == [3])
        _ = try sandbox.ok("add", "Rent", "--every", "month")
        #expect(try ids(of: try sandbox.ok("skip", "9", "--json")) == [9])
        _ = try sandbox.ok("lists", "new", "Town")
        #expect(try ids(of: try sandbox.ok("move", "4", "--to", "Town", "--json")) == [4])
        let removed = try sandbox.ok("rm", "4", "5", "--json")
        #expect(try ids(of: removed) == [4, 5])
        #expect(removed.contains("\"name\": \"Pick up parcel\""))

        let undo = try sandbox.ok("undo", "--json")
        let undone = try parseJSON(undo, as: [String: Any].self, undo)
        #expect(undone["command"] as? String == "rm")
        #expect((undone["todos"] as? [[String: Any]])?.compactMap { $0["id"] as? Int }.sorted() == [4, 5])
        #expect((undone["removed"] as? [[String: Any]])?.isEmpty == true)
        let redo = try sandbox.ok("redo", "--json")
        let redone = try parseJSON(redo, as: [String: Any].self, redo)
        #expect(redone["command"] as? String == "rm")
        #expect((redone["todos"] as? [[String: Any]])?.isEmpty == true)
        #expect((redone["removed"] as? [[String: Any]])?.compactMap { $0["id"] as? Int }.sorted() == [4, 5])
    }

    /// Point 8: a todo that has a UID (here given by an iCalendar export) carries it in
    /// `list --json` and in a verb's `--json`, as `todo export` writes it.
    @Test func listJSONCarriesTheUIDOfATodoThatHasOne() throws {
        _ = try sandbox.ok("add", "Buy milk")
        _ = try sandbox.ok("add", "Pay rent")
        #expect(try sandbox.listJSON().allSatisfy { $0["uid"] == nil }, "no UID before one is given")
        let ics = try sandbox.ok("export", "--format", "ics")
        // Lines end in CRLF, one Character in Swift.
        let uids = ics.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("UID:") }.map {
            $0.dropFirst(4).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(uids.count == 2)
        let listed = try sandbox.listJSON()
        #expect(Set(listed.compactMap { $0["uid"] as? String }) == Set(uids), "\(listed)")
        let outline = try sandbox.ok("list", "--outline", "--json")
        #expect(uids.allSatisfy { outline.contains("\"uid\": \"\($0)\"") }, "\(outline)")
        let done = try sandbox.ok("done", "1", "--json")
        let uid = try parseJSON(done, as: [[String: Any]].self, done).first?["uid"] as? String
        #expect(uid == listed.first { $0["id"] as? Int == 1 }?["uid"] as? String)
        // todo watch --json: in its first listing and in each change line.
        let watch = try RunningProcess(
            ProcessRunner.todoBinary, ["watch", "--json"], environment: ["TODO_DB": sandbox.database])
        let first = try #require(watch.nextLine())
        let items = try #require(try parseJSON(first, as: [String: Any].self, first)["items"] as? [[String: Any]])
        #expect(Set(items.compactMap { $0["uid"] as? String }) == Set(uids), "\(first)")
        _ = try sandbox.ok("edit", "2", "--name", "Pay the rent")
        let line = try #require(watch.nextLine())
        #expect(line.contains("\"uid\": \"") && line.contains("Pay the rent"), "\(line)")
        _ = watch.interrupt()
    }

    /// Point 8: taskwarrior's word order gets todo's as a hint, exit 2, nothing run.
    @Test func anIDBeforeTheVerbIsAnsweredWithTheCommandInTodosOrder() throws {
        _ = try sandbox.ok("add", "Buy milk")
        let cases: [([String], String)] = [
            (["463", "done"], "todo done 463"),
            (["1", "done", "--with-subtasks"], "todo done 1 --with-subtasks"),
            (["1", "2-3", "rm", "--yes"], "todo rm 1 2-3 --yes"),
            (["1", "modify", "--name", "Buy oat milk"], "todo edit 1 --name 'Buy oat milk'"),
            (["--tag", "errands", "1", "done"], "todo --tag errands done 1"),
            (["1", "annotate", "called,", "no", "answer"], "todo edit 1 --append 'called, no answer'"),
            (["1"], "todo show 1")
        ]
        for (arguments, meant) in cases {
            let result = try sandbox.todo(arguments)
            #expect(result.status == 2)
            #expect(
                result.stderr
                    == "error: unknown command '\(arguments.first { !$0.hasPrefix("-") && $0 != "errands" } ?? "")'\nDid you mean '\(meant)'?\n",
                "\(arguments): \(result.stderr)")
        }
        #expect(try doneIDs() == [])
        // A word that is no id keeps the nearest-command hint; taskwarrior's annotate is edit's --append.
        #expect(try sandbox.todo("dne", "1").stderr.contains("Did you mean 'done'?"))
        #expect(
            try sandbox.todo("annotate", "1", "called").stderr
                == "error: unknown command 'annotate'\nDid you mean 'todo edit ID --append TEXT'?\n")
    }

    /// Point 4: undo goes back 1,000 steps by default (the store's test counts them); the
    /// configuration's undo.depth sets it.
    @Test func undoDepthIsTheConfigurationsSetting() throws {
        let config = sandbox.folder.file("config")
        try "[undo]\ndepth = 2\n".write(toFile: config, atomically: true, encoding: .utf8)
        let env = ["TODO_CONFIG": config]
        for name in ["a", "b", "c"] { #expect(try sandbox.todo(["add", name], environment: env).status == 0) }
        #expect(try sandbox.todo(["undo"], environment: env).status == 0)
        #expect(try sandbox.todo(["undo"], environment: env).status == 0)
        #expect(try sandbox.todo(["undo"], environment: env).stderr == "error: nothing to undo\n")
        #expect(try sandbox.listJSON().map { $0["name"] as? String } == ["a"])
        try "undo.depth = 0\n".write(toFile: config, atomically: true, encoding: .utf8)
        let bad = try sandbox.todo(["list"], environment: env)
        #expect(bad.status == 2 && bad.stderr.contains("undo.depth is a whole number from 1 to 1000000, not '0'"))
        // More than the old 100 steps: 120 adds, every one undone.
        for index in 1...120 { _ = try sandbox.ok("add", "todo \(index)") }
        for _ in 1...120 { _ = try sandbox.ok("undo") }
        #expect(try sandbox.listJSON().map { $0["name"] as? String } == ["a"])
    }

    /// Bare `todo` takes every filter of `todo list` (it did not take --tag), and lists the
    /// undone todos among them as ever.
    @Test func bareTodoTakesEveryFilterOfList() throws {
        try errands()
        let list = try sandbox.ok("list", "--tag", "errands", "--overdue")
        #expect(try sandbox.ok("--tag", "errands", "--overdue") == list)
        let bare = try sandbox.ok("--tag", "errands")
        #expect(
            bare.split(separator: "\n").map { $0.split(separator: " ").first.map(String.init) } == [
                "8", "1", "2", "3", "4"
            ])
        #expect(try sandbox.ok("--tag", "errands", "--done") == (try sandbox.ok("list", "--tag", "errands", "--done")))
    }
}
