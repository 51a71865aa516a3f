import TestSupport
import Testing
import TodoObservation
import TodoSnapshot
import TodoStore

@testable import todo

/// `todo ui --by ...` (issue 26): the ui's outline, patched change by change, holds what the
/// snapshot builder (what `todo list --outline --by` prints) builds from scratch, under every
/// grouping; every line's row id leads back to that line; and the keys work on member rows.
@Suite(.timed) struct UIGroupingTests {
    static let today = CalendarDate(year: 2024, month: 5, day: 1)!
    static let groupings: [(String, TodoGrouping<Todo>)] = [
        ("done", .byDoneState), ("priority", .byPriority), ("tag", .byTag),
        ("due", .byDeadline(today: today, endOfWeek: today.adding(days: 4) ?? today))
    ]

    /// The outline as lines: `# title` for a group row, the todo's id for a todo row.
    private static func outlineLines(_ list: UIList) -> [String] {
        (list.outlineHeaderIndex + 1..<list.count).map { index in
            switch list.entry(at: index) {
            case .group(let group): "# \(group.title)"
            case .todo(let todo, _), .member(let todo, _): "\(todo.id)"
            case .sectionHeader: "?"
            }
        }
    }

    /// The same lines from the snapshot builder's outline of `todos` (every group expanded).
    private static func builtLines(_ todos: [Todo], _ grouping: TodoGrouping<Todo>) -> [String] {
        let snapshots = TodoSnapshotBuilder(grouping: grouping).build(todos)
        return snapshots.groups.flatMap { group in
            ["# \(group.title)"] + snapshots.records(in: group).map { "\($0.id)" }
        }
    }

    private static func randomTodo(_ id: Int64, _ random: inout SeededGenerator) -> Todo {
        let tags = ["+work", "@phone", "+Home", "+work"]
        return Todo(
            id: id,
            TodoFields(
                name: "todo \(id)",
                deadline: Bool.random(using: &random)
                    ? today.adding(days: Int.random(in: -3...9, using: &random)) : nil,
                isDone: Int.random(in: 0..<4, using: &random) == 0,
                priority: TodoPriority(rawValue: Int.random(in: 0...9, using: &random)) ?? .none,
                tags: TodoTags(
                    (0..<Int.random(in: 0...2, using: &random)).compactMap { _ in
                        TodoTag(tags[Int.random(in: 0..<tags.count, using: &random)])
                    })))
    }

    private static func results(_ todos: [Todo]) -> TodoResultsSnapshot {
        TodoResultsSnapshot(
            order: .due, todos: todos.sorted { TodoFetchRequest.Order.due.areInIncreasingOrder($0, $1) })
    }

    @Test func aPatchedListHoldsWhatTheBuilderBuildsUnderEveryGrouping() {
        let seed = TestSeed.make("ui grouping")
        var random = SeededGenerator(seed: seed)
        for (name, grouping) in Self.groupings {
            var todos = (1...Int64(12)).map { Self.randomTodo($0, &random) }
            var list = UIList(Self.results(todos), order: .due, grouping: grouping)
            #expect(Self.outlineLines(list) == Self.builtLines(Self.results(todos).items, grouping), "\(name)")
            var nextID: Int64 = 13
            for step in 0..<80 {
                var changed: [Int64] = []
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0 where !todos.isEmpty:
                        let removed = todos.remove(at: Int.random(in: 0..<todos.count, using: &random))
                        changed.append(removed.id)
                    case 1 where !todos.isEmpty:
                        let index = Int.random(in: 0..<todos.count, using: &random)
                        todos[index] = Self.randomTodo(todos[index].id, &random)
                        changed.append(todos[index].id)
                    default:
                        todos.append(Self.randomTodo(nextID, &random))
                        changed.append(nextID)
                        nextID += 1
                    }
                }
                let results = Self.results(todos)
                list.apply(results, changed: Array(Set(changed)))
                #expect(
                    Self.outlineLines(list) == Self.builtLines(results.items, grouping),
                    "\(name), seed \(seed), step \(step)")
                for index in 0..<list.count {
                    guard let id = list.id(at: index) else { continue }
                    #expect(list.index(of: id) == index, "\(name), seed \(seed), step \(step): line \(index), \(id)")
                }
            }
        }
    }

    @Test func byTagATodoIsUnderEachTagAndTheKeysWorkOnItsRows() {
        let todos = [
            Todo(
                id: 1,
                TodoFields(name: "Call mom", tags: TodoTags([TodoTag("+family"), TodoTag("@phone")].compactMap { $0 }))),
            Todo(id: 2, TodoFields(name: "Tax", tags: TodoTags([TodoTag("+Family")].compactMap { $0 }))),
            Todo(id: 3, TodoFields(name: "Fix bike"))
        ]
        var list = UIList(Self.results(todos), order: .due, grouping: .byTag, sections: .outline)
        #expect(Self.outlineLines(list) == ["# +family", "1", "2", "# @phone", "1", "# No tag", "3"])
        var state = UIState(order: .due, searches: [])
        state.place(at: 5, in: list)  // Call mom, under @phone
        let phone = TodoGroup(rank: 0, key: "phone", title: "@phone")
        #expect(state.cursorID == .member(1, phone.id))
        let context = UIReducer.Context(page: 10, today: Self.today)
        #expect(UIReducer.reduce(&state, .character(" "), list: &list, context: context) == [.setDone(todos[0], true)])
        _ = UIReducer.reduce(&state, .left, list: &list, context: context)
        #expect(state.cursorID == .group(phone.id), "left goes up to the group the row is under")
        _ = UIReducer.reduce(&state, .left, list: &list, context: context)
        #expect(
            !list.isExpanded(phone) && Self.outlineLines(list) == ["# +family", "1", "2", "# @phone", "# No tag", "3"])
        // From the outline to "All" and back, the cursor stays on its todo.
        state.place(at: 2, in: list)
        state.show(.both, in: &list)
        #expect(state.cursorID == .member(1, TodoGroup(rank: 0, key: "family", title: "+family").id))
    }
}
