import Foundation
import TestSupport
import Testing

/// `todo list --outline` and `--sort`: the sample app's outline section and Sort menu.
@Suite(.timed) struct OutlineAndSortTests {
    let sandbox = CLISandbox()

    private func seed() throws {
        _ = try sandbox.ok("add", "milk", "--due", "2024-05-01")  // 1
        _ = try sandbox.ok("add", "Apples")  // 2
        _ = try sandbox.ok("add", "rent", "--due", "2024-04-30")  // 3
        _ = try sandbox.ok("add", "bread", "--due", "2024-05-01")  // 4
        _ = try sandbox.ok("done", "3")
    }

    private func ids(_ arguments: String...) throws -> [Int] {
        try sandbox.listJSON(arguments).compactMap { $0["id"] as? Int }
    }

    @Test func sortOrdersAreTheDocumentedOnes() throws {
        try seed()
        #expect(try ids() == [3, 1, 4, 2])
        #expect(try ids("--sort", "due") == [3, 1, 4, 2])
        #expect(try ids("--sort", "name") == [2, 4, 1, 3])
        #expect(try ids("--sort", "status") == [1, 4, 2, 3])
    }

    @Test func outlineJSONHasBothGroupsInOrderWithTodosInFetchOrder() throws {
        try seed()
        let output = try sandbox.ok("list", "--outline", "--json", "--sort", "name")
        let groups = try parseJSON(output, as: [[String: Any]].self, "todo list --outline --json")
        #expect(groups.map { $0["title"] as? String } == ["Undone", "Done"])
        let items = try groups.map { try field($0, "items", as: [[String: Any]].self).compactMap { $0["id"] as? Int } }
        #expect(items == [[2, 4, 1], [3]])
    }

    @Test func bothGroupsAreShownEvenWhenEmpty() throws {
        let empty = try sandbox.ok("list", "--outline", "--json")
        let groups = try parseJSON(empty, as: [[String: Any]].self, "todo list --outline --json")
        #expect(groups.map { $0["title"] as? String } == ["Undone", "Done"])
        #expect(groups.map { ($0["items"] as? [Any])?.count } == [0, 0])
        #expect(try sandbox.ok("list", "--outline") == "Undone (0)\nDone (0)\n")
        _ = try sandbox.ok("add", "x")
        #expect(try sandbox.ok("list", "--outline", "--done") == "Undone (0)\nDone (0)\n")
    }

    @Test func outlineTextIsATreeUnderCountedHeaders() throws {
        try seed()
        let expected = """
            Undone (3)
            ├─ 1  2024-05-01  milk
            ├─ 4  2024-05-01  bread
            └─ 2              Apples
            Done (1)
            └─ 3  2024-04-30  rent

            """
        #expect(try sandbox.ok("list", "--outline") == expected)
    }

    // MARK: --by priority, tag, due

    @Test func outlineByTagShowsATodoUnderEachTagAndNoTagLast() throws {
        _ = try sandbox.ok("add", "Call mom", "+family", "@phone")  // 1
        _ = try sandbox.ok("add", "Tax", "+Family", "--due", "2024-05-01")  // 2
        _ = try sandbox.ok("add", "Fix bike")  // 3
        let expected = """
            +Family (2)
            ├─ 2  2024-05-01  Tax +Family
            └─ 1              Call mom +family @phone
            @phone (1)
            └─ 1              Call mom +family @phone
            No tag (1)
            └─ 3              Fix bike

            """
        #expect(try sandbox.ok("list", "--outline", "--by", "tag") == expected)
        #expect(try sandbox.ok("list", "--by", "tag") == expected, "--by implies --outline")
        let groups = try parseJSON(
            try sandbox.ok("list", "--by", "tag", "--json", "--tag", "phone"), as: [[String: Any]].self,
            "--by tag --json")
        #expect(groups.map { $0["title"] as? String } == ["+family", "@phone"], "filters first, then groups")
        // With nothing to show there is no group: the message a list gives (after the note
        // that no todo has the tag asked for).
        let none = try sandbox.todo(["list", "--by", "tag", "--tag", "nowhere"])
        #expect(
            none.status == 0 && none.stdout.isEmpty
                && none.stderr == "note: no todo has the tag +nowhere\nNo todos.\n")
    }

    @Test func outlineByPriorityIsByClassWithNoPriorityLast() throws {
        _ = try sandbox.ok("add", "a", "--priority", "low")  // 1
        _ = try sandbox.ok("add", "b")  // 2
        _ = try sandbox.ok("add", "c", "--priority", "2")  // 3
        _ = try sandbox.ok("add", "d", "--priority", "high")  // 4
        let groups = try parseJSON(
            try sandbox.ok("list", "--by", "priority", "--json", "--sort", "name"), as: [[String: Any]].self,
            "--by priority")
        #expect(groups.map { $0["title"] as? String } == ["High", "Low", "No priority"])
        let items = try groups.map { try field($0, "items", as: [[String: Any]].self).compactMap { $0["id"] as? Int } }
        #expect(items == [[3, 4], [1], [2]])
    }

    @Test func outlineByDueBucketsAroundToday() throws {
        _ = try sandbox.ok("add", "late", "--due", "2020-01-01")  // 1
        _ = try sandbox.ok("add", "now", "--due", "today")  // 2
        _ = try sandbox.ok("add", "next", "--due", "tomorrow")  // 3
        _ = try sandbox.ok("add", "far", "--due", "+60d")  // 4
        _ = try sandbox.ok("add", "whenever")  // 5
        _ = try sandbox.ok("add", "was late", "--due", "2020-01-02")  // 6
        _ = try sandbox.ok("done", "6")
        let groups = try parseJSON(
            try sandbox.ok("list", "--by", "due", "--json"), as: [[String: Any]].self, "--by due")
        #expect(
            groups.map { $0["title"] as? String } == ["Overdue", "Today", "Tomorrow", "Later", "Earlier", "No deadline"]
        )
        let items = try groups.map { try field($0, "items", as: [[String: Any]].self).compactMap { $0["id"] as? Int } }
        #expect(items == [[1], [2], [3], [4], [6], [5]])
    }

    @Test func anUnknownGroupingIsAUsageError() throws {
        let result = try sandbox.todo(["list", "--by", "colour"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("error: 'colour' is not a grouping"))
        #expect(result.stdout.isEmpty)
    }
}
