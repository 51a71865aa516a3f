import TestSupport
import Testing
import TodoObservation
import TodoSnapshot
import TodoStore

@testable import todo

/// The pure parts of `todo ui`'s lists (issue 35): what `l` and `m` mean to the reducer, a
/// grouping by list rebuilt after a rename (re-titled in place), and rows naming their list
/// within the width.
@Suite(.timed) struct UIListsUnitTests {
    static let today = CalendarDate(year: 2024, month: 5, day: 1)!
    static let lists = [
        TodoList(id: 1, name: "Todos", position: 1, isDefault: true), TodoList(id: 2, name: "Groceries", position: 2)
    ]
    /// Buy milk (1) in Todos, Eggs (2) in Groceries.
    static let todos = [
        Todo(id: 1, TodoFields(name: "Buy milk"), listID: 1), Todo(id: 2, TodoFields(name: "Eggs"), listID: 2)
    ]

    private func press(_ keys: [Key], _ state: inout UIState, _ list: inout UIList, lists: [TodoList] = lists)
        -> [UIEffect]
    {
        var effects: [UIEffect] = []
        for key in keys {
            effects += UIReducer.reduce(
                &state, key, list: &list, context: .init(page: 10, today: Self.today, lists: lists))
        }
        return effects
    }

    private func list(_ lists: [TodoList] = lists) -> UIList {
        UIList(TodoResultsSnapshot(order: .due, todos: Self.todos), order: .due, grouping: .byList(lists))
    }

    @Test func lCyclesEveryListThenEachList() {
        var list = list()
        var state = UIState(order: .due, searches: [])
        state.place(at: 1, in: list)
        #expect(press([.character("l")], &state, &list) == [.refetch(announcing: .listShown)])
        #expect(state.lists == [1])
        _ = press([.character("l")], &state, &list)
        #expect(state.lists == [2])
        _ = press([.character("l")], &state, &list)
        #expect(state.lists == [])
        // From several lists (`--list` twice): every list.
        #expect(UIState.nextLists(after: [1, 2], in: Self.lists) == [])
        // A list gone since: every list.
        #expect(UIState.nextLists(after: [9], in: Self.lists) == [])
        // One list: nothing to switch to, and the footer says how to make another.
        #expect(press([.character("l")], &state, &list, lists: [Self.lists[0]]) == [])
        #expect(state.message == "Only one list, 'Todos': 'todo lists new NAME' makes another")
    }

    @Test func mAsksForAListByNameAndAsksAgainForAnUnknownOne() {
        var list = list()
        var state = UIState(order: .due, searches: [])
        state.place(at: 1, in: list)
        #expect(state.cursorID == .todo(1, .all))
        #expect(press([.character("m")], &state, &list) == [])
        guard case .prompt(let prompt) = state.mode else {
            Issue.record("m opened no prompt")
            return
        }
        #expect(prompt.wideLabel == "Move to list (Todos, Groceries): ")
        #expect(press(Array("shops").map { .character($0) } + [.enter], &state, &list) == [])
        #expect(state.message == "no list named 'shops': fix it, or Esc cancels" && state.messageIsError)
        guard case .prompt = state.mode else {
            Issue.record("an unknown list closed the prompt")
            return
        }
        // The store's rule for a name: case does not matter.
        _ = press([.escape, .character("m")], &state, &list)
        let typed: [Key] = Array("GROCERIES").map { .character($0) } + [.enter]
        #expect(press(typed, &state, &list) == [.move(Self.todos[0], to: Self.lists[1])])
        // Its own list: no write.
        _ = press([.character("m")] + Array("todos").map { .character($0) } + [.enter], &state, &list)
        #expect(state.message == "Already in Todos")
    }

    @Test func tabCompletesTheMovePromptsListNameAndGoesRoundTheLists() {
        let lists = Self.lists + [TodoList(id: 3, name: "Garden", position: 3)]
        var list = list(lists)
        var state = UIState(order: .due, searches: [])
        state.place(at: 1, in: list)
        _ = press([.character("m"), .character("g"), .tab], &state, &list, lists: lists)
        guard case .prompt(let prompt) = state.mode else {
            Issue.record("m opened no prompt")
            return
        }
        #expect(prompt.text == "Groceries")
        _ = press([.tab], &state, &list, lists: lists)
        guard case .prompt(let next) = state.mode else { return }
        #expect(next.text == "Garden", "the next list but the todo's own")
        #expect(UIReducer.completedListName("Garden", lists: lists, except: 1) == "Groceries")
        #expect(UIReducer.completedListName("GAR", lists: lists, except: 1) == "Garden")
        #expect(UIReducer.completedListName("x", lists: lists, except: 1) == "x")
        #expect(press([.enter], &state, &list, lists: lists) == [.move(Self.todos[0], to: lists[2])])
    }

    @Test func aRenamedListsGroupIsRetitledInPlaceKeepingItsState() {
        var list = list()
        // Keyed by position and id (TodoGrouping.byList), not by the name.
        let groceries = TodoGroupID(rank: 0, key: "0000000000000000002:0000000000000000002")
        guard let group = list.group(ofRow: .group(groceries)) else {
            Issue.record("no Groceries group")
            return
        }
        list.setExpanded(group, false)
        let renamed = [Self.lists[0], TodoList(id: 2, name: "Shopping", position: 2)]
        list.regroup(by: .byList(renamed))
        #expect(list.group(ofRow: .group(groceries))?.title == "Shopping")
        #expect(list.collapsedGroups == [groceries])
        // A todo joining it later is placed under the new title too.
        #expect(list.group(ofTodo: 2)?.title == "Shopping")
    }

    @Test(arguments: [40, 100])
    func rowsNameTheirListWithinTheWidth(columns: Int) {
        let list = list()
        var state = UIState(order: .due, searches: [])
        state.place(at: 1, in: list)
        var renderer = UIRenderer(style: TextStyle.resolve(option: "never", stdoutIsTerminal: false), today: Self.today)
        renderer.configure(columns: columns, maxID: 2)
        renderer.listNames = [1: "Todos", 2: "Groceries\u{1B}[31m"]
        renderer.outlineNamesLists = false
        let frame = renderer.frame(list: list, state: state, rows: 12)
        #expect(frame.allSatisfy { DisplayWidth.of($0) <= columns - 1 }, "\(frame)")
        // In "All", after the name, made safe (cut from the end where the width ends); not in
        // the outline, whose groups are the lists.
        #expect(!frame.contains { $0.contains("\u{1B}") })
        let eggs = frame.first { $0.contains("Eggs") } ?? ""
        #expect(eggs.contains(columns == 40 ? "Eggs  in Grocer" : "Eggs  in Groceries^[[31m"), "\(frame)")
        #expect(frame.filter { $0.contains("Eggs") }.count == 2)
        #expect(frame.filter { $0.contains("  in ") }.count == 2, "\(frame)")
    }
}
