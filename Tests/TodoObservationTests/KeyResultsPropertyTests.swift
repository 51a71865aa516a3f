import Foundation
import TestSupport
import Testing
import TodoObservation
import TodoSnapshot
import TodoStore

/// A controller that keeps only the todos' keys (`Rows.keys`, what `todo ui` keeps, issue 38)
/// under random work, by this connection, another one and the sqlite3 shell: after every step
/// its ids are exactly a fresh fetch's, in order; each key todo places as the whole todo does
/// (deadline, status, priority, list, parent, and the extra fields asked for); its tree is the
/// tree rule's over a fresh fetch; every batch names each todo whose row changed (a rename
/// included, which moves no key in the deadline order); and a small change is patched in, not
/// refetched.
@Suite(.timed) struct KeyResultsPropertyTests {
    let folder = TemporaryFolder()

    /// Collects the batches.
    final class Batches: FetchedResultsControllerDelegate {
        var received: [TodoKeyBatch] = []
        func controller(_ controller: FetchedResultsController, didChangeKeysWith batch: TodoKeyBatch) {
            received.append(batch)
        }
    }

    @Test func keyResultsAndTheirTreeAlwaysEqualAFreshFetch() throws {
        let seed = TestSeed.make("key results property")
        var generator = SeededGenerator(seed: seed)
        let path = folder.file("todo.sqlite")
        let repository = try TodoRepository(path: path)
        let other = try TodoRepository(path: path)
        let home = try repository.createList(named: "Home")
        let names = ["milk", "Oat milk", "eggs", "Bread", "garden", "shed", "Tax", "a", "Zed"]
        let tags = ["+work", "@home", "+Work", "+garden shed"]
        func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &generator)] }
        func date() -> CalendarDate? {
            Int.random(in: 0..<3, using: &generator) == 0
                ? nil : CalendarDate(year: 2026, month: 12, day: Int.random(in: 1...9, using: &generator))
        }
        func fields() -> TodoFields {
            TodoFields(
                name: pick(names), deadline: date(),
                priority: TodoPriority(rawValue: pick([0, 0, 1, 5, 9])) ?? .none,
                tags: TodoTags(Bool.random(using: &generator) ? [TodoTag(pick(tags))].compactMap { $0 } : []),
                project: Bool.random(using: &generator) ? TodoProject(pick(["Work", "Work.ClientA", "home"])) : nil)
        }
        for _ in 0..<20 { try repository.add(fields()) }

        let requests: [(TodoFetchRequest, TodoKeyColumns)] = [
            (TodoFetchRequest(), TodoKeyColumns()), (TodoFetchRequest(order: .name), TodoKeyColumns(extra: .tags)),
            (TodoFetchRequest(order: .status, filter: .undone), TodoKeyColumns(extra: .project)),
            (TodoFetchRequest(order: .priority), TodoKeyColumns()), (TodoFetchRequest(search: "m"), TodoKeyColumns())
        ]
        var watched: [(FetchedResultsController, Batches, TodoKeyResults)] = []
        for (request, columns) in requests {
            let controller = FetchedResultsController(
                repository: repository, fetchRequest: request, rows: .keys(columns))
            let batches = Batches()
            controller.delegate = batches
            try controller.performFetch()
            #expect(controller.snapshot.numberOfItems == 0, "keys mode keeps no todo")
            watched.append((controller, batches, controller.keyResults))
        }
        func sqlite(_ sql: String) throws { _ = try ProcessRunner.run("sqlite3", [path, sql]) }

        var log: [String] = []
        for step in 0..<250 {
            let todos = try repository.fetch()
            let writer = Bool.random(using: &generator) ? repository : other
            let some = todos.isEmpty ? nil : pick(todos)
            var renamed: Int64?
            switch (Int.random(in: 0..<12, using: &generator), some) {
            case (0, _), (_, nil):
                try writer.add(fields())
                log.append("\(step) add")
            case (1...2, let parent?):
                try writer.add(fields(), parent: parent.id)
                log.append("\(step) add under \(parent.id)")
            case (3, let todo?):
                _ = try? writer.setParent(pick(todos).id, ids: [todo.id])
                log.append("\(step) reparent \(todo.id)")
            case (4, let todo?):
                try writer.moveSubtrees(ids: [todo.id], to: todo.listID == home.id ? TodoList.firstID : home.id)
                log.append("\(step) move \(todo.id)")
            case (5, let todo?):
                _ = try writer.deleteSubtrees(ids: [todo.id])
                log.append("\(step) delete \(todo.id)")
            case (6, let todo?):
                try sqlite("DELETE FROM todos WHERE id = \(todo.id)")
                log.append("\(step) shell delete \(todo.id) alone")
            case (7, let todo?):
                _ = try writer.setStatus(.completed, subtreesOf: [todo.id])
                log.append("\(step) done \(todo.id)")
            case (8, let todo?):
                // A rename: no key moves in most orders, but the row shows differently.
                _ = try writer.rename(id: todo.id, to: pick(names) + " \(step)")
                renamed = todo.id
                log.append("\(step) rename \(todo.id)")
            case (9, let todo?):
                let new = fields()
                try writer.update(id: todo.id) {
                    $0.deadline = new.deadline
                    $0.priority = new.priority
                    $0.tags = new.tags
                    $0.project = new.project
                }
                log.append("\(step) edit \(todo.id)")
            case (10, let todo?):
                try sqlite("UPDATE todos SET done = 1 - done, note = 'n\(step)' WHERE id = \(todo.id)")
                log.append("\(step) shell toggle \(todo.id)")
            default:
                // Many at once: past the patch limit for none, all in one transaction.
                try writer.recordingUndo("done") { () throws(TodoStoreError) in
                    _ = try writer.setDone(Bool.random(using: &generator), ids: todos.prefix(8).map(\.id))
                }
                log.append("\(step) several")
            }
            for index in watched.indices {
                let (controller, batches, seen) = watched[index]
                try controller.processExternalChanges()
                let label = "seed \(seed), \(log.suffix(3)), \(controller.fetchRequest.order)"
                let fresh = try repository.fetch(controller.fetchRequest)
                let keys = controller.keyResults
                #expect(Array(keys.ids) == fresh.map(\.id), "\(label)")
                for todo in fresh {
                    guard let key = keys.todo(withID: todo.id) else { continue }
                    #expect(
                        key.deadline == todo.deadline && key.status == todo.status && key.priority == todo.priority
                            && key.listID == todo.listID && key.parentID == todo.parentID, "\(label): \(todo.id)")
                    if keys.columns.extra.contains(.tags) { #expect(key.tags == todo.tags, "\(label)") }
                    if keys.columns.extra.contains(.project) { #expect(key.project == todo.project, "\(label)") }
                    if controller.fetchRequest.order == .name { #expect(key.name == todo.name, "\(label)") }
                }
                // The tree: the rule over a fresh fetch, none kept while no todo has a parent.
                let expected = TodoOutline(fresh).rows
                if let tree = controller.keyTree {
                    #expect(Array(tree.ids) == expected.map(\.todo.id), "\(label)")
                    #expect(tree.ids.map { tree.depth(of: $0) } == expected.map(\.depth), "\(label)")
                } else {
                    #expect(!fresh.contains { $0.parentID != nil }, "\(label)")
                }
                // Batches chain, and name every todo whose row changed.
                var previous = seen
                for batch in batches.received {
                    #expect(Array(batch.previous.ids) == Array(previous.ids), "\(label)")
                    if let renamed, let changed = batch.changed, fresh.contains(where: { $0.id == renamed }) {
                        #expect(changed.contains(renamed), "\(label): the rename of \(renamed) is named")
                    }
                    previous = batch.results
                }
                if batches.received.isEmpty, let renamed {
                    #expect(!fresh.contains { $0.id == renamed }, "\(label): a rename brings a batch")
                }
                batches.received.removeAll()
                watched[index].2 = keys
            }
        }
    }
}
