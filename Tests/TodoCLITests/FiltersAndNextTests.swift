import Foundation
import TestSupport
import Testing

/// Issue 37's filters (point 6) and `todo next` (point 7) through the `todo` binary: `--no-tag`,
/// `--tag -X` refused, `--any-tag`, `--search` over notes, the completed and created days in
/// several date forms and on the local calendar, the note about a tag no todo has; `todo next`'s
/// ranking, its rows, `--json`, its limits in a pipe and its nearest-command hint. The terminal's
/// height is TerminalFittingTests'.
@Suite(.timed) struct FiltersAndNextTests {
    let sandbox = CLISandbox()

    /// The ids `todo list ARGUMENTS --json` lists, in order.
    private func ids(_ arguments: String..., environment: [String: String] = [:]) throws -> [Int] {
        let result = try sandbox.todo(["list", "--json"] + arguments, environment: environment)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return try parseJSON(result.stdout, as: [[String: Any]].self, "list \(arguments)").compactMap {
            $0["id"] as? Int
        }
    }

    /// 1 +work, 2 +home, 3 +work +home, 4 +someday +workout, 5 no tag.
    private func tagged() throws {
        for arguments in [["a", "+work"], ["b", "@home"], ["c", "+work", "+home"], ["d", "+someday", "+workout"], ["e"]]
        {
            _ = try sandbox.ok(["add"] + arguments)
        }
    }

    // MARK: Filters

    @Test func noTagLeavesOutTodosWithAnyOfTheTags() throws {
        try tagged()
        #expect(try ids("--no-tag", "someday") == [1, 2, 3, 5])
        #expect(try ids("--no-tag", "someday", "--no-tag", "+WORK") == [2, 5], "none of them; +workout is another tag")
        #expect(try ids("--tag", "home", "--no-tag", "work") == [2])
        // export and bare todo's sibling views take it too.
        let exported = try parseJSON(try sandbox.ok("export", "--no-tag", "home"), as: [[String: Any]].self, "export")
        #expect(exported.compactMap { $0["id"] as? Int } == [1, 4, 5])
    }

    @Test func aTagWordStartingWithADashIsAUsageErrorThatNamesNoTag() throws {
        try tagged()
        let before = sandbox.fileState()
        let result = try sandbox.todo("list", "--tag", "-someday")
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines.first == "error: '--tag -someday': a tag does not start with '-'")
        #expect(result.stderrLines.count == 2 && result.stderrLines[1].contains("--no-tag someday"))
        let any = try sandbox.todo("list", "--any-tag", "-x")
        #expect(any.status == 2 && any.stderr.contains("--no-tag x"))
        let none = try sandbox.todo("list", "--no-tag", "-x")
        #expect(none.status == 2 && none.stderrLines.last == "--no-tag takes the tag itself: --no-tag x.")
        #expect(sandbox.fileState() == before, "a usage error touches nothing")
        // A tag whose word starts with '-' is still reachable, written with its sigil.
        _ = try sandbox.ok("add", "dash", "+-x")
        #expect(try ids("--tag", "+-x") == [6])
    }

    @Test func anyTagKeepsTodosWithAtLeastOneOfTheTags() throws {
        try tagged()
        #expect(try ids("--any-tag", "home", "--any-tag", "someday") == [2, 3, 4])
        #expect(try ids("--any-tag", "work") == [1, 3])
        #expect(try ids("--tag", "work", "--tag", "home") == [3], "--tag stays every one of them")
        #expect(try ids("--any-tag", "work", "--any-tag", "home", "--no-tag", "home") == [1])
    }

    @Test func searchMatchesNotesWithTheFoldingRule() throws {
        _ = try sandbox.ok("add", "Call the bakery", "--note", "ask about the ÉCLAIR order")
        _ = try sandbox.ok("add", "Straße fegen")
        _ = try sandbox.ok("add", "Shopping", "--note", "milk\nbread from the STRASSE market")
        #expect(try ids("--search", "éclair") == [1])
        #expect(try ids("--search", "strasse") == [2, 3], "one in the name, one on a note's second line")
        #expect(try ids("--search", "bakeryask").isEmpty, "a term never spans the name and the note")
        #expect(try ids("--search", "milk", "--search", "market") == [3])
        #expect(try sandbox.ok("list", "--search", "ÉCLAIR") == "  1  [ ]              Call the bakery\n")
    }

    /// Local days in UTC: 1 completed on 2021-03-05, 2 three days ago, 3 today, 4 not done;
    /// 1 created in 2021, the others now.
    private func finished() throws {
        for name in ["long ago", "three days ago", "today", "not done"] { _ = try sandbox.ok("add", name) }
        _ = try sandbox.ok("done", "1-3")
        let sql = """
            UPDATE todos SET completed = '2021-03-05T12:00:00Z', created = '2021-01-01T08:00:00Z' WHERE id = 1;
            UPDATE todos SET completed = strftime('%Y-%m-%dT%H:%M:%SZ', 'now', 'start of day', '-3 days', '+12 hours')
              WHERE id = 2;
            """
        let result = try ProcessRunner.run("sqlite3", [sandbox.database, sql])
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test func completedAndCreatedFiltersTakeEveryDateForm() throws {
        try finished()
        let utc = ["TZ": "UTC"]
        func listed(_ arguments: String...) throws -> [Int] {
            let result = try sandbox.todo(["list", "--json"] + arguments, environment: utc)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return try parseJSON(result.stdout, as: [[String: Any]].self, "\(arguments)").compactMap {
                $0["id"] as? Int
            }
        }
        #expect(try listed("--completed-after", "2021-03-04") == [1, 2, 3])
        #expect(try listed("--completed-after", "2021/03/05") == [2, 3], "after the day, as --due-after")
        #expect(try listed("--completed-before", "2021-03-06") == [1])
        #expect(try listed("--completed-after", "-4d") == [2, 3])
        #expect(try listed("--completed-after", "4 days ago") == [2, 3])
        #expect(try listed("--completed-after", "-3d") == [3])
        #expect(try listed("--completed-after", "yesterday") == [3])
        #expect(try listed("--completed-after", "today").isEmpty)
        #expect(try listed("--completed-before", "today", "--completed-after", "-1w") == [2])
        let weekday = CLISandbox.weekday(-5)
        #expect(try listed("--completed-after", "last \(weekday)") == [2, 3], "last \(weekday) is five days ago")
        #expect(try listed("--created-before", "2022-01-01") == [1])
        #expect(try listed("--created-after", "-1w") == [2, 3, 4])
        #expect(try listed("--created-after", "yesterday", "--undone") == [4])
        #expect(try listed("--created-before", "tomorrow", "--created-after", "2020-12-31", "--done") == [1, 2, 3])
        // Completed todos are done: asking for undone ones too is a usage error, not an empty list.
        let both = try sandbox.todo("list", "--completed-after", "2021-01-01", "--undone")
        #expect(both.status == 2 && both.stderr.hasPrefix("error: '--completed-after'"))
        let bad = try sandbox.todo("list", "--created-after", "someday")
        #expect(bad.status == 2 && bad.stderr.contains("'someday' is not a date"))
    }

    /// The days are the local calendar's: 20:00 UTC on May 1 is May 2 in Tokyo.
    @Test func completedDaysAreOnTheLocalCalendar() throws {
        _ = try sandbox.ok("add", "late")
        _ = try sandbox.ok("done", "1")
        let result = try ProcessRunner.run(
            "sqlite3", [sandbox.database, "UPDATE todos SET completed = '2024-05-01T20:00:00Z' WHERE id = 1;"])
        #expect(result.status == 0)
        func listed(_ zone: String, _ option: String) throws -> [Int] {
            let result = try sandbox.todo(["list", "--json", option, "2024-05-01"], environment: ["TZ": zone])
            return try parseJSON(result.stdout, as: [[String: Any]].self, zone).compactMap { $0["id"] as? Int }
        }
        #expect(try listed("UTC", "--completed-after").isEmpty)
        #expect(try listed("JST-9", "--completed-after") == [1])
        #expect(try listed("UTC", "--completed-before").isEmpty)
        #expect(try listed("<-12>12", "--completed-before").isEmpty)
        #expect(try listed("<-12>12", "--completed-after").isEmpty, "08:00 on May 1 there")
    }

    @Test func aTagNoTodoHasIsSaidOnStandardError() throws {
        try tagged()
        let missing = try sandbox.todo("list", "--tag", "nosuch")
        #expect(missing.status == 0)
        #expect(missing.stdout.isEmpty)
        #expect(missing.stderr == "note: no todo has the tag +nosuch\nNo todos.\n")
        // A filter that still lists todos says it too: leaving out a tag nobody has leaves out nothing.
        let typo = try sandbox.todo("list", "--no-tag", "somday")
        #expect(typo.status == 0 && typo.stdout.split(separator: "\n").count == 5)
        #expect(typo.stderr == "note: no todo has the tag +somday\n")
        let any = try sandbox.todo("list", "--any-tag", "work", "--any-tag", "@nope", "--any-tag", "@NOPE")
        #expect(any.stderr == "note: no todo has the tag @nope\n", "once per tag")
        // A tag some todo has, even one the filter leaves out, is no surprise; nor is a plain empty list.
        let empty = try sandbox.todo("list", "--tag", "work", "--tag", "someday")
        #expect(empty.status == 0 && empty.stderr == "No todos.\n")
        let exported = try sandbox.todo("export", "--tag", "nosuch")
        #expect(exported.status == 0 && exported.stdout == "[]\n" && exported.stderr.hasPrefix("note: no todo has"))
    }

    // MARK: todo next

    /// The urgency factors, one todo each (ages are all near 0: added now).
    private func ranked() throws {
        _ = try sandbox.ok("add", "overdue", "--due", CLISandbox.day(-10))  // 1: 12
        _ = try sandbox.ok("add", "high", "--priority", "high")  // 2: 6
        _ = try sandbox.ok("add", "started")  // 3: 4
        _ = try sandbox.ok("start", "3")
        _ = try sandbox.ok("add", "blocker")  // 4: 8, blocking 5
        _ = try sandbox.ok("add", "blocked", "--waits-for", "4")  // 5: -5, left out
        _ = try sandbox.ok("add", "two tags", "+x", "+y")  // 6: 0.9
        _ = try sandbox.ok("add", "later", "--due", CLISandbox.day(30))  // 7: 2.4
        _ = try sandbox.ok("add", "finished")  // 8: done, left out
        _ = try sandbox.ok("done", "8")
        // 9: due in 10 days (0.352 x 12 = 4.23), starting in 5 (-3): left out until it starts.
        _ = try sandbox.ok("add", "not yet", "--due", CLISandbox.day(10), "--start", CLISandbox.day(5))
    }

    private func nextJSON(_ arguments: String...) throws -> [[String: Any]] {
        let result = try sandbox.todo(["next", "--json"] + arguments, environment: ["TZ": "UTC"])
        #expect(result.status == 0, "\(result.stderr)")
        return try parseJSON(result.stdout, as: [[String: Any]].self, "next --json \(arguments)")
    }

    @Test func nextRanksByUrgencyAndLeavesOutTheBlockedAndTheNotStarted() throws {
        try ranked()
        let ranked = try nextJSON()
        #expect(ranked.compactMap { $0["id"] as? Int } == [1, 4, 2, 3, 7, 6])
        let urgencies = ranked.compactMap { $0["urgency"] as? Double }
        for (urgency, expected) in zip(urgencies, [12, 8, 6, 4, 2.4, 0.9]) { #expect(abs(urgency - expected) < 0.015) }
        #expect(ranked.first?["name"] as? String == "overdue" && ranked.first?["list"] as? String == "Todos")
        // --all ranks them too, lower.
        let all = try nextJSON("--all")
        #expect(all.compactMap { $0["id"] as? Int } == [1, 4, 2, 3, 7, 9, 6, 5])
        #expect(abs((all.last?["urgency"] as? Double ?? 0) + 5) < 0.015)
        // Filters are list's.
        #expect(try nextJSON("--tag", "x").compactMap { $0["id"] as? Int } == [6])
        #expect(try nextJSON("--no-tag", "x", "--limit", "2").compactMap { $0["id"] as? Int } == [1, 4])
        // The rows: the urgency, then the row as todo list writes it (no hints in a pipe).
        let rows = try sandbox.ok(["next", "--limit", "3"], environment: ["TZ": "UTC"])
        #expect(
            rows == """
                 12.0  1  [ ]  \(CLISandbox.day(-10))  overdue
                  8.0  4  [ ]              blocker
                  6.0  2  [ ]              (H) high

                """)
    }

    @Test func nextInAPipeShowsTenAndLimitSaysHowMany() throws {
        _ = try sandbox.ok("list")
        let fill =
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 25) "
            + "INSERT INTO todos(name, priority) SELECT 'todo ' || i, i % 10 FROM n;"
        #expect(try ProcessRunner.run("sqlite3", [sandbox.database, fill]).status == 0)
        #expect(try sandbox.ok("next").split(separator: "\n").count == 10)
        #expect(try nextJSON().count == 10)
        #expect(try sandbox.ok("next", "--limit", "25").split(separator: "\n").count == 25)
        #expect(try sandbox.ok("next", "--limit", "3").split(separator: "\n").count == 3)
        // The most urgent first (high 1-4, medium 5, low 6-9, none), equal scores by id.
        let all = try nextJSON("--limit", "25")
        let keys = all.map { ($0["urgency"] as? Double ?? 0, $0["id"] as? Int ?? 0) }
        #expect(zip(keys, keys.dropFirst()).allSatisfy { $0.0 > $1.0 || ($0.0 == $1.0 && $0.1 < $1.1) })
        #expect(all.first?["id"] as? Int == 1 && all.last?["priority"] as? Int == 0)
    }

    @Test func nextSaysNoTodosAndRefusesDoneOnes() throws {
        let empty = try sandbox.todo("next")
        #expect(empty.status == 0 && empty.stdout.isEmpty && empty.stderr == "No todos.\n")
        #expect(try sandbox.ok("next", "--json") == "[]\n")
        _ = try sandbox.ok("add", "a", "+work")
        let missing = try sandbox.todo("next", "--tag", "nosuch")
        #expect(missing.status == 0 && missing.stderr == "note: no todo has the tag +nosuch\nNo todos.\n")
        for option in [["--done"], ["--completed-after", "yesterday"]] {
            let refused = try sandbox.todo(["next"] + option)
            #expect(refused.status == 2 && refused.stderr.hasPrefix("error: 'todo next' ranks todos not done"))
        }
    }

    @Test func aMistypedNextGetsTheNearestCommand() throws {
        for typo in ["nxt", "nexy", "enxt"] {
            let result = try sandbox.todo(typo)
            #expect(result.status == 2)
            #expect(result.stderrLines.last?.hasPrefix("Did you mean 'next'?") == true, "\(typo): \(result.stderr)")
        }
        #expect(try sandbox.ok("help", "next").contains("taskwarrior"))
    }
}
