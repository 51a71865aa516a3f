import Foundation
import TestSupport
import Testing

/// Issue 37, point 5, in `todo add`: the attribute words taskwarrior and todo.txt users type by
/// habit (`due:`, `pri:`, `project:`, `t:`, `rec:`) set what their options set and leave the name;
/// a word that looks like an attribute of no key is refused, never kept silently.
@Suite(.timed) struct QuickCaptureCLITests {
    let sandbox = CLISandbox()

    @Test func attributeWordsSetTheirFieldsAndLeaveTheName() throws {
        _ = try sandbox.ok(
            "add", "Send", "the", "report", "due:2030-05-10", "pri:H", "project:Work.ClientA", "+urgent",
            "t:2030-05-01", "@desk")
        _ = try sandbox.ok("add", "Water", "plants", "rec:+1w", "due:2030-05-06", "priority:low", "pro:Home")
        let todos = try sandbox.listJSON("--sort", "name")
        let report = try #require(todos.first { $0["name"] as? String == "Send the report" }, "\(todos)")
        #expect(report["deadline"] as? String == "2030-05-10")
        #expect(report["priority"] as? Int == 1)
        #expect(report["project"] as? String == "Work.ClientA")
        #expect(report["start_date"] as? String == "2030-05-01")
        #expect(report["tags"] as? [String] == ["+urgent", "@desk"])
        let plants = try #require(todos.first { $0["name"] as? String == "Water plants" }, "\(todos)")
        #expect(plants["repeat_rule"] as? String == "FREQ=WEEKLY")
        #expect(plants["priority"] as? Int == 9 || plants["priority"] as? Int == 6, "\(plants)")
        #expect(plants["project"] as? String == "Home")
    }

    @Test func wordsThatAreNoAttributeStayInTheName() throws {
        _ = try sandbox.ok("add", "Read", "https://example.org/a:b", "at", "10:30", "Note:")
        _ = try sandbox.ok("add", "Reply re:budget")  // quoted with the rest of the name
        let names = try sandbox.listJSON().map { $0["name"] as? String ?? "" }
        #expect(names == ["Read https://example.org/a:b at 10:30 Note:", "Reply re:budget"])
    }

    @Test func aWordLikeAnAttributeOfNoKeyIsRefusedAndAddsNothing() throws {
        let cases: [([String], String)] = [
            (["Reply", "re:budget"], "error: 're:budget' looks like an attribute, but todo knows no 're:'"),
            (["x", "due:tomorow"], "error: 'tomorow' is not a date"),
            (["x", "pri:urgent"], "error: 'pri:urgent' is not a priority"),
            (["x", "project:Work..A"], "error: 'project:Work..A' is not a project"),
            (["x", "due:fri", "due:mon"], "error: 'due:mon' gives the deadline again"),
            (["x", "due:fri", "--due", "mon"], "error: 'due:' and '--due' both give the deadline"),
            (["x", "pri:H", "--priority", "low"], "error: 'pri:' and '--priority' both give the priority")
        ]
        for (words, message) in cases {
            let result = try sandbox.todo(["add"] + words)
            #expect(result.status == 2, "\(words)")
            #expect(result.stderr.hasPrefix(message), "\(words): \(result.stderr)")
        }
        let hint = try sandbox.todo("add", "Reply", "re:budget").stderrLines
        #expect(hint.count == 2 && hint[1].contains("due:, pri:, project:, t: or rec:"), "\(hint)")
        #expect(try sandbox.listJSON().isEmpty)
    }
}
