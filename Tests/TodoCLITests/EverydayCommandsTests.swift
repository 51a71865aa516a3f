import Foundation
import TestSupport
import Testing

/// edit, undone, show, search and paging, end to end.
@Suite(.timed) struct EverydayCommandsTests {
    let sandbox = CLISandbox()

    private func todo(_ id: Int) throws -> [String: Any] {
        let output = try sandbox.ok("show", String(id), "--json")
        return try parseJSON(output, as: [String: Any].self, "todo show \(id) --json")
    }

    @Test func editChangesNameAndDeadlineTogetherOrAlone() throws {
        _ = try sandbox.ok("add", "Buy milk", "--due", "2024-05-01")
        #expect(try sandbox.ok("edit", "1", "--name", "Buy oat milk") == "~ 1  Buy oat milk\n")
        #expect(try todo(1)["deadline"] as? String == "2024-05-01")
        _ = try sandbox.ok("edit", "1", "--due", "2030-01-02", "--name", "Oat milk")
        #expect(try todo(1)["name"] as? String == "Oat milk")
        #expect(try todo(1)["deadline"] as? String == "2030-01-02")
        _ = try sandbox.ok("edit", "1", "--no-due")
        #expect(try todo(1)["deadline"] is NSNull)
    }

    @Test func undoneReversesDone() throws {
        _ = try sandbox.ok("add", "a")
        _ = try sandbox.ok("add", "b")
        _ = try sandbox.ok("done", "1", "2")
        #expect(try sandbox.ok("undone", "2", "1") == "○ 2  b\n○ 1  a\n")
        #expect(try sandbox.listJSON().map { $0["done"] as? Bool } == [false, false])
    }

    @Test func showPrintsEveryField() throws {
        _ = try sandbox.ok("add", "Buy milk", "--due", "2024-05-01")
        _ = try sandbox.ok("done", "1")
        let shown = try sandbox.ok("show", "1")
        #expect(
            shown.hasPrefix(
                "id:        1\nname:      Buy milk\ndeadline:  2024-05-01\ndone:      yes\npriority:  none\n"
                    + "tags:      none\nnote:      none\ncreated:   20"), "\(shown)")
        #expect(shown.contains("\ncompleted: 20") && shown.contains("Z\nrepeats:   no\n"), "\(shown)")
        #expect(try todo(1)["done"] as? Bool == true)
        let missing = try sandbox.todo("show", "9")
        #expect(missing.status == 1)
        #expect(missing.stderr.hasPrefix("error: no todo with id 9"))
    }

    @Test func searchIgnoresCaseInEveryScript() throws {
        for name in ["Buy MILK", "Éclair au café", "e\u{301}clair decomposed", "牛乳を買う", "Pay rent"] {
            _ = try sandbox.ok("add", name)
        }
        func names(_ text: String) throws -> [String] {
            try sandbox.listJSON(["--search", text]).compactMap { $0["name"] as? String }
        }
        #expect(try names("milk") == ["Buy MILK"])
        #expect(try names("ÉCLAIR") == ["Éclair au café", "e\u{301}clair decomposed"])
        #expect(try names("CAFÉ") == ["Éclair au café"])
        #expect(try names("牛乳") == ["牛乳を買う"])
        #expect(try names("nothing like it") == [])
        #expect(try names("%") == [], "the text is matched literally, not as a LIKE pattern")
    }

    @Test func everySearchTermMustMatch() throws {
        for name in ["Buy milk @town", "Buy oat milk @home", "Post letter @town"] { _ = try sandbox.ok("add", name) }
        func names(_ command: String, _ terms: String...) throws -> [String] {
            let output = try sandbox.ok(
                [command] + terms.flatMap { ["--search", $0] } + (command == "list" ? ["--json"] : []))
            let todos = try parseJSON(output, as: [[String: Any]].self, "todo \(command)")
            return todos.compactMap { $0["name"] as? String }
        }
        for command in ["list", "export"] {
            #expect(try names(command, "@town", "MILK") == ["Buy milk @town"], "\(command)")
            #expect(try names(command, "milk", "@town") == ["Buy milk @town"], "\(command)")
            #expect(try names(command, "@town") == ["Buy milk @town", "Post letter @town"], "\(command)")
            #expect(try names(command, "@town", "nothing") == [], "\(command)")
        }
        // watch takes it as list does, so its help and manual say it.
        #expect(try sandbox.ok("watch", "--help").contains("every text must match"))
        let empty = try sandbox.todo("list", "--search", "milk", "--search", "")
        #expect(empty.status == 2 && empty.stderr.hasPrefix("error: '--search' needs some text"))
    }

    @Test func limitAndOffsetPageThroughTheList() throws {
        for index in 1...7 { _ = try sandbox.ok("add", "t\(index)") }
        func ids(_ arguments: String...) throws -> [Int] {
            try sandbox.listJSON(arguments).compactMap { $0["id"] as? Int }
        }
        #expect(try ids("--limit", "3") == [1, 2, 3])
        #expect(try ids("--limit", "3", "--offset", "3") == [4, 5, 6])
        #expect(try ids("--offset", "6") == [7])
        #expect(try ids("--limit", "0") == [])
        #expect(try ids("--undone", "--search", "t", "--limit", "2", "--offset", "1") == [2, 3])
    }

    @Test func newUsageErrorsExit2AndChangeNothing() throws {
        _ = try sandbox.ok("add", "a")
        let before = sandbox.fileState()
        for arguments in [
            ["edit", "1"], ["edit", "1", "--due", "2024-01-01", "--no-due"], ["edit", "1", "--name", " "],
            ["edit"], ["edit", "x", "--name", "y"], ["edit", "--name", "y"],
            ["edit", "1", "--due", "someday"], ["show"], ["show", "1", "2"], ["undone"],
            ["list", "--search"], ["list", "--search", ""], ["list", "--offset", "x"]
        ] {
            let result = try sandbox.todo(arguments)
            #expect(result.status == 2, "todo \(arguments)")
            #expect(result.stderrLines.first?.hasPrefix("error: ") == true, "todo \(arguments): \(result.stderr)")
            #expect(result.stderrLines.count <= 2)
        }
        let missing = try sandbox.todo("edit", "5", "--name", "x")
        #expect(missing.status == 1)
        #expect(sandbox.fileState() == before)
    }
}
