import TestSupport
import Testing
import TodoObservation
import TodoSnapshot
import TodoStore

@testable import todo

/// `todo ui` keeps only the todos' keys and reads the rows it shows by id (issue 38): its list,
/// patched batch by batch from a controller in `Rows.keys`, shows line for line what a list of
/// whole todos patched from a controller of whole todos shows (as `todo ui` did before), under
/// every grouping, with subtasks and without, through random changes by another connection; and
/// both hold the todos of a fresh fetch, in its order.
@Suite(.timed) struct UIKeysListTests {
    let folder = TemporaryFolder()
    static let today = CalendarDate(year: 2026, month: 12, day: 3)!

    final class Batches: FetchedResultsControllerDelegate {
        var received: [TodoKeyBatch] = []
        var whole: [FetchedResultsBatch] = []
        func controller(_ controller: FetchedResultsController, didChangeKeysWith batch: TodoKeyBatch) {
            received.append(batch)
        }
        func controller(_ controller: FetchedResultsController, didChangeContentWith batch: FetchedResultsBatch) {
            whole.append(batch)
        }
    }

    /// Every line: its row id and, for a todo, its name (the row read), or the group's title.
    static func lines(_ list: UIList) -> [String] {
        (0..<list.count).map { index in
            switch list.entry(at: index) {
            case .sectionHeader(let section): "== \(section)"
            case .group(let group): "# \(group.title) (\(list.count(of: group)))"
            case .todo(let todo, let section):
                "\(todo.id) \(section) \(todo.name) \(todo.isDone) d\(list.depth(ofTodo: todo.id))"
            case .member(let todo, let group): "\(todo.id) in \(group.title) \(todo.name)"
            }
        }
    }

    @Test(arguments: ["done", "priority", "tag", "due", "list", "project"])
    func aListOfKeysShowsWhatAListOfWholeTodosShows(by: String) throws {
        let seed = TestSeed.make("ui keys list \(by)")
        var random = SeededGenerator(seed: seed)
        let path = folder.file("keys-\(by).sqlite")
        let repository = try TodoRepository(path: path)
        let other = try TodoRepository(path: path)
        let home = try repository.createList(named: "Home")
        func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &random)] }
        func fields() -> TodoFields {
            TodoFields(
                name: pick(["milk", "Bread", "tax", "shed"]) + " \(Int.random(in: 0..<99, using: &random))",
                deadline: Bool.random(using: &random)
                    ? Self.today.adding(days: Int.random(in: -3...9, using: &random)) : nil,
                isDone: Int.random(in: 0..<4, using: &random) == 0,
                priority: TodoPriority(rawValue: pick([0, 1, 5, 9])) ?? .none,
                tags: TodoTags(
                    [TodoTag(pick(["+work", "@home", "+Work"]))].compactMap { $0 }.prefix(
                        Int.random(in: 0...1, using: &random))),
                project: Bool.random(using: &random) ? TodoProject(pick(["Work", "Home.Garden"])) : nil)
        }
        for _ in 0..<30 { try repository.add(fields()) }
        func grouping() throws -> TodoGrouping<Todo> {
            switch by {
            case "priority": .byPriority
            case "tag": .byTag
            case "due": .byDeadline(today: Self.today, endOfWeek: Self.today.adding(days: 3) ?? Self.today)
            case "list": .byList(try repository.lists())
            case "project": .byProject
            default: .byDoneState
            }
        }
        let extra: TodoKeyColumns.Extra = by == "tag" ? .tags : by == "project" ? .project : []
        let request = TodoFetchRequest(order: pick(TodoFetchRequest.Order.allCases))
        let controller = FetchedResultsController(
            repository: repository, fetchRequest: request, rows: .keys(TodoKeyColumns(extra: extra)))
        let batches = Batches()
        controller.delegate = batches
        try controller.performFetch()
        let rows = UIRowSource(repository: repository)
        var list = UIList(keys: controller.keyResults, tree: controller.keyTree, rows: rows, grouping: try grouping())
        let wholeController = FetchedResultsController(repository: repository, fetchRequest: request)
        wholeController.delegate = batches
        try wholeController.performFetch()
        var whole = UIList(
            wholeController.snapshot, order: request.order, grouping: try grouping(), tree: wholeController.tree)
        for step in 0..<80 {
            let todos = try repository.fetch()
            let todo = pick(todos)
            switch Int.random(in: 0..<7, using: &random) {
            case 0: try other.add(fields())
            case 1: try other.add(fields(), parent: todo.id)
            case 2: _ = try other.rename(id: todo.id, to: "renamed \(step)")
            case 3: _ = try other.setDone(!todo.isDone, ids: [todo.id])
            case 4: try other.moveSubtrees(ids: [todo.id], to: todo.listID == home.id ? TodoList.firstID : home.id)
            case 5: _ = try other.deleteSubtrees(ids: [todo.id])
            default:
                let new = fields()
                try other.update(id: todo.id) {
                    $0.deadline = new.deadline
                    $0.priority = new.priority
                    $0.tags = new.tags
                    $0.project = new.project
                }
            }
            try controller.processExternalChanges()
            try wholeController.processExternalChanges()
            for batch in batches.whole { whole.apply(batch) }
            batches.whole.removeAll()
            for batch in batches.received {
                rows.forget(batch.changed ?? [])
                if batch.changed == nil { rows.forgetAll() }
                list.apply(batch)
            }
            batches.received.removeAll()
            let fresh = try repository.fetch(request)
            #expect(Array(controller.keyResults.ids) == fresh.map(\.id), "seed \(seed), step \(step)")
            if by == "list" {
                list.regroup(by: try grouping())
                whole.regroup(by: try grouping())
            }
            #expect(Self.lines(list) == Self.lines(whole), "seed \(seed), step \(step), \(request.order)")
        }
    }

    /// The filter's list (issue 38): a narrowing's list filtered from the controller's list's
    /// groups shows what grouping the narrowed todos anew shows, under every grouping.
    @Test(arguments: ["done", "priority", "tag", "due", "project"])
    func aNarrowedListShowsWhatGroupingTheNarrowedTodosShows(by: String) throws {
        let seed = TestSeed.make("ui keys narrowed \(by)")
        var random = SeededGenerator(seed: seed)
        let repository = try TodoRepository(path: folder.file("narrowed-\(by).sqlite"))
        func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &random)] }
        for _ in 0..<80 {
            try repository.add(
                TodoFields(
                    name: pick(["milk", "Bread", "tax", "shed"]) + " \(Int.random(in: 0..<99, using: &random))",
                    deadline: Self.today.adding(days: Int.random(in: -3...9, using: &random)),
                    isDone: Bool.random(using: &random), priority: TodoPriority(rawValue: pick([0, 1, 5, 9])) ?? .none,
                    tags: TodoTags([TodoTag(pick(["+work", "@home", "+Work"]))].compactMap { $0 }),
                    project: Bool.random(using: &random) ? TodoProject(pick(["Work", "Home.Garden"])) : nil))
        }
        let grouping: TodoGrouping<Todo> =
            switch by {
            case "priority": .byPriority
            case "tag": .byTag
            case "due": .byDeadline(today: Self.today, endOfWeek: Self.today.adding(days: 3) ?? Self.today)
            case "project": .byProject
            default: .byDoneState
            }
        let extra: TodoKeyColumns.Extra = by == "tag" ? .tags : by == "project" ? .project : []
        let request = TodoFetchRequest(order: pick(TodoFetchRequest.Order.allCases))
        let controller = FetchedResultsController(
            repository: repository, fetchRequest: request, rows: .keys(TodoKeyColumns(extra: extra)))
        try controller.performFetch()
        let rows = UIRowSource(repository: repository)
        let list = UIList(keys: controller.keyResults, tree: controller.keyTree, rows: rows, grouping: grouping)
        let index = UINameIndex(keys: controller.keyResults, repository: repository, request: request)
        for text in ["m", "milk", "a", "t", "1", "e 2", "zzz", "B"] {
            let terms = UIState.searchTerms(of: text)
            let narrowing = UINarrowing(
                searches: terms, folded: terms.map(TodoSearch.fold), in: index, narrowing: nil, order: request.order)
            let filtered = list.narrowed(to: narrowing.list)
            let regrouped = UIList(
                narrowed: narrowing.list, rows: rows, order: request.order, grouping: grouping, collapsed: [],
                sections: .both)
            #expect(Self.lines(filtered) == Self.lines(regrouped), "seed \(seed), \(text)")
            var search = request
            search.searches = terms
            #expect(narrowing.list.ids == (try repository.fetch(search)).map(\.id), "seed \(seed), \(text)")
        }
    }
}
