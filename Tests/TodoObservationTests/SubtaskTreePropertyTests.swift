import Foundation
import TestSupport
import Testing
import TodoObservation
import TodoSnapshot
import TodoStore

/// The controller's tree (issue 36) under random work on a hierarchy: subtasks added under
/// parents, moved (`edit --under`/`--top` through `setParent`, `move` through `moveSubtrees`),
/// deleted with their subtasks and alone, completed with them (`setStatus(subtreesOf:)`), and
/// written from outside: a second connection, and the sqlite3 shell (a parent deleted alone, a
/// link to a todo that is gone, and cycles, which the store's triggers refuse).
///
/// After every step, each controller's tree must equal the one built from scratch (the tree
/// rule, `TodoOutline`, over a fresh fetch), every batch must replay (its tree difference
/// applied to the previous rows gives the new ones), and no batch may remove and re-insert a
/// todo (one that only changed level or parent is a move or an update).
@Suite(.timed) struct SubtaskTreePropertyTests {
    let folder = TemporaryFolder()

    /// Checks each batch's tree change as it comes.
    final class TreeChecker: FetchedResultsControllerDelegate {
        /// What went wrong, for the test's message.
        var problems: [String] = []
        /// Batches whose tree changed.
        var treeBatches = 0
        /// Rows that changed level or parent and were reported as a move or an update.
        var reparented = 0

        func controller(_ controller: FetchedResultsController, didChangeContentWith batch: FetchedResultsBatch) {
            guard let tree = batch.tree else {
                // No tree either side: the flat results must have no subtask.
                if batch.snapshot.items.contains(where: { $0.parentID != nil }) {
                    problems.append("a batch without a tree change over results with subtasks")
                }
                return
            }
            treeBatches += 1
            let difference = tree.difference
            if tree.previous.snapshot.applying(difference) != tree.snapshot.snapshot {
                problems.append("the tree difference does not replay: \(difference)")
            }
            let deleted = Set(difference.itemDeletes.map(\.id))
            let reinserted = difference.itemInserts.map(\.item.id).filter { deleted.contains($0) }
            if !reinserted.isEmpty { problems.append("removed and re-inserted: \(reinserted)") }
            // Minimal: as few changes as the full diff of the two row lists finds.
            let full = tree.snapshot.snapshot.difference(from: tree.previous.snapshot)
            func shape(_ difference: SnapshotDifference<String, TodoTreeRow>) -> [Int] {
                [
                    difference.itemInserts.count, difference.itemDeletes.count,
                    difference.itemMoves.count + difference.itemUpdates.count,
                    difference.sectionInserts.count, difference.sectionDeletes.count
                ]
            }
            if shape(difference) != shape(full) { problems.append("not minimal: \(difference) vs \(full)") }
            for change in difference.itemMoves + difference.itemUpdates {
                guard let old = tree.previous.item(withID: change.item.id) else { continue }
                if old.depth != change.item.depth || old.parentID != change.item.parentID { reparented += 1 }
            }
        }
    }

    /// The tree from scratch: each section of a fresh fetch (by done state: undone, then done)
    /// arranged by the tree rule.
    static func expectedTree(_ repository: TodoRepository, _ controller: FetchedResultsController) throws
        -> [TodoOutline.Row]
    {
        let todos = try repository.fetch(controller.fetchRequest)
        let sections =
            controller.sectioning == .none ? [todos] : [todos.filter { !$0.isDone }, todos.filter(\.isDone)]
        return sections.flatMap { TodoOutline($0).rows }
    }

    /// A row as `id@depth^parent` (parent 0: the top level), for comparing and for messages.
    static func text(_ id: Int64, _ depth: Int, _ parent: Int64?) -> String { "\(id)@\(depth)^\(parent ?? 0)" }

    @Test func theControllersTreeAlwaysEqualsOneBuiltFromScratchAndChangesAreMinimal() throws {
        let seed = TestSeed.make("subtask tree property")
        var generator = SeededGenerator(seed: seed)
        let path = folder.file("todo.sqlite")
        let repository = try TodoRepository(path: path)
        let other = try TodoRepository(path: path)
        let home = try repository.createList(named: "Home")
        let names = ["milk", "Oat milk", "eggs", "Bread", "garden", "shed", "Tax", "a", "Zed"]
        func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &generator)] }
        func date() -> CalendarDate? {
            Int.random(in: 0..<3, using: &generator) == 0
                ? nil : CalendarDate(year: 2026, month: 12, day: Int.random(in: 1...9, using: &generator))
        }
        // A flat start: the controllers begin without a tree, and build one with the first subtask.
        for _ in 0..<12 { try repository.add(TodoFields(name: pick(names), deadline: date())) }

        var watched: [(FetchedResultsController, TreeChecker)] = []
        let requests: [(TodoFetchRequest, FetchedResultsController.Sectioning)] = [
            (TodoFetchRequest(), .none), (TodoFetchRequest(order: .name), .byDoneState),
            (TodoFetchRequest(order: .status, filter: .undone), .none), (TodoFetchRequest(order: .priority), .none),
            (TodoFetchRequest(search: "m"), .none)
        ]
        for (request, sectioning) in requests {
            let controller = FetchedResultsController(
                repository: repository, fetchRequest: request, sectioning: sectioning)
            let checker = TreeChecker()
            controller.delegate = checker
            try controller.performFetch()
            watched.append((controller, checker))
        }

        func sqlite(_ sql: String) throws -> Bool {
            try ProcessRunner.run("sqlite3", [path, sql]).status == 0
        }
        /// A todo and one of its subtasks at any depth, when some todo has subtasks.
        func ancestorAndDescendant(_ todos: [Todo]) throws -> (Int64, Int64)? {
            let parents = todos.filter { todo in todos.contains { $0.parentID == todo.id } }
            guard !parents.isEmpty else { return nil }
            let top = pick(parents)
            let below = try repository.subtaskIDs(of: [top.id])
            return below.isEmpty ? nil : (top.id, pick(below))
        }

        var refusedCycles = 0
        var log: [String] = []
        for step in 0..<300 {
            let todos = try repository.fetch()
            let writer = Bool.random(using: &generator) ? repository : other
            let through = writer === repository ? "own" : "other"
            let some = todos.isEmpty ? nil : pick(todos)
            let kind = todos.isEmpty ? 0 : Int.random(in: 0..<20, using: &generator)
            switch (kind, some) {
            case (0...1, _):
                try writer.add(TodoFields(name: pick(names), deadline: date()))
                log.append("\(step) add top (\(through))")
            case (2...5, let parent?):
                try writer.add(TodoFields(name: pick(names), deadline: date()), parent: parent.id)
                log.append("\(step) add under \(parent.id) (\(through))")
            case (6...7, let todo?):
                // edit --under: another parent, refused when it is the todo's own subtask.
                let parent = pick(todos)
                do {
                    try writer.setParent(parent.id, ids: [todo.id])
                    log.append("\(step) \(todo.id) under \(parent.id) (\(through))")
                } catch {
                    guard case .subtaskCycle = error else { throw error }
                    refusedCycles += 1
                    log.append("\(step) \(todo.id) under \(parent.id) refused (\(through))")
                }
            case (8, let todo?):
                try writer.setParent(nil, ids: [todo.id])
                log.append("\(step) \(todo.id) to the top (\(through))")
            case (9, let todo?):
                let list = todo.listID == home.id ? TodoList.firstID : home.id
                try writer.moveSubtrees(ids: [todo.id], to: list)
                log.append("\(step) move \(todo.id) to list \(list) (\(through))")
            case (10, let todo?):
                // As `todo rm --with-subtasks`: one undo step, which case 19 may take back.
                try writer.recordingUndo("rm") { () throws(TodoStoreError) in
                    _ = try writer.deleteSubtrees(ids: [todo.id])
                }
                log.append("\(step) delete \(todo.id) with subtasks (\(through))")
            case (11, let todo?):
                try writer.delete(ids: [todo.id])
                log.append("\(step) delete \(todo.id) alone (\(through))")
            case (12...13, let todo?):
                try writer.setStatus(.completed, subtreesOf: [todo.id])
                log.append("\(step) done \(todo.id) with subtasks (\(through))")
            case (14, let todo?):
                try writer.setDone(false, ids: [todo.id])
                log.append("\(step) undone \(todo.id) (\(through))")
            case (15, let todo?):
                // A parent's new deadline or name moves its whole subtree.
                if Bool.random(using: &generator) {
                    try writer.setDeadline(date(), id: todo.id)
                } else {
                    try writer.rename(id: todo.id, to: pick(names))
                }
                log.append("\(step) edit \(todo.id) (\(through))")
            case (16, let todo?):
                // The sqlite3 shell: any parent, or one that is gone; a cycle is refused.
                let parent = Bool.random(using: &generator) ? pick(todos).id : 9_999
                let done = try sqlite("UPDATE todos SET parent_id = \(parent) WHERE id = \(todo.id)")
                log.append("\(step) shell: \(todo.id) under \(parent) \(done ? "" : "refused")")
            case (17, _):
                // A cycle through the shell and through the store: both refused, nothing changes.
                if let (top, below) = try ancestorAndDescendant(todos) {
                    #expect(try !sqlite("UPDATE todos SET parent_id = \(below) WHERE id = \(top)"), "seed \(seed)")
                    #expect(throws: TodoStoreError.self) { try writer.setParent(below, ids: [top]) }
                    refusedCycles += 1
                    log.append("\(step) cycle \(top) under \(below) refused")
                }
            case (18, _):
                // A parent deleted alone by another program: its subtasks go to the top level.
                if let parent = todos.first(where: { todo in todos.contains { $0.parentID == todo.id } }) {
                    #expect(try sqlite("DELETE FROM todos WHERE id = \(parent.id)"), "seed \(seed)")
                    log.append("\(step) shell: delete parent \(parent.id) alone")
                }
            case (19, _) where Bool.random(using: &generator):
                // Undo brings a deleted subtree back (or takes a change back), in one commit.
                _ = try? writer.undo()
                log.append("\(step) undo (\(through))")
            default:
                // Several at once, in one transaction: subtrees completed and reopened.
                let ids = (0..<4).map { _ in pick(todos).id }
                try writer.recordingUndo("done") { () throws(TodoStoreError) in
                    _ = try writer.setStatus(.completed, subtreesOf: Array(Set(ids)))
                    _ = try writer.setDone(false, ids: [ids[0]])
                }
                log.append("\(step) subtrees of \(ids) done, \(ids[0]) undone (\(through))")
            }
            for (controller, checker) in watched {
                try controller.processExternalChanges()
                let label = "seed \(seed), \(log.suffix(3)), \(controller.fetchRequest.order) \(controller.sectioning)"
                let rows = controller.treeRows
                let expected = try Self.expectedTree(repository, controller)
                #expect(
                    rows.map { Self.text($0.id, $0.depth, $0.parentID) }
                        == expected.map { Self.text($0.todo.id, $0.depth, $0.parentID) }, "\(label)")
                #expect(rows.map(\.todo) == expected.map(\.todo), "\(label)")
                // No tree kept while no todo shown has a parent.
                #expect(
                    (controller.tree == nil) == !controller.fetchedObjects.contains { $0.parentID != nil }, "\(label)")
                #expect(checker.problems.isEmpty, "\(label): \(checker.problems)")
                checker.problems.removeAll()
            }
        }
        // The run exercised what it is about.
        #expect(refusedCycles > 0, "seed \(seed)")
        #expect(watched.allSatisfy { $0.1.treeBatches > 20 }, "seed \(seed)")
        #expect(watched.contains { $0.1.reparented > 0 }, "seed \(seed)")
    }
}
