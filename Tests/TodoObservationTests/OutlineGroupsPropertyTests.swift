import Foundation
import TestSupport
import Testing
import TodoObservation
import TodoSnapshot
import TodoStore

/// The outline `todo watch --outline` keeps from batch to batch by the changed todos alone
/// (`TodoOutlineGroups`, issue 38), under random work: todos added at the top and under others,
/// tags, priorities, deadlines, done and names edited, parents changed, todos deleted alone and
/// with their subtasks, moved to another list, by this connection, another one, and the
/// sqlite3 shell (another process), one or several todos a commit.
///
/// After every batch, at every grouping (done state, priority, tag, due, project, list) and in
/// several orders: the outline equals one built from scratch over a fresh fetch (what
/// `todo list --outline --by X` prints: groups, titles, rows in tree order, depths); the change
/// applied to the rows before gives the rows after (UIKit batch-update order, group rows
/// included; a row is its todo, its depth aside, as the whole outlines compare them); and it is as minimal as comparing the two whole outlines (the old
/// rebuild-and-diff, kept as the oracle): the same deletes and inserts, as many moves and
/// updates, the same groups re-titled.
@Suite(.timed) struct OutlineGroupsPropertyTests {
    let folder = TemporaryFolder()

    /// A row as compared: its identifier, its todo, its depth and its group's title.
    struct Row: Equatable, CustomStringConvertible {
        var id: TodoRowID<Int64>
        var todo: Todo?
        var depth: Int
        var group: String

        init(_ row: TodoOutlineRow) {
            id = row.id
            todo = row.todo
            depth = row.depth
            group = row.group.title
        }

        init(id: TodoRowID<Int64>, todo: Todo?, depth: Int, group: String) {
            self.id = id
            self.todo = todo
            self.depth = depth
            self.group = group
        }

        var description: String {
            guard let todo else { return "[\(group)]" }
            return "\(todo.id)@\(depth)(\(group))"
        }
    }

    /// The rows of an outline built from scratch, group rows included.
    static func rows(_ snapshots: TodoSnapshots<Todo>, several: Bool) -> [Row] {
        snapshots.groups.flatMap { group in
            [Row(id: .group(group.id), todo: nil, depth: 0, group: group.title)]
                + snapshots.tree(in: group).map { record, depth in
                    Row(
                        id: several ? .member(record.id, group.id) : .todo(record.id, .outline), todo: record,
                        depth: depth, group: group.title)
                }
        }
    }

    /// The rows the kept outline holds, read from `results`.
    static func rows(_ outline: TodoOutlineGroups, _ results: TodoResultsSnapshot) -> [Row] {
        let several = outline.grouping.allowsSeveralGroups
        return outline.groups.flatMap { group in
            [Row(id: .group(group.id), todo: nil, depth: 0, group: group.title)]
                + outline.members(of: group.id).map { id in
                    let todo = results.item(withID: id)
                    return Row(
                        id: several ? .member(id, group.id) : .todo(id, .outline), todo: todo,
                        depth: todo.flatMap { outline.depth(of: $0, in: group.id, results: results) } ?? -1,
                        group: group.title)
                }
        }
    }

    /// Follows one controller's batches with a kept outline, and checks each.
    final class Follower: FetchedResultsControllerDelegate {
        let name: String
        let grouping: TodoGrouping<Todo>
        var outline: TodoOutlineGroups?
        var problems: [String] = []
        var batches = 0
        var rebuilt = 0
        var moves = 0

        init(name: String, grouping: TodoGrouping<Todo>) {
            self.name = name
            self.grouping = grouping
        }

        func start(_ controller: FetchedResultsController) {
            outline = TodoOutlineGroups(
                results: controller.snapshot, order: controller.fetchRequest.order, grouping: grouping)
        }

        func controller(_ controller: FetchedResultsController, didChangeContentWith batch: FetchedResultsBatch) {
            guard var kept = outline else { return }
            batches += 1
            let builder = TodoSnapshotBuilder(nestingTodosBy: grouping)
            let old = builder.build(batch.previous.items)
            let new = builder.build(batch.snapshot.items)
            let several = grouping.allowsSeveralGroups
            let before = OutlineGroupsPropertyTests.rows(old, several: several)
            guard
                let change = kept.apply(
                    from: batch.previous, to: batch.snapshot, changed: batch.difference.itemIDs,
                    previousTree: batch.tree?.previous, tree: batch.tree?.snapshot)
            else {
                rebuilt += 1
                start(controller)
                return
            }
            outline = kept
            let after = OutlineGroupsPropertyTests.rows(new, several: several)
            let now = OutlineGroupsPropertyTests.rows(kept, batch.snapshot)
            if now != after { problems.append("\(name): kept \(now), built \(after)") }
            // Replayed as a table view would: removals from the highest, insertions from the lowest.
            var replayed = before
            let removals = change.deletes.map(\.from) + change.moves.map(\.from)
            for offset in removals.sorted(by: >) where replayed.indices.contains(offset) {
                replayed.remove(at: offset)
            }
            let additions =
                change.inserts.map { ($0.to, Row($0.row)) } + change.moves.map { ($0.to, Row($0.new)) }
            for (offset, row) in additions.sorted(by: { $0.0 < $1.0 }) where offset <= replayed.count {
                replayed.insert(row, at: offset)
            }
            for update in change.updates where replayed.indices.contains(update.to) {
                replayed[update.to] = Row(update.new)
            }
            for retitle in change.retitles where replayed.indices.contains(retitle.to) {
                replayed[retitle.to].group = retitle.group.title
            }
            // Depth aside: as in the whole outlines' comparison, a row is its todo, so a subtask whose
            // parent left the group keeps its row (its depth is right in the outline, checked above).
            let shape = { (rows: [Row]) in rows.map { "\($0.id) \($0.todo.map { "\($0)" } ?? "")" } }
            if shape(replayed) != shape(after) {
                problems.append("\(name): replayed \(replayed), built \(after); change \(Self.describe(change))")
            }
            // As minimal as comparing the whole outlines.
            let oracle = TodoOutlineChange(from: old, to: new)
            func key(_ change: TodoOutlineChange) -> [String] {
                [
                    change.deletes.map { "\($0.row.id)@\($0.from)" }.joined(separator: ","),
                    change.inserts.map { "\($0.row.id)@\($0.to)" }.joined(separator: ","),
                    "\(change.moves.count + change.updates.count)",
                    change.retitles.map { "\($0.oldTitle)>\($0.group.title)@\($0.from)-\($0.to)" }.joined(
                        separator: ",")
                ]
            }
            if key(change) != key(oracle) {
                problems.append("\(name): change \(Self.describe(change)), oracle \(Self.describe(oracle))")
            }
            moves += change.moves.count
        }

        static func describe(_ change: TodoOutlineChange) -> String {
            "deletes \(change.deletes.map { "\($0.row.id)@\($0.from)" }) inserts \(change.inserts.map { "\($0.row.id)@\($0.to)" }) moves \(change.moves.map { "\($0.new.id)@\($0.from)>\($0.to)" }) updates \(change.updates.map { "\($0.new.id)@\($0.from)>\($0.to)" }) retitles \(change.retitles.map { "\($0.oldTitle)>\($0.group.title)" })"
        }
    }

    @Test func theKeptOutlineEqualsOneBuiltFromScratchAfterEveryBatch() throws {
        let seed = TestSeed.make("outline groups property")
        var generator = SeededGenerator(seed: seed)
        let path = folder.file("todo.sqlite")
        let repository = try TodoRepository(path: path)
        let other = try TodoRepository(path: path)
        let home = try repository.createList(named: "Home")
        let names = ["milk", "Oat milk", "eggs", "Bread", "garden", "éclair", "Éclair", "Tax", "a", "Zed"]
        // `+a` and `@A` are one tag written two ways: the group's title is the first todo's.
        let tagSets = ["", "+a", "@A", "+b", "+a +b", "+\"c d\"", "@A +\"c d\"", "+b @x"]
        let projects: [String?] = [nil, "Work", "work", "Work.Client", "Home"]
        func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &generator)] }
        func date() -> CalendarDate? {
            Int.random(in: 0..<3, using: &generator) == 0
                ? nil : CalendarDate(year: 2026, month: 12, day: Int.random(in: 1...9, using: &generator))
        }
        func priority() -> TodoPriority { TodoPriority(rawValue: pick([0, 0, 1, 5, 9, 3])) ?? .none }
        func fields() -> TodoFields {
            var fields = TodoFields(name: pick(names), deadline: date(), priority: priority())
            fields.tags = TodoTags(storage: pick(tagSets))
            if let project = pick(projects) { fields.project = TodoProject(project) }
            return fields
        }
        for _ in 0..<14 { try repository.add(fields()) }
        for _ in 0..<3 { try repository.add(fields(), list: home.id) }

        let today = try #require(CalendarDate(year: 2026, month: 12, day: 3))
        let endOfWeek = try #require(CalendarDate(year: 2026, month: 12, day: 6))
        let groupings: [(String, TodoGrouping<Todo>)] = [
            ("done", .byDoneState), ("priority", .byPriority), ("tag", .byTag),
            ("due", .byDeadline(today: today, endOfWeek: endOfWeek)), ("project", .byProject),
            ("list", .byList(try repository.lists()))
        ]
        let requests = [
            TodoFetchRequest(), TodoFetchRequest(order: .name), TodoFetchRequest(order: .priority),
            TodoFetchRequest(filter: .undone)
        ]
        var watched: [(FetchedResultsController, Follower)] = []
        for (name, grouping) in groupings {
            for (index, request) in requests.enumerated() {
                let controller = FetchedResultsController(repository: repository, fetchRequest: request)
                let follower = Follower(name: "\(name) request \(index)", grouping: grouping)
                controller.delegate = follower
                try controller.performFetch()
                follower.start(controller)
                watched.append((controller, follower))
            }
        }
        func sqlite(_ sql: String) throws -> Bool { try ProcessRunner.run("sqlite3", [path, sql]).status == 0 }

        var log: [String] = []
        for step in 0..<240 {
            let todos = try repository.fetch()
            let writer = Bool.random(using: &generator) ? repository : other
            let some = todos.isEmpty ? nil : pick(todos)
            switch (todos.isEmpty ? 0 : Int.random(in: 0..<20, using: &generator), some) {
            case (0...1, _):
                try writer.add(fields())
                log.append("\(step) add")
            case (2...4, let parent?):
                try writer.add(fields(), parent: parent.id)
                log.append("\(step) add under \(parent.id)")
            case (5, let todo?):
                let tags = TodoTags(storage: pick(tagSets))
                try writer.update(id: todo.id) { $0.tags = tags }
                log.append("\(step) tags of \(todo.id): \(tags)")
            case (6, let todo?):
                let value = priority()
                try writer.update(id: todo.id) { $0.priority = value }
                log.append("\(step) priority of \(todo.id)")
            case (7, let todo?):
                try writer.setDeadline(date(), id: todo.id)
                log.append("\(step) deadline of \(todo.id)")
            case (8, let todo?):
                try writer.rename(id: todo.id, to: pick(names))
                log.append("\(step) rename \(todo.id)")
            case (9...10, let todo?):
                try writer.setDone(Bool.random(using: &generator), ids: [todo.id])
                log.append("\(step) done \(todo.id)")
            case (11, let todo?):
                let parent = pick(todos)
                do {
                    try writer.setParent(parent.id, ids: [todo.id])
                    log.append("\(step) \(todo.id) under \(parent.id)")
                } catch {
                    guard case .subtaskCycle = error else { throw error }
                }
            case (12, let todo?):
                try writer.setParent(nil, ids: [todo.id])
                log.append("\(step) \(todo.id) to the top")
            case (13, let todo?):
                try writer.delete(ids: [todo.id])
                log.append("\(step) delete \(todo.id)")
            case (14, let todo?):
                _ = try writer.deleteSubtrees(ids: [todo.id])
                log.append("\(step) delete \(todo.id) with subtasks")
            case (15, let todo?):
                try writer.moveSubtrees(ids: [todo.id], to: todo.listID == home.id ? TodoList.firstID : home.id)
                log.append("\(step) move \(todo.id) to the other list")
            case (16, let todo?):
                // Another process: the sqlite3 shell.
                let sql = pick([
                    "UPDATE todos SET tags = '\(pick(tagSets).replacingOccurrences(of: "'", with: "''"))' WHERE id = \(todo.id)",
                    "UPDATE todos SET priority = \(pick([0, 1, 5, 9])) WHERE id = \(todo.id)",
                    "UPDATE todos SET done = 1 - done WHERE id = \(todo.id)",
                    "UPDATE todos SET parent_id = \(pick(todos).id) WHERE id = \(todo.id)",
                    "DELETE FROM todos WHERE id = \(todo.id)"
                ])
                let done = try sqlite(sql)
                log.append("\(step) shell: \(sql) \(done ? "" : "refused")")
            case (17, let todo?):
                try writer.setStatus(.completed, subtreesOf: [todo.id])
                log.append("\(step) done \(todo.id) with subtasks")
            default:
                // Several at once, in one transaction.
                let ids = (0..<4).map { _ in pick(todos).id }
                try writer.setDone(Bool.random(using: &generator), ids: ids)
                log.append("\(step) done \(ids)")
            }
            for (controller, _) in watched { try controller.processExternalChanges() }
            let problems = watched.flatMap(\.1.problems)
            try #require(problems.isEmpty, "seed \(seed) step \(step): \(problems.prefix(3))\n\(log.suffix(6))")
            // And the same as a fresh `todo list --outline --by X`.
            for (controller, follower) in watched {
                guard let outline = follower.outline else { continue }
                let fresh = TodoSnapshotBuilder(nestingTodosBy: follower.grouping).build(
                    try repository.fetch(controller.fetchRequest))
                let expected = Self.rows(fresh, several: follower.grouping.allowsSeveralGroups)
                let kept = Self.rows(outline, controller.snapshot)
                try #require(kept == expected, "seed \(seed) step \(step) \(follower.name): \(kept) vs \(expected)")
            }
        }
        let batches = watched.reduce(0) { $0 + $1.1.batches }
        let rebuilt = watched.reduce(0) { $0 + $1.1.rebuilt }
        #expect(batches > 1_000, "seed \(seed)")
        #expect(rebuilt == 0, "seed \(seed): \(rebuilt) batches rebuilt")
        #expect(watched.reduce(0) { $0 + $1.1.moves } > 0, "seed \(seed): the moves were exercised")
    }
}
