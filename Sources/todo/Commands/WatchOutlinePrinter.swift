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
/// The outline is kept from batch to batch by the changed todos alone (`TodoOutlineGroups`: a
/// list of ids per group, patched by binary search, and the change derived from the rows that
/// moved): O(changes) a batch, as the flat watch, whatever the list's length; a row is read from
/// the controller's results when printed. What is printed is minimal (a todo changing priority
/// is one move, a tag added one insert), the same as comparing whole outlines would find, up to
/// ties between equally minimal choices. Subtasks are nested in their group by the tree rule
/// (`TodoOutline`); a row is its todo's in its group wherever it sits, so a todo given another
/// parent is a move (or an update) of its row, `~` in text, never a delete and an insert, and a
/// subtask's line names the group it is in. With `--json` every todo object carries its
/// `"depth"` in its group's tree. Where the outline cannot be followed (results out of the
/// request's order, a parent loop in a damaged file), the batch is found by rebuilding and
/// comparing whole outlines, O(n), and the outline is built again.
///
/// By list (`--by list`), the groups are the controller's lists (``FetchedResultsController/lists``,
/// read with the results): when any program changes the lists, the controller says so before the
/// commit's batch. A group is keyed by its list's id, so a rename re-titles it in place:
/// `~ list Groceries → Shopping` (with `--json`, an `update` of the group row); a change that
/// regroups the todos (a new order of the lists) is found by comparing whole outlines.
/// Everything here runs on the watch loop's thread, the controller's.
final class WatchOutlinePrinter: WatchOutput {
    let json: Bool
    let out: OutputStream
    let text: TodoText
    /// Replaced when the lists change, grouped by list.
    private(set) var grouping: TodoGrouping<Todo>
    /// Whether the groups are the lists (`--by list`), rebuilt as they change.
    let groupsByList: Bool
    /// The todos' UIDs for `--json`.
    let uids: WatchUIDs?
    /// The outline as last printed; nil before the first print.
    private var shown: TodoOutlineGroups?

    init(
        json: Bool, out: OutputStream, text: TodoText, grouping: TodoGrouping<Todo>, groupsByList: Bool = false,
        uids: WatchUIDs? = nil
    ) {
        self.json = json
        self.out = out
        self.text = text
        self.groupsByList = groupsByList
        self.uids = uids
        self.grouping = grouping
    }

    /// Groups by `lists` from now on, when grouped by list (the lists the controller read with
    /// its first results, before ``printInitial(_:)``; a change to them after).
    func use(lists: [TodoList]) {
        guard groupsByList else { return }
        grouping = .byList(lists)
    }

    /// Prints the outline as it is built, a group at a time: no row is held but its id.
    func printInitial(_ controller: FetchedResultsController) {
        let results = controller.snapshot
        let todos = results.numberOfSections > 0 ? results.list(inSection: 0) : ChunkedList()
        var stream = out
        if json {
            stream.write("{\"groups\": [")
            var first = true
            shown = TodoOutlineGroups(results: results, order: controller.fetchRequest.order, grouping: grouping) {
                group, ids, depths in
                stream.write((first ? "" : ", ") + "{\"title\": \(JSON.string(group.title)), \"items\": [")
                first = false
                for (offset, id) in ids.enumerated() {
                    guard let todo = results.item(withID: id) else { continue }
                    let object = JSON.object(
                        todo, uid: self.uids?.uid(of: id, inListing: true), depth: depths?[offset] ?? 0)
                    stream.write((offset == 0 ? "" : ", ") + object)
                }
                stream.write("]}")
            }
            stream.write("]}\n")
        } else {
            var maxID: Int64 = 0
            var showsTimes = false
            for todo in todos {
                maxID = max(maxID, todo.id)
                if todo.dueTime != nil { showsTimes = true }
            }
            let text = text.fitting(maxID: maxID, showsTimes: showsTimes)
            shown = TodoOutlineGroups(results: results, order: controller.fetchRequest.order, grouping: grouping) {
                group, ids, depths in
                let rows = ids.enumerated().compactMap { offset, id in
                    results.item(withID: id).map { (todo: $0, depth: depths?[offset] ?? 0) }
                }
                Command.writeOutlineGroup(group, rows, text, to: &stream)
            }
            if todos.isEmpty { stream.write("No todos.\n") }
            stream.write("Watching for changes (Ctrl-C to stop)...\n")
        }
        out.flush()
    }

    func controller(_ controller: FetchedResultsController, didChangeContentWith batch: FetchedResultsBatch) {
        guard var outline = shown else { return }
        shown = nil
        let change: TodoOutlineChange
        if let followed = outline.apply(
            from: batch.previous, to: batch.snapshot, changed: batch.difference.itemIDs,
            previousTree: batch.tree?.previous, tree: batch.tree?.snapshot)
        {
            shown = outline
            change = followed
        } else {
            change = rebuild(controller, from: batch.previous, grouping, to: batch.snapshot, grouping)
        }
        show(change)
    }

    /// A rename re-titles its group; a change of the lists' order moves their todos as a batch
    /// would. Nothing is printed when no group shown changed (a colour, a new empty list).
    func controller(_ controller: FetchedResultsController, didChangeLists lists: [TodoList]) {
        guard groupsByList, var outline = shown else { return }
        let before = grouping
        use(lists: lists)
        shown = nil
        var change = TodoOutlineChange()
        if let retitles = outline.regroup(by: grouping, results: controller.snapshot) {
            shown = outline
            change = TodoOutlineChange(retitles: retitles)
        } else {
            change = rebuild(controller, from: controller.snapshot, before, to: controller.snapshot, grouping)
        }
        show(change)
    }

    /// The change from `previous` grouped by `oldGrouping` to `results` grouped by `grouping`,
    /// found by building and comparing both outlines whole (O(n), where the outline cannot be
    /// followed); the outline is then built again from `results`.
    private func rebuild(
        _ controller: FetchedResultsController, from previous: TodoResultsSnapshot,
        _ oldGrouping: TodoGrouping<Todo>, to results: TodoResultsSnapshot, _ grouping: TodoGrouping<Todo>
    ) -> TodoOutlineChange {
        let old = TodoSnapshotBuilder(nestingTodosBy: oldGrouping).build(previous.items)
        let new = TodoSnapshotBuilder(nestingTodosBy: grouping).build(results.items)
        shown = TodoOutlineGroups(results: results, order: controller.fetchRequest.order, grouping: grouping)
        return TodoOutlineChange(from: old, to: new)
    }

    /// Prints a change: the groups re-titled, then the rows' changes. Nothing when nothing changed.
    private func show(_ change: TodoOutlineChange) {
        guard !change.isEmpty else { return }
        if json { writeJSON(change) } else { writeText(change) }
        out.flush()
    }

    /// One line per todo row of the outline that changed; group rows come and go with them.
    private func writeText(_ change: TodoOutlineChange) {
        func line(_ mark: String, _ row: TodoOutlineRow) {
            guard let todo = row.todo else { return }
            let summary = text.summary(mark, todo).dropLast()
            out.write("\(summary)  (\(TodoText.sanitized(row.group.title)))\n")
        }
        // As `todo lists rename` says it.
        for retitle in change.retitles {
            out.write("~ list \(TodoText.sanitized(retitle.oldTitle)) → \(TodoText.sanitized(retitle.group.title))\n")
        }
        for removal in change.deletes { line("-", removal.row) }
        for addition in change.inserts { line("+", addition.row) }
        // A todo whose group changed may be a move or, when the rows around it kept their order
        // (only a group row between went), an update: either way it moved to its new group.
        for shift in change.moves + change.updates {
            if shift.new.group != shift.old.group {
                line("→", shift.new)
            } else if shift.old.todo != shift.new.todo {
                line("~", shift.new)
            }  // else moved only because others did: not a change to this todo.
        }
    }

    /// `{"changes": [...]}`: the outline's deletes, inserts, moves and updates, group rows
    /// included (they have no id), with UIKit batch-update indexes among its rows.
    private func writeJSON(_ change: TodoOutlineChange) {
        func object(_ type: String, _ row: TodoOutlineRow, _ indexes: String) -> String {
            var fields = ["\"type\": \"\(type)\"", "\"group\": \(JSON.string(row.group.title))"]
            if let todo = row.todo { fields.append("\"id\": \(todo.id)") }
            fields.append(indexes)
            if let todo = row.todo {
                let uid = uids?.uid(of: todo.id, inListing: false)
                fields.append("\"todo\": \(JSON.object(todo, uid: uid, depth: row.depth))")
            }
            return "{" + fields.joined(separator: ", ") + "}"
        }
        var changes: [String] = []
        for removal in change.deletes { changes.append(object("delete", removal.row, "\"from\": \(removal.from)")) }
        for addition in change.inserts { changes.append(object("insert", addition.row, "\"to\": \(addition.to)")) }
        for shift in change.moves {
            changes.append(object("move", shift.new, "\"from\": \(shift.from), \"to\": \(shift.to)"))
        }
        for shift in change.updates {
            changes.append(object("update", shift.new, "\"from\": \(shift.from), \"to\": \(shift.to)"))
        }
        // A re-titled group row is an update of it where it is now (its id, and so its row, are
        // the same: the outlines compare groups by identity, not title).
        for retitle in change.retitles {
            let row = TodoOutlineRow(id: .group(retitle.group.id), todo: Todo?.none, group: retitle.group, depth: 0)
            changes.append(object("update", row, "\"from\": \(retitle.from), \"to\": \(retitle.to)"))
        }
        out.write("{\"changes\": [" + changes.joined(separator: ", ") + "]}\n")
    }
}
