import TodoObservation
import TodoSnapshot
import TodoStore

/// What `todo watch` prints through: the flat list (``WatchPrinter``) or the outline
/// (``WatchOutlinePrinter``). Called on the watch loop's thread only.
protocol WatchOutput: FetchedResultsControllerDelegate {
    /// Where the lines go; the loop stops on its failure or when it is closed.
    var out: OutputStream { get }
    /// Prints the controller's results as first fetched, then the line saying it watches.
    func printInitial(_ controller: FetchedResultsController)
}

extension WatchPrinter: WatchOutput {}

/// `todo watch --outline [--by ...]`: the outline as `todo list --outline` prints it, then one
/// line per change to it, with the group it happened in: `+ 3  Buy milk  (+shop)` joined the
/// group (a new todo, or one given the tag), `- 3  …  (+shop)` left it, `→ 3  …  (Low)` moved to
/// it from another group, `~ 3  …  (High)` edited where it is. With `--json`, `{"groups": [...]}`
/// then `{"changes": [...]}` a line, indexes in the outline's rows (group rows included).
///
/// Each batch rebuilds the outline from the controller's results and diffs it with the last one:
/// O(n) a change, where the flat watch is O(changes); the snapshot layer's difference makes what
/// is printed minimal (a todo changing priority is one move, a tag added one insert). Subtasks
/// are nested in their group by the tree rule (`TodoOutline`, through the builder's nesting,
/// also O(n)); a row is its todo's in its group wherever it sits, so a todo given another
/// parent is a move (or an update) of its row, `~` in text, never a delete and an insert. With
/// `--json` every todo object carries its `"depth"` in its group's tree.
///
/// By list (`--by list`), the groups are the controller's lists (``FetchedResultsController/lists``,
/// read with the results): when any program changes the lists, the controller says so before the
/// commit's batch, and the outline is rebuilt with their new names. A group is keyed by its list's
/// id, so a rename re-titles it: `~ list Groceries → Shopping` (with `--json`, an `update` of the
/// group row). Everything here runs on the watch loop's thread, the controller's.
final class WatchOutlinePrinter: WatchOutput {
    let json: Bool
    let out: OutputStream
    let text: TodoText
    /// Replaced when the lists change, grouped by list.
    private(set) var builder: TodoSnapshotBuilder<Todo>
    /// Whether the groups are the lists (`--by list`), rebuilt as they change.
    let groupsByList: Bool
    /// The todos' UIDs for `--json`.
    let uids: WatchUIDs?
    /// The outline as last printed.
    private var shown: TodoSnapshots<Todo>

    init(
        json: Bool, out: OutputStream, text: TodoText, grouping: TodoGrouping<Todo>, groupsByList: Bool = false,
        uids: WatchUIDs? = nil
    ) {
        self.json = json
        self.out = out
        self.text = text
        self.groupsByList = groupsByList
        self.uids = uids
        self.builder = TodoSnapshotBuilder(nestingTodosBy: grouping)
        self.shown = builder.build([])
    }

    /// Groups by `lists` from now on, when grouped by list (the lists the controller read with
    /// its first results, before ``printInitial(_:)``; a change to them after).
    func use(lists: [TodoList]) {
        guard groupsByList else { return }
        builder = TodoSnapshotBuilder(nestingTodosBy: .byList(lists))
    }

    func printInitial(_ controller: FetchedResultsController) {
        let todos = controller.fetchedObjects
        shown = builder.build(todos)
        if json {
            let groups = shown.groups.map { group in
                "{\"title\": \(JSON.string(group.title)), \"items\": ["
                    + shown.tree(in: group).map {
                        JSON.object($0.record, uid: uids?.uid(of: $0.record.id, inListing: true), depth: $0.depth)
                    }
                    .joined(separator: ", ") + "]}"
            }
            out.write("{\"groups\": [" + groups.joined(separator: ", ") + "]}\n")
        } else {
            var stream = out
            let text = text.fitting(maxID: todos.lazy.map(\.id).max() ?? 0, showsTimes: todos.hasDueTimes)
            Command.writeOutline(shown, text, to: &stream)
            if todos.isEmpty { out.write("No todos.\n") }
            out.write("Watching for changes (Ctrl-C to stop)...\n")
        }
        out.flush()
    }

    func controller(_ controller: FetchedResultsController, didChangeContentWith batch: FetchedResultsBatch) {
        show(batch.snapshot.items)
    }

    /// A rename re-titles its group; a change of the lists' order moves their todos as a batch
    /// would. Nothing is printed when no group shown changed (a colour, a new empty list).
    func controller(_ controller: FetchedResultsController, didChangeLists lists: [TodoList]) {
        guard groupsByList else { return }
        use(lists: lists)
        show(controller.snapshot.items)
    }

    /// Rebuilds the outline from `todos` and prints how it differs from the one shown: the
    /// groups re-titled, then the rows' changes. Prints nothing when nothing differs.
    private func show(_ todos: [Todo]) {
        let old = shown
        shown = builder.build(todos, previousOutline: old.outline)
        let oldTitles = Dictionary(old.groups.map { ($0.id, $0.title) }) { first, _ in first }
        let retitled = shown.groups.compactMap { group in
            oldTitles[group.id].flatMap { $0 == group.title ? nil : (old: $0, new: group) }
        }
        let difference = shown.snapshot.difference(from: old.snapshot)
        guard !retitled.isEmpty || !difference.isEmpty else { return }
        if json {
            writeJSON(difference, old: old, retitled: retitled)
        } else {
            writeText(difference, old: old, retitled: retitled)
        }
        out.flush()
    }

    /// Whether a row is in the outline section (not `all`, which the outline mode does not print).
    private static func isOutline(_ row: TodoRowID<Int64>) -> Bool {
        if case .todo(_, .all) = row { return false }
        return true
    }

    /// One line per todo row of the outline that changed; group rows come and go with them.
    private func writeText(
        _ difference: SnapshotDifference<TodoSection, TodoRow<Todo>>, old: TodoSnapshots<Todo>,
        retitled: [(old: String, new: TodoGroup)]
    ) {
        func line(_ mark: String, _ todo: Todo, _ group: TodoGroup?) {
            let summary = text.summary(mark, todo).dropLast()
            out.write("\(summary)  (\(TodoText.sanitized(group?.title ?? "")))\n")
        }
        // As `todo lists rename` says it.
        for (oldTitle, group) in retitled {
            out.write("~ list \(TodoText.sanitized(oldTitle)) → \(TodoText.sanitized(group.title))\n")
        }
        for change in difference.itemDeletes where Self.isOutline(change.id) {
            guard let todo = old.snapshot.item(withID: change.id)?.record else { continue }
            line("-", todo, old.group(of: change.id))
        }
        for change in difference.itemInserts where Self.isOutline(change.id) {
            guard let todo = change.item.record else { continue }
            line("+", todo, shown.group(of: change.id))
        }
        // A todo whose group changed may be a move or, when the rows around it kept their order
        // (only a group row between went), an update: either way it moved to its new group.
        let edited =
            difference.itemMoves.map { ($0.id, $0.item) } + difference.itemUpdates.map { ($0.id, $0.item) }
        for (id, row) in edited where Self.isOutline(id) {
            guard let todo = row.record else { continue }
            let group = shown.group(of: id)
            if group != old.group(of: id) {
                line("→", todo, group)
            } else if old.snapshot.item(withID: id)?.record != todo {
                line("~", todo, group)
            }  // else moved only because others did: not a change to this todo.
        }
    }

    /// `{"changes": [...]}`: the outline section's deletes, inserts, moves and updates, group
    /// rows included (they have no id), with UIKit batch-update indexes among its rows.
    private func writeJSON(
        _ difference: SnapshotDifference<TodoSection, TodoRow<Todo>>, old: TodoSnapshots<Todo>,
        retitled: [(old: String, new: TodoGroup)]
    ) {
        func object(
            _ type: String, _ row: TodoRow<Todo>, group: TodoGroup?, _ indexes: String,
            in snapshots: TodoSnapshots<Todo>
        ) -> String {
            // Where the row sits in its group's tree, in the outline it is in (the old one for a delete).
            let depth = snapshots.outline.contains(row.id) ? snapshots.outline.level(of: row.id) - 1 : 0
            var fields = ["\"type\": \"\(type)\"", "\"group\": \(JSON.string(group?.title ?? ""))"]
            if let todo = row.record { fields.append("\"id\": \(todo.id)") }
            fields.append(indexes)
            if let todo = row.record {
                let uid = uids?.uid(of: todo.id, inListing: false)
                fields.append("\"todo\": \(JSON.object(todo, uid: uid, depth: depth))")
            }
            return "{" + fields.joined(separator: ", ") + "}"
        }
        var changes: [String] = []
        for change in difference.itemDeletes where Self.isOutline(change.id) {
            guard let row = old.snapshot.item(withID: change.id) else { continue }
            changes.append(
                object("delete", row, group: old.group(of: change.id), "\"from\": \(change.from.item)", in: old))
        }
        for change in difference.itemInserts where Self.isOutline(change.id) {
            changes.append(
                object(
                    "insert", change.item, group: shown.group(of: change.id), "\"to\": \(change.to.item)", in: shown))
        }
        for change in difference.itemMoves where Self.isOutline(change.id) {
            changes.append(
                object(
                    "move", change.item, group: shown.group(of: change.id),
                    "\"from\": \(change.from.item), \"to\": \(change.to.item)", in: shown))
        }
        for change in difference.itemUpdates where Self.isOutline(change.id) {
            changes.append(
                object(
                    "update", change.item, group: shown.group(of: change.id),
                    "\"from\": \(change.from.item), \"to\": \(change.to.item)", in: shown))
        }
        // A re-titled group row is an update of it where it is now (its id, and so its row, are
        // the same: the snapshots compare groups by identity, not title).
        for (_, group) in retitled {
            guard let from = old.snapshot.indexPath(ofItem: .group(group.id)),
                let to = shown.snapshot.indexPath(ofItem: .group(group.id))
            else { continue }
            changes.append(
                object(
                    "update", .group(group), group: group, "\"from\": \(from.item), \"to\": \(to.item)", in: shown))
        }
        out.write("{\"changes\": [" + changes.joined(separator: ", ") + "]}\n")
    }
}
