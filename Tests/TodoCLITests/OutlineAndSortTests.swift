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
}
