import Foundation
import TestSupport
import Testing

/// The four commands of the README's first example (add, list, done, rm), end to end, with
/// their JSON shapes (`{"id", "name", "deadline", "done"}` objects).
@Suite(.timed) struct CardCommandsTests {
    let sandbox = CLISandbox()

    @Test func addPrintsTheIdAndJSONPrintsTheObject() throws {
        #expect(try sandbox.ok("add", "Buy milk", "--due", "2024-05-01") == "1\n")
        let json = try sandbox.ok("add", "Pay rent", "--json")
        let object = try parseJSON(json, as: [String: Any].self, "todo add --json")
        #expect(object["id"] as? Int == 2)
        #expect(object["name"] as? String == "Pay rent")
        #expect(object["deadline"] is NSNull)
        #expect(object["done"] as? Bool == false)
    }

    @Test func listJSONIsAnArrayOfTodoObjectsInDueOrder() throws {
        _ = try sandbox.ok("add", "Buy milk", "--due", "2024-05-01")
        _ = try sandbox.ok("add", "Call mum")
        _ = try sandbox.ok("add", "Pay rent", "--due", "2024/04/30")
        let list = try sandbox.listJSON()
        #expect(list.map { $0["id"] as? Int } == [3, 1, 2])
        #expect(list.map { $0["deadline"] as? String } == ["2024-04-30", "2024-05-01", nil])
        #expect(list.map { $0["done"] as? Bool } == [false, false, false])
        #expect(
            try sandbox.ok("list", "--json").hasPrefix(
                "[\n  {\"id\": 3, \"name\": \"Pay rent\", \"deadline\": \"2024-04-30\", \"done\": false, \"priority\": 0, "
                    + "\"tags\": [], \"note\": null, \"created\": \"20"))
    }

    @Test func anEmptyListIsAnEmptyArray() throws {
        #expect(try sandbox.ok("list", "--json") == "[]\n")
        let empty = try sandbox.todo("list")
        #expect(empty.status == 0 && empty.stdout.isEmpty && empty.stderr == "No todos.\n", "a message, not a row")
    }

    @Test func textListShowsIdDoneMarkDeadlineAndName() throws {
        _ = try sandbox.ok("add", "Buy milk", "--due", "2024-05-01")
        _ = try sandbox.ok("add", "Call mum")
        _ = try sandbox.ok("done", "2")
        // Columns: id, done mark, deadline, name. On a pipe no "overdue" hint: the text must not
        // change from one day to the next (HumanDatesTests checks the hints on a terminal).
        #expect(try sandbox.ok("list") == "  1  [ ]  2024-05-01  Buy milk\n  2  [x]              Call mum\n")
    }

    @Test func doneMarksEveryIdAndRmDeletesThem() throws {
        for name in ["a", "b", "c"] { _ = try sandbox.ok("add", name) }
        #expect(try sandbox.ok("done", "1", "3") == "✓ 1  a\n✓ 3  c\n")
        #expect(try sandbox.listJSON().map { $0["done"] as? Bool } == [true, false, true])
        #expect(try sandbox.ok("rm", "1", "2") == "- 1  a\n- 2  b\n")
        #expect(try sandbox.listJSON().map { $0["id"] as? Int } == [3])
    }

    @Test func idsAreNeverReused() throws {
        _ = try sandbox.ok("add", "a")
        _ = try sandbox.ok("add", "b")
        _ = try sandbox.ok("rm", "2")
        #expect(try sandbox.ok("add", "c") == "3\n")
    }

    @Test func optionsMayComeBeforeOrAfterTheCommand() throws {
        let other = sandbox.folder.file("other.sqlite")
        _ = try sandbox.ok("--db", other, "add", "x")
        _ = try sandbox.ok("add", "y", "--db=\(other)")
        #expect(try sandbox.ok("list", "--json", "--db", other).contains("\"y\""))
        #expect(try sandbox.ok("list", "--json") == "[]\n")
    }

    @Test func doubleDashLetsANameStartWithADash() throws {
        _ = try sandbox.ok("add", "--", "--verbose flag")
        #expect(try sandbox.listJSON().first?["name"] as? String == "--verbose flag")
    }

    @Test func namesAreStoredExactlyAndShownSafely() throws {
        let tricky = "Robert'); DROP TABLE todos;-- \u{1B}[2J 日本語"
        _ = try sandbox.ok("add", tricky)
        #expect(try sandbox.listJSON().first?["name"] as? String == tricky)
        let text = try sandbox.ok("list")
        #expect(!text.contains("\u{1B}"))
        #expect(text.contains("^[[2J"))
    }
}
