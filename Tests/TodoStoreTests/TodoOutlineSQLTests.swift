import Foundation
import SQLite
import TestSupport
import Testing

@testable import TodoStore

/// The subtask tree SQLite orders for `todo list` (``TodoFetchRequest/outlineSQL``) against the
/// rule itself (``TodoOutline``, over the same request's todos): random trees across lists, with
/// todos whose parent is filtered out, in another list or gone, in every order, with and without
/// filters, and (trigger dropped, as in a damaged file) loops of parents.
@Suite(.timed) struct TodoOutlineSQLTests {
    let folder = TemporaryFolder()

    @Test func sqliteOrdersTheTreeAsTheRuleDoes() throws {
        let seed = TestSeed.make("sqliteOrdersTheTreeAsTheRuleDoes")
        var random = SeededGenerator(seed: seed)
        for run in 0..<40 {
            let path = folder.file("outline-\(run).sqlite")
            let repository = try TodoRepository(path: path)
            let loops = run % 4 == 3
            let count = Int.random(in: 1...60, using: &random)
            try fill(repository, count: count, loops: loops, using: &random)
            for order in [TodoFetchRequest.Order.due, .name, .status, .priority] {
                var request = TodoFetchRequest(order: order)
                switch Int.random(in: 0..<4, using: &random) {
                case 0: request.filter = .undone
                case 1: request.searches = ["a"]
                case 2: request.priorities = [1...4]
                default: break
                }
                let rows = try repository.outline(request, withContext: false).rows
                let expected = try expectedRows(repository, request)
                #expect(
                    rows.map(Self.describe) == expected.map(Self.describe),
                    "seed \(seed), run \(run), \(order), \(count) todos\(loops ? " with loops" : "")")
            }
        }
    }

    /// `id@depth^parent` of a row.
    private static func describe(_ row: TodoOutline.Row) -> String {
        "\(row.todo.id)@\(row.depth)^\(row.parentID.map(String.init) ?? "-")"
    }

    /// The rule's tree of the request's todos; where a loop leaves todos without a top, those
    /// (and what is under them) come last, arranged by the rule alone, as the store promises.
    private func expectedRows(_ repository: TodoRepository, _ request: TodoFetchRequest) throws -> [TodoOutline.Row] {
        let todos = try repository.fetch(request)
        var byID: [Int64: Todo] = [:]
        for todo in todos { byID[todo.id] = todo }
        // A todo is placed when walking up its parents by the rule reaches a top.
        func isPlaced(_ todo: Todo) -> Bool {
            var current = todo
            for _ in 0...todos.count {
                guard let parent = TodoOutline.parent(of: current, among: { byID[$0] }) else { return true }
                current = parent
            }
            return false
        }
        let placed = todos.filter(isPlaced)
        let unplaced = todos.filter { !isPlaced($0) }
        return TodoOutline(placed).rows + TodoOutline(unplaced).rows
    }

    /// `count` todos in up to three lists, most with a parent among the others (any id, so that
    /// some parents are in another list and, with `loops`, some links close a loop).
    private func fill(
        _ repository: TodoRepository, count: Int, loops: Bool, using random: inout SeededGenerator
    ) throws {
        let connection = repository.connection
        try connection.execute("INSERT INTO lists (id, name, position) VALUES (2, 'Two', 2), (3, 'Three', 3)")
        if loops {
            try connection.execute("DROP TRIGGER todos_parent_no_cycle_on_insert")
            try connection.execute("DROP TRIGGER todos_parent_no_cycle_on_update")
        }
        let words = ["apple", "Bread", "cheese", "dates", "eggs", "Figs"]
        for id in 1...count {
            let deadline = Bool.random(using: &random) ? "2026-12-\(10 + Int.random(in: 0..<5, using: &random))" : nil
            let list = Int64(Int.random(in: 1...3, using: &random) == 3 ? Int.random(in: 2...3, using: &random) : 1)
            try connection.execute(
                "INSERT INTO todos (id, name, deadline, done, priority, list_id) VALUES (?, ?, ?, ?, ?, ?)",
                [
                    Int64(id), words[Int.random(in: 0..<words.count, using: &random)], deadline,
                    Int64(Int.random(in: 0..<4, using: &random) == 0 ? 1 : 0),
                    Int64(Int.random(in: 0...9, using: &random)),
                    list
                ])
        }
        // Parents: any todo, a newer one too (`todo edit --under` makes those); without loops
        // the schema refuses the links that would close one, with loops (its triggers dropped)
        // it takes every link, a todo's own id included.
        for id in 1...count where Int.random(in: 0..<3, using: &random) > 0 {
            let parent = Int64(Int.random(in: 1...count, using: &random))
            if !loops && Bool.random(using: &random) {
                // Into the parent's list now and then, else the rule leaves it on top.
                try connection.execute(
                    "UPDATE todos SET list_id = (SELECT list_id FROM todos WHERE id = ?) WHERE id = ?",
                    [parent, Int64(id)])
            }
            do {
                try connection.execute("UPDATE todos SET parent_id = ? WHERE id = ?", [parent, Int64(id)])
            } catch {
                #expect(!loops, "the schema refused a link with its triggers dropped: \(error)")
            }
        }
    }
}
