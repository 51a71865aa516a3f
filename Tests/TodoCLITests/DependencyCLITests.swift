import Foundation
import TestSupport
import Testing

/// Dependencies through the `todo` binary (issue 36): made with `add --waits-for` and `edit
/// --waits-for`/`--no-wait-for`, shown in rows (`waits for 1`), `show` and `--json`, listed after
/// what they wait for, filtered by `--blocked`/`--unblocked`; one undo step; a cycle refused;
/// kept through todo's JSON and iCalendar export and import, and read from taskwarrior's
/// `depends:` (point 5).
@Suite(.timed) struct DependencyCLITests {
    let sandbox = CLISandbox()
    let fixtures = ProcessRunner.packageRoot + "/Tests/TodoInteropTests/Fixtures"

    /// Buy paint (1), Paint the fence (2, waits for 1), Invite the neighbours (3, waits for 2),
    /// Pay rent (4). By deadline alone the waiting todos would come first.
    private func fence() throws {
        #expect(try sandbox.ok("add", "Buy paint", "--due", "2026-12-20") == "1\n")
        #expect(try sandbox.ok("add", "Paint the fence", "--due", "2026-12-10", "--waits-for", "1") == "2\n")
        #expect(try sandbox.ok("add", "Invite the neighbours", "--due", "2026-12-05", "--waits-for", "2") == "3\n")
        #expect(try sandbox.ok("add", "Pay rent", "--due", "2026-12-01") == "4\n")
    }

    private func write(_ text: String, to name: String) throws -> String {
        let path = sandbox.folder.file(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// `todo ARGUMENTS` on the file `database` (the sandbox's own when `nil`); its stdout.
    private func on(_ database: String?, _ arguments: String...) throws -> String {
        try sandbox.ok((database.map { ["--db", $0] } ?? []) + arguments)
    }

    /// What each todo of `database` waits for, by name, for comparing files whose ids differ.
    private func links(_ database: String? = nil) throws -> [String: [String]] {
        let listed = try parseJSON(try on(database, "list", "--json", "--all"), as: [[String: Any]].self, "list")
        let names = Dictionary(
            uniqueKeysWithValues: listed.map { ($0["id"] as? Int ?? 0, $0["name"] as? String ?? "") })
        return Dictionary(
            uniqueKeysWithValues: listed.map { todo in
                (todo["name"] as? String ?? "", (todo["depends"] as? [Int] ?? []).compactMap { names[$0] })
            })
    }

    @Test func blockedTodosAreShownAndListedAfterWhatTheyWaitFor() throws {
        try fence()
        let list = """
              4  [ ]  2026-12-01  Pay rent
              1  [ ]  2026-12-20  Buy paint
              2  [ ]  2026-12-10  Paint the fence  waits for 1
              3  [ ]  2026-12-05  Invite the neighbours  waits for 2

            """
        #expect(try sandbox.ok("list") == list)
        #expect(try sandbox.ok() == list, "bare todo")
        #expect(try sandbox.ok("list", "--blocked").split(separator: "\n").map { $0.prefix(3) } == ["  2", "  3"])
        #expect(try sandbox.ok("list", "--unblocked").split(separator: "\n").map { $0.prefix(3) } == ["  4", "  1"])
        #expect(try sandbox.ok("--unblocked").split(separator: "\n").count == 2, "bare todo takes them too")
        // Another order asked for is kept; the rows still say what they wait for.
        #expect(try sandbox.ok("list", "--sort", "name").hasPrefix("  1  [ ]  2026-12-20  Buy paint\n"))
        // Done, a todo blocks nothing: the fence is free, and no longer marked.
        _ = try sandbox.ok("done", "1")
        #expect(try sandbox.ok("list").contains("  2  [ ]  2026-12-10  Paint the fence\n"))
        #expect(try sandbox.ok("list", "--blocked") == "  3  [ ]  2026-12-05  Invite the neighbours  waits for 2\n")
        // 40 columns: every row fits.
        let narrow = try sandbox.onTerminal(["list"], columns: "40")
        #expect(narrow.split(separator: "\n").allSatisfy { $0.count <= 40 }, "\(narrow)")
    }

    @Test func showAndJSONCarryTheLinks() throws {
        try fence()
        let show = try sandbox.ok("show", "2")
        #expect(show.hasSuffix("\nwaits for: [ ] 1  Buy paint\nblocks:    [ ] 3  Invite the neighbours\n"), "\(show)")
        let listed = try sandbox.listJSON()
        #expect(listed.map { $0["depends"] as? [Int] ?? [-1] } == [[], [], [1], [2]])
        let one = try parseJSON(try sandbox.ok("show", "3", "--json"), as: [String: Any].self, "show --json")
        #expect(one["depends"] as? [Int] == [2])
        let added = try parseJSON(
            try sandbox.ok("add", "Clean the brushes", "--waits-for", "2,1", "--json"), as: [String: Any].self, "add")
        #expect(added["depends"] as? [Int] == [1, 2])
    }

    @Test func editAddsAndRemovesLinksInOneUndoStep() throws {
        try fence()
        #expect(
            try sandbox.ok("edit", "4", "--waits-for", "1", "--waits-for", "3", "--name", "Pay the rent")
                == "~ 4  Pay the rent\n")
        #expect(try sandbox.listJSON().first { $0["id"] as? Int == 4 }?["depends"] as? [Int] == [1, 3])
        #expect(try sandbox.ok("edit", "4", "--no-wait-for", "1") == "~ 4  Pay the rent\n")
        #expect(try sandbox.listJSON().first { $0["id"] as? Int == 4 }?["depends"] as? [Int] == [3])
        #expect(try sandbox.ok("undo") == "Undid 'edit'.\n")
        #expect(try sandbox.listJSON().first { $0["id"] as? Int == 4 }?["depends"] as? [Int] == [1, 3])
        #expect(try sandbox.ok("undo") == "Undid 'edit'.\n")
        let rent = try #require(try sandbox.listJSON().first { $0["id"] as? Int == 4 })
        #expect(
            rent["depends"] as? [Int] == [] && rent["name"] as? String == "Pay rent", "name and links undone together")
        // rm takes the links along; undo brings them back.
        #expect(try sandbox.ok("rm", "2") == "- 2  Paint the fence\n")
        #expect(try sandbox.listJSON().first { $0["id"] as? Int == 3 }?["depends"] as? [Int] == [])
        #expect(try sandbox.ok("undo") == "Undid 'rm'.\n")
        #expect(try sandbox.listJSON().map { $0["depends"] as? [Int] ?? [-1] } == [[], [], [1], [2]])
        #expect(try sandbox.ok("redo") == "Redid 'rm'.\n")
        #expect(try sandbox.listJSON().count == 3)
    }

    @Test func badInputIsRefusedWithOneErrorAndTheFileUnchanged() throws {
        try fence()
        let before = sandbox.fileState()
        for (arguments, status, message) in [
            (
                ["edit", "1", "--waits-for", "3"], 1,
                "error: todo 1 cannot wait for 3: 3 waits for 1 (directly or through others)"
            ),
            (["edit", "2", "--waits-for", "2"], 1, "error: todo 2 cannot wait for itself"),
            (["edit", "2", "--waits-for", "99"], 1, "error: no todo with id 99"),
            (
                ["edit", "2", "--waits-for", "1", "--no-wait-for", "1"], 2,
                "error: '--waits-for 1' and '--no-wait-for 1' say the opposite"
            ),
            (["edit", "2", "--waits-for", "x"], 2, "error: 'x' is not a todo id"),
            (["add", "x", "--waits-for", "99"], 1, "error: no todo with id 99"),
            (["list", "--blocked", "--unblocked"], 2, "error: '--blocked' and '--unblocked' cannot be used together"),
            (["list", "--blocked", "--done"], 2, "error: '--blocked' and '--done' cannot be used together"),
            (["--unblocked", "--blocked"], 2, "error: '--blocked' and '--unblocked' cannot be used together")
        ] as [([String], Int32, String)] {
            let result = try sandbox.todo(arguments)
            #expect(result.status == status, "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix(message), "\(arguments): \(result.stderr)")
            #expect(result.stderr.components(separatedBy: "error:").count == 2, "\(arguments): one error line")
        }
        #expect(sandbox.fileState() == before)
    }

    @Test func todosJSONExportAndImportKeepTheLinks() throws {
        try fence()
        let file = try write(try sandbox.ok("export"), to: "export.json")
        let other = sandbox.folder.file("other.sqlite")
        #expect(try sandbox.ok(["--db", other, "import", file]) == "Imported 4 todos.\n")
        // The todos keep their ids (issue 37), and the links name them.
        #expect(
            try on(other, "list", "--blocked")
                == "  2  [ ]  2026-12-10  Paint the fence  waits for 1\n  3  [ ]  2026-12-05  Invite the neighbours  waits for 2\n"
        )
        // A file naming todos it does not hold, or a cycle, imports without those links.
        let odd = try write(
            """
            [{"id": 7, "name": "a", "depends": [8, 99]}, {"id": 8, "name": "b", "depends": [7]}]
            """, to: "odd.json")
        let oddResult = try on(other, "import", odd)
        #expect(oddResult.contains("Imported 2 todos") && oddResult.contains("1 dependency that would make a loop"))
        let bad = try write(#"[{"name": "a", "depends": "7"}]"#, to: "bad.json")
        let refused = try sandbox.todo("--db", other, "import", bad)
        #expect(refused.status == 1 && refused.stderr.contains("\"depends\" must be an array of todos' ids"))
    }

    @Test func iCalendarExportWritesDependsOnAndImportReadsIt() throws {
        try fence()
        let ics = try sandbox.ok("export", "--format", "ics")
        let objects = ics.components(separatedBy: "BEGIN:VTODO").dropFirst()
        let fenceObject = try #require(objects.first { $0.contains("SUMMARY:Paint the fence") })
        let paint = try #require(objects.first { $0.contains("SUMMARY:Buy paint") })
        let paintUID = try #require(
            paint.components(separatedBy: "\r\n").first { $0.hasPrefix("UID:") }.map { String($0.dropFirst(4)) })
        #expect(fenceObject.contains("RELATED-TO;RELTYPE=DEPENDS-ON:\(paintUID)\r\n"))
        let file = try write(ics, to: "export.ics")
        let other = sandbox.folder.file("other.sqlite")
        #expect(try sandbox.ok(["--db", other, "import", file]).hasPrefix("Imported 4 todos"))
        #expect(
            try links(other) == [
                "Buy paint": [], "Paint the fence": ["Buy paint"], "Invite the neighbours": ["Paint the fence"],
                "Pay rent": []
            ])
        // Another app's object: the type in lower case, a link to itself, and one to an object
        // the file does not hold.
        let phone = try write(
            """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//phone//EN\r
            BEGIN:VTODO\r
            UID:a\r
            SUMMARY:Frame the photo\r
            RELATED-TO;RELTYPE=depends-on:b\r
            RELATED-TO;RELTYPE=DEPENDS-ON:a\r
            RELATED-TO;RELTYPE=DEPENDS-ON:elsewhere\r
            END:VTODO\r
            BEGIN:VTODO\r
            UID:b\r
            SUMMARY:Print the photo\r
            END:VTODO\r
            END:VCALENDAR\r

            """, to: "phone.ics")
        #expect(try on(other, "import", phone).hasPrefix("Imported 2 todos"))
        #expect(try links(other)["Frame the photo"] == ["Print the photo"])
    }

    /// Point 5: taskwarrior's `depends:` becomes links, no longer counted as not kept; a link to
    /// a deleted task is counted. The real tool when it is installed (scripts/setup installs it).
    @Test func taskwarriorDependsBecomeLinks() throws {
        try #require(
            (try? ProcessRunner.which("task")) != nil, "taskwarrior is not installed (scripts/setup installs it)")
        let file = sandbox.folder.file("live.json")
        let run = try ProcessRunner.run("sh", [fixtures + "/capture-taskwarrior.sh", file, "depends"])
        try #require(run.status == 0, "\(run.stderr)")
        let output = try sandbox.ok(["import", file])
        #expect(
            output
                == "Imported 7 todos (read as taskwarrior). Not kept: 1 deleted task, depends: on a task not imported (deleted or not in the file) on 1 todo.\n"
        )
        #expect(
            try links() == [
                "Buy paint": [], "Paint the fence": ["Buy paint"], "Invite the neighbours": ["Paint the fence"],
                "Clean the brushes": ["Buy paint", "Paint the fence"], "Borrow a ladder": [],
                "Fix the gutter": ["Borrow a ladder"], "Tidy the shed": []
            ])
        // Borrow a ladder was done: the gutter is not blocked.
        #expect(
            try sandbox.ok("list", "--blocked").split(separator: "\n").map {
                $0.split(separator: " ").dropFirst(5).first
            }
            .count == 3)
        #expect(try sandbox.ok(["import", file]).hasPrefix("Imported 0 new todos, updated 0, 7 unchanged"))
    }

    /// taskwarrior 2.5 wrote `depends` as one string of uuids, comma-separated.
    @Test func taskwarriorsOlderCommaSeparatedDependsIsRead() throws {
        let file = try write(
            """
            [{"description": "a", "status": "pending", "uuid": "u-a"},
             {"description": "b", "status": "pending", "uuid": "u-b"},
             {"description": "c", "status": "pending", "uuid": "u-c", "depends": "u-a,u-b"}]
            """, to: "old.json")
        #expect(try sandbox.ok(["import", "--from", "taskwarrior", file]) == "Imported 3 todos.\n")
        #expect(try links()["c"] == ["a", "b"])
    }
}
