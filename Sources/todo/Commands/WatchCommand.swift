import Dispatch
import Synchronization
import TodoObservation
import TodoSnapshot
import TodoStore

#if canImport(Glibc)
    import Glibc
#endif

extension Command {
    /// `todo watch [--outline [--by ...]] [--json]`: the list, then one line per committed change,
    /// from any process.
    static let watch = Command(
        spec: CommandSpec(
            name: "watch",
            abstract: "Show the list, then every change to it as it is committed, by any program.",
            options: [
                .init(name: "--sort", value: "order", help: "due (the default), name or status."),
                .init(
                    name: "--outline", value: nil,
                    help: "Show the outline (as 'todo list --outline') and each change with the group it is in."),
                CommandContext.groupingOption
            ] + CommandContext.filterOptions + [
                CommandContext.allOption,
                CommandContext.searchOption,
                .init(
                    name: "--json", value: nil,
                    help: "Print {\"items\": [...]}, then one {\"changes\": [...]} line per transaction.")
            ],
            discussion: """
                Changes made by another todo, the sqlite3 shell or any SQLite client appear as they are
                committed. In text, '+' is a new todo, '-' a deleted one, '✓' done, '○' undone, '~' edited.
                With --json, each change is {"type": "insert"|"delete"|"move"|"update", "id", "from",
                "to", "todo"}, with UIKit batch-update index semantics. With --outline,
                each line ends with its group: '+' joined it, '-' left it,
                '→' moved to it, '~' edited in it; with --json too, changes
                carry "group" and index the outline's rows, group rows
                included. By list (--by list), a list renamed by any program
                re-titles its group at once: '~ list OLD → NEW' (with --json,
                an "update" of the group row). Subtasks are indented
                under their parents; with --json every todo carries its
                "depth" and indexes count the rows in tree order (a todo
                given another parent is a move or an update). Ctrl-C stops.
                """,
            examples: ["todo watch", "todo watch --json", "todo watch --outline --by priority"]
        ),
        run: { (context) throws(CLIError) in
            // Caught from the start, so a Ctrl-C while the list is first printed is not lost.
            let wake = DispatchSemaphore(value: 0)
            let stop = StopSignals(wake: wake)
            var request = try context.fetchRequest()
            context.hideNotStarted(&request)
            let repository = try context.openRepository()
            request.lists = try context.listIDs(in: repository)
            let grouping = try context.outlineGrouping(in: repository)
            try context.noteTagsNoTodoHas(request, in: repository)
            let controller = FetchedResultsController(repository: repository, fetchRequest: request)
            // Sized to the rows when they are printed (printInitial); rows name their list as
            // `todo list`'s do.
            let text = try context.perform { () throws(TodoStoreError) in
                try context.text(for: request, in: repository, byList: context.groupsByList)
            }
            let json = context.arguments.flag("--json")
            let uids = json ? try context.perform { () throws(TodoStoreError) in try WatchUIDs(repository) } : nil
            let printer: any WatchOutput =
                if let grouping {
                    WatchOutlinePrinter(
                        json: json, out: context.out, text: text, grouping: grouping,
                        groupsByList: context.groupsByList, uids: uids)
                } else {
                    WatchPrinter(
                        json: json, out: context.out, text: text,
                        current: { [weak controller] id in (try? controller?.repository.todo(id: id)) ?? nil },
                        uids: uids)
                }
            controller.delegate = printer
            // Watching from before the first read: a commit made once the list is printed (and
            // "Watching" with it) always wakes the loop. Started after, a commit landing in
            // between went unseen until the next one.
            let monitor: DatabaseFileMonitor
            do throws(DatabaseFileMonitor.Failure) {
                monitor = try DatabaseFileMonitor(databasePath: repository.connection.path) { wake.signal() }
            } catch {
                throw CLIError(error)
            }
            defer { withExtendedLifetime(monitor) { monitor.cancel() } }
            try context.perform { () throws(TodoStoreError) in try controller.performFetch() }
            // By list, the groups are the lists read with the results: a change to them since is
            // reported (re-titling its group), one before is in them.
            (printer as? WatchOutlinePrinter)?.use(lists: controller.lists)
            printer.printInitial(controller)
            // Everything is printed on this thread, a whole line at a time; a stop signal only
            // wakes it, so it ends between two lines, never inside one.
            while true {
                wake.wait()
                if let signal = stop.received { throw .stopped(by: signal) }
                _ = try context.perform { () throws(TodoStoreError) in try controller.processExternalChanges() }
                if let code = printer.out.failure {
                    throw .outputFailed(code)
                }
                if printer.out.isClosed { return }
            }
        }
    )
}

/// Ctrl-C (SIGINT) and SIGTERM for `todo watch`: received through dispatch sources (no C
/// handler, see `SignalSources`), noted, and the watch loop woken, which stops between two
/// lines with status 130 or 143 (TodoCLI decides it).
final class StopSignals: @unchecked Sendable {
    private var sources: [any DispatchSourceSignal] = []
    /// The first stop signal received, set from the signal sources' queue.
    private let signalNumber = Mutex<Int32?>(nil)

    init(wake: DispatchSemaphore) {
        sources = SignalSources.make([SIGINT, SIGTERM], queue: .global()) { [weak self] signalNumber in
            self?.signalNumber.withLock { if $0 == nil { $0 = signalNumber } }
            wake.signal()
        }
    }

    deinit { sources.forEach { $0.cancel() } }

    /// The first stop signal received, if any.
    var received: Int32? { signalNumber.withLock { $0 } }
}

/// Prints what the controller reports: with `--json`, one JSON object a line (`{"items": [...]}`
/// first, then `{"changes": [...]}` per batch, see `writeJSON(_:)`), or one line per change
/// for people.
final class WatchPrinter: FetchedResultsControllerDelegate {
    let json: Bool
    var out: OutputStream
    let text: TodoText
    /// The todo with an id as stored now, to tell a todo that left a filtered list (done
    /// under `--undone`) from one that was deleted.
    let current: (Int64) -> Todo?
    /// The todos' UIDs for `--json`.
    let uids: WatchUIDs?

    init(
        json: Bool, out: OutputStream, text: TodoText, current: @escaping (Int64) -> Todo?, uids: WatchUIDs? = nil
    ) {
        self.json = json
        self.out = out
        self.text = text
        self.current = current
        self.uids = uids
    }

    /// The results in tree order (subtasks indented under their parents, as `todo list` shows
    /// them; with `--json`, each object with its `"depth"`).
    func printInitial(_ controller: FetchedResultsController) {
        // Without a tree, the results as they are (not copied into rows), each at depth 0.
        let tree = controller.tree
        let todos = tree?.rows.map(\.todo) ?? controller.fetchedObjects
        func depth(_ todo: Todo) -> Int { tree?.item(withID: todo.id)?.depth ?? 0 }
        if json {
            out.write(
                "{\"items\": ["
                    + todos.map { JSON.object($0, uid: uids?.uid(of: $0.id, inListing: true), depth: depth($0)) }
                    .joined(separator: ", ")
                    + "]}\n")
        } else {
            // As in `todo list`, the id column is as wide as the widest id listed. The lines
            // that follow are one-line summaries (`+ 1234  name`), not columns, so a larger id
            // arriving later has nothing to widen.
            let text = text.fitting(maxID: todos.lazy.map(\.id).max() ?? 0, showsTimes: todos.hasDueTimes)
            for todo in todos { text.writeRow(todo, depth: depth(todo), to: &out) }
            if todos.isEmpty { out.write("No todos.\n") }
            out.write("Watching for changes (Ctrl-C to stop)...\n")
        }
        out.flush()
    }

    func controller(_ controller: FetchedResultsController, didChangeContentWith batch: FetchedResultsBatch) {
        if json {
            // In tree order when the results have subtasks (or had them before this commit);
            // otherwise the flat difference is the tree's, every todo at depth 0.
            if let tree = batch.tree {
                writeJSON(tree.difference) { ($0.todo, $0.depth) }
            } else {
                writeJSON(batch.difference) { ($0, 0) }
            }
        } else {
            writeText(batch)
        }
        out.flush()
    }

    /// `{"changes": [...]}`: deletes, inserts, moves, updates, with indexes in the list as shown
    /// (tree order), each todo with its depth.
    private func writeJSON<Row>(
        _ difference: SnapshotDifference<String, Row>, _ row: (Row) -> (todo: Todo, depth: Int)
    ) {
        func object(_ item: Row) -> String {
            let (todo, depth) = row(item)
            return JSON.object(todo, uid: uids?.uid(of: todo.id, inListing: false), depth: depth)
        }
        var changes: [String] = []
        changes += difference.itemDeletes.map { "{\"type\": \"delete\", \"id\": \($0.id), \"from\": \($0.from.item)}" }
        changes += difference.itemInserts.map {
            "{\"type\": \"insert\", \"id\": \(row($0.item).todo.id), \"to\": \($0.to.item), \"todo\": \(object($0.item))}"
        }
        changes += difference.itemMoves.map {
            "{\"type\": \"move\", \"id\": \(row($0.item).todo.id), \"from\": \($0.from.item), \"to\": \($0.to.item), \"todo\": \(object($0.item))}"
        }
        changes += difference.itemUpdates.map {
            "{\"type\": \"update\", \"id\": \(row($0.item).todo.id), \"from\": \($0.from.item), \"to\": \($0.to.item), \"todo\": \(object($0.item))}"
        }
        out.write("{\"changes\": [" + changes.joined(separator: ", ") + "]}\n")
    }

    /// One line per todo that changed: `+` added, `-` deleted, `✓` done, `○` undone, `~` edited.
    /// A move whose content did not change is a side effect of another change and is not shown.
    private func writeText(_ batch: FetchedResultsBatch) {
        let difference = batch.difference
        for change in difference.itemDeletes {
            let old = batch.previous.item(at: change.from)
            // Gone from the list but not from the file: it left the filter (done, undone,
            // renamed out of a search, its deadline moved), and reads as that change.
            if let now = current(old.id) {
                out.write(text.summary(Self.mark(old, now), now))
            } else {
                out.write(text.summary("-", old))
            }
        }
        for change in difference.itemInserts { out.write(text.summary("+", change.item)) }
        let edited = difference.itemMoves.map(\.item) + difference.itemUpdates.map(\.item)
        for todo in edited {
            guard let old = batch.previous.item(withID: todo.id), old != todo else { continue }
            out.write(text.summary(Self.mark(old, todo), todo))
        }
    }

    /// `✓` completed, `○` undone, `~` otherwise edited (started, stopped, cancelled too).
    static func mark(_ old: Todo, _ new: Todo) -> String {
        TodoStatus.completion(from: old.status, to: new.status).map { $0 ? "✓" : "○" } ?? "~"
    }
}

extension Sequence<Todo> {
    /// Whether a todo among these has a time of day: whether their rows need a time column.
    var hasDueTimes: Bool { contains { $0.dueTime != nil } }
}
