import Foundation
import TestSupport
import Testing

/// `todo watch --outline --by ...` (issue 26): the outline, then each change with its group;
/// its JSON lines rebuild `todo list --by ... --json` exactly, group rows included.
@Suite(.timed) struct WatchOutlineTests {
    let sandbox = CLISandbox()

    private func startWatch(_ arguments: String...) throws -> RunningProcess {
        try RunningProcess(ProcessRunner.todoBinary, ["watch"] + arguments, environment: ["TODO_DB": sandbox.database])
    }

    /// A row as a comparable string: `group:Title`, or every field of the todo that the list shows.
    private static func row(group: String, todo: [String: Any]?) -> String {
        guard let todo else { return "group:\(group)" }
        let fields = ["id", "name", "done", "priority", "tags"].map { "\(todo[$0] ?? "")" }
        return (fields + [group]).joined(separator: "|")
    }

    /// The outline's rows as `todo list --by <grouping> --json` gives them: each group, then its todos.
    private func listedRows(_ grouping: String) throws -> [String] {
        let groups = try parseJSON(
            try sandbox.ok("list", "--by", grouping, "--json"), as: [[String: Any]].self, "list --by --json")
        return try groups.flatMap { group in
            let title = group["title"] as? String ?? ""
            return [Self.row(group: title, todo: nil)]
                + (try field(group, "items", as: [[String: Any]].self)).map { Self.row(group: title, todo: $0) }
        }
    }

    @Test func textLinesSayWhichGroupEachChangeIsIn() throws {
        _ = try sandbox.ok("add", "Call mom", "+family")
        _ = try sandbox.ok("add", "Tax", "--priority", "low")
        let watch = try startWatch("--outline", "--by", "tag")
        for expected in ["+family (1)", "└─ 1              Call mom +family", "No tag (1)", "└─ 2              (L) Tax"]
        {
            #expect(watch.nextLine() == expected)
        }
        #expect(watch.nextLine()?.hasPrefix("Watching") == true)
        _ = try sandbox.ok("edit", "2", "--tag", "+family")
        #expect(watch.nextLine() == "- 2  Tax  (No tag)")
        #expect(watch.nextLine() == "+ 2  Tax  (+family)", "a tag added: it joins the group")
        _ = try sandbox.ok("edit", "1", "--name", "Call mum")
        #expect(watch.nextLine() == "~ 1  Call mum  (+family)")
        #expect(watch.interrupt() == 130)

        let byPriority = try startWatch("--by", "priority")
        for _ in 0..<5 { _ = byPriority.nextLine() }  // Low (1), Tax, No priority (1), Call mum, Watching
        _ = try sandbox.ok("edit", "1", "--priority", "high")
        #expect(byPriority.nextLine() == "→ 1  Call mum  (High)", "a new priority: it moves to its group")
        #expect(byPriority.interrupt() == 130)
    }

    /// Random adds, deletes and edits of priorities, tags and done: after
    /// each, the changes applied to the rows so far (UIKit batch-update order) give the rows of
    /// `todo list --by ... --json`, group rows included.
    @Test(arguments: ["tag", "priority"])
    func jsonChangesRebuildTheOutline(grouping: String) throws {
        for index in 1...4 { _ = try sandbox.ok("add", "t\(index)", index % 2 == 0 ? "+a" : "@b") }
        let watch = try startWatch("--by", grouping, "--json")
        let first = try parseJSON(try #require(watch.nextLine()), as: [String: Any].self, "first line")
        var rows = try field(first, "groups", as: [[String: Any]].self).flatMap { group in
            let title = group["title"] as? String ?? ""
            return [Self.row(group: title, todo: nil)]
                + (try field(group, "items", as: [[String: Any]].self)).map { Self.row(group: title, todo: $0) }
        }
        #expect(rows == (try listedRows(grouping)))
        let seed = TestSeed.make("watch outline \(grouping)")
        var generator = SeededGenerator(seed: seed)
        for step in 0..<16 {
            let before = try listedRows(grouping)
            let id = String(Int.random(in: 1...6, using: &generator))
            let commands: [[String]] = [
                ["edit", id, "--tag", ["+a", "@b", "+c"][Int.random(in: 0..<3, using: &generator)]],
                ["edit", id, "--untag", ["a", "b", "c"][Int.random(in: 0..<3, using: &generator)]],
                [
                    "edit", id, "--priority",
                    ["high", "medium", "low", "none", "3"][Int.random(in: 0..<5, using: &generator)]
                ],
                ["add", "n\(step)", "+c", "--priority", "medium"], ["rm", "--yes", id], ["done", id]
            ]
            _ = try sandbox.todo(commands[Int.random(in: 0..<commands.count, using: &generator)])
            let expected = try listedRows(grouping)
            guard expected != before else { continue }
            let line = try parseJSON(try #require(watch.nextLine()), as: [String: Any].self, "a change line")
            let changes = try field(line, "changes", as: [[String: Any]].self)
            var list = rows
            let removals = changes.filter { ["delete", "move"].contains($0["type"] as? String) }.compactMap {
                $0["from"] as? Int
            }
            for index in removals.sorted(by: >) { list.remove(at: index) }
            let additions = changes.filter { ["insert", "move"].contains($0["type"] as? String) }
            for change in additions.sorted(by: { ($0["to"] as? Int ?? 0) < ($1["to"] as? Int ?? 0) }) {
                let row = Self.row(group: change["group"] as? String ?? "", todo: change["todo"] as? [String: Any])
                list.insert(row, at: change["to"] as? Int ?? 0)
            }
            for change in changes where change["type"] as? String == "update" {
                list[change["to"] as? Int ?? 0] = Self.row(
                    group: change["group"] as? String ?? "", todo: change["todo"] as? [String: Any])
            }
            #expect(list == expected, "seed \(seed) step \(step): \(changes)")
            rows = expected
        }
        #expect(watch.interrupt() == 130)
    }
}

/// `todo watch --by list` (issue 35): a list renamed by another program re-titles its group at
/// once, and the changes after it name the new title.
extension WatchOutlineTests {
    private func sqlite(_ sql: String) throws {
        let shell = try ProcessRunner.run("sqlite3", [sandbox.database, sql])
        #expect(shell.status == 0, "sqlite3 \(sql): \(shell.stderr)")
    }

    @Test func aListRenamedByAnotherProgramIsRetitledLive() throws {
        _ = try sandbox.ok("lists", "new", "Groceries")
        _ = try sandbox.ok("add", "Eggs", "--list", "Groceries")
        _ = try sandbox.ok("add", "Buy milk")
        let watch = try startWatch("--by", "list")
        for expected in ["Todos (1)", "└─ 2              Buy milk", "Groceries (1)", "└─ 1              Eggs"] {
            #expect(watch.nextLine() == expected)
        }
        #expect(watch.nextLine()?.hasPrefix("Watching") == true)
        try sqlite("UPDATE lists SET name = 'Shopping' WHERE id = 2")
        #expect(watch.nextLine() == "~ list Groceries → Shopping")
        // A colour changes no title: nothing is printed for it, and the next line is the edit's.
        try sqlite("UPDATE lists SET color = '#2E7D32' WHERE id = 2")
        try sqlite("UPDATE todos SET name = 'Brown eggs' WHERE id = 1")
        #expect(watch.nextLine() == "~ 1  Brown eggs  (Shopping)")
        #expect(watch.interrupt() == 130)

        // With --json: an update of the group row, where it is, with its new title.
        let json = try startWatch("--by", "list", "--json")
        #expect(json.nextLine()?.hasPrefix("{\"groups\": [{\"title\": \"Todos\"") == true)
        try sqlite("UPDATE lists SET name = 'Food' WHERE id = 2")
        #expect(
            json.nextLine() == "{\"changes\": [{\"type\": \"update\", \"group\": \"Food\", \"from\": 2, \"to\": 2}]}")
        #expect(json.interrupt() == 130)
    }
}
