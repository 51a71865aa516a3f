import Dispatch
import TodoObservation
import TodoSnapshot
import TodoStore

#if canImport(Glibc)
import Glibc
#endif

extension Command {
    /// `todo watch [--json]`: the list, then one line per committed change, from any process.
    static let watch = Command(
        spec: CommandSpec(
            name: "watch",
            abstract: "Show the list, then every change to it as it is committed, by any program.",
            options: [
                .init(name: "--sort", value: "order", help: "due (the default), name or status."),
                .init(name: "--done", value: nil, help: "Only todos that are done."),
                .init(name: "--undone", value: nil, help: "Only todos that are not done."),
                .init(name: "--json", value: nil, help: "Print {\"items\": [...]}, then one {\"changes\": [...]} line per transaction."),
            ],
            discussion: """
                Changes made by another todo, the sqlite3 shell or any SQLite client appear as they are
                committed. In text, '+' is a new todo, '-' a deleted one, '✓' done, '○' undone, '~' edited.
                With --json, each change is {"type": "insert"|"delete"|"move"|"update", "id", "from",
                "to", "todo"}, with UIKit batch-update index semantics. Ctrl-C stops.
                """,
            examples: ["todo watch", "todo watch --json"]
        ),
        run: { (context) throws(CLIError) in
            let request = try context.fetchRequest()
            let repository = try context.openRepository()
            let controller = FetchedResultsController(repository: repository, fetchRequest: request)
            let text = context.text(maxID: try context.perform { () throws(TodoStoreError) in try repository.maxID() })
            let printer = WatchPrinter(json: context.arguments.flag("--json"), out: context.out, text: text)
            controller.delegate = printer
            try context.perform { () throws(TodoStoreError) in try controller.performFetch() }
            printer.printInitial(controller.fetchedObjects)

            let wake = DispatchSemaphore(value: 0)
            let monitor: DatabaseFileMonitor
            do throws(DatabaseFileMonitor.Failure) {
                monitor = try DatabaseFileMonitor(databasePath: repository.connection.path) { wake.signal() }
            } catch {
                throw .failure("cannot watch \(error.path): \(String(cString: strerror(error.errno)))")
            }
            let stop = StopSignals.install()
            defer { withExtendedLifetime((monitor, stop)) {} }
            while true {
                wake.wait()
                _ = try context.perform { () throws(TodoStoreError) in try controller.processExternalChanges() }
            }
        }
    )
}

/// Ends `todo watch` cleanly on Ctrl-C (status 130) and SIGTERM (143): output is written as
/// each change is printed, so there is nothing left to flush.
enum StopSignals {
    static func install() -> [any DispatchSourceSignal] {
        [(SIGINT, 130), (SIGTERM, 143)].map { signalNumber, status in
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { exit(Int32(status)) }
            source.resume()
            return source
        }
    }
}

/// Prints what the controller reports: the BRIEF's JSON lines, or one line per change for people.
final class WatchPrinter: FetchedResultsControllerDelegate {
    let json: Bool
    var out: OutputStream
    let text: TodoText

    init(json: Bool, out: OutputStream, text: TodoText) {
        self.json = json
        self.out = out
        self.text = text
    }

    func printInitial(_ todos: [Todo]) {
        if json {
            out.write("{\"items\": [" + todos.map(JSON.object).joined(separator: ", ") + "]}\n")
        } else {
            for todo in todos { text.writeRow(todo, to: &out) }
            if todos.isEmpty { out.write("No todos.\n") }
            out.write("Watching for changes (Ctrl-C to stop)...\n")
        }
        out.flush()
    }

    func controller(_ controller: FetchedResultsController, didChangeContentWith batch: FetchedResultsBatch) {
        if json { writeJSON(batch.difference) } else { writeText(batch) }
        out.flush()
    }

    /// `{"changes": [...]}`: deletes, inserts, moves, updates, with flat list indexes.
    private func writeJSON(_ difference: SnapshotDifference<String, Todo>) {
        var changes: [String] = []
        changes += difference.itemDeletes.map { "{\"type\": \"delete\", \"id\": \($0.id), \"from\": \($0.from.item)}" }
        changes += difference.itemInserts.map {
            "{\"type\": \"insert\", \"id\": \($0.item.id), \"to\": \($0.to.item), \"todo\": \(JSON.object($0.item))}"
        }
        changes += difference.itemMoves.map {
            "{\"type\": \"move\", \"id\": \($0.item.id), \"from\": \($0.from.item), \"to\": \($0.to.item), \"todo\": \(JSON.object($0.item))}"
        }
        changes += difference.itemUpdates.map {
            "{\"type\": \"update\", \"id\": \($0.item.id), \"from\": \($0.from.item), \"to\": \($0.to.item), \"todo\": \(JSON.object($0.item))}"
        }
        out.write("{\"changes\": [" + changes.joined(separator: ", ") + "]}\n")
    }

    /// One line per todo that changed: `+` added, `-` deleted, `✓` done, `○` undone, `~` edited.
    /// A move whose content did not change is a side effect of another change and is not shown.
    private func writeText(_ batch: FetchedResultsBatch) {
        let difference = batch.difference
        for change in difference.itemDeletes {
            out.write(TodoText.summary("-", batch.previous.item(at: change.from)))
        }
        for change in difference.itemInserts { out.write(TodoText.summary("+", change.item)) }
        let edited = difference.itemMoves.map(\.item) + difference.itemUpdates.map(\.item)
        for todo in edited {
            guard let old = batch.previous.item(withID: todo.id), old != todo else { continue }
            let mark = old.isDone == todo.isDone ? "~" : (todo.isDone ? "✓" : "○")
            out.write(TodoText.summary(mark, todo))
        }
    }
}
