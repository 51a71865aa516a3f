import TodoObservation
import TodoSnapshot
import TodoStore

/// A delegate that writes down every callback, in order, as short strings.
final class Recorder: FetchedResultsControllerDelegate {
    var events: [String] = []
    var batches: [FetchedResultsBatch] = []

    func controllerWillChangeContent(_ controller: FetchedResultsController) { events.append("will") }

    func controller(
        _ controller: FetchedResultsController, didChangeSection name: String,
        atSectionIndex sectionIndex: Int?, for type: FetchedResultsChangeType, newSectionIndex: Int?
    ) {
        events.append(
            "section \(type) \(name) \(sectionIndex.map(String.init) ?? "-")->\(newSectionIndex.map(String.init) ?? "-")"
        )
    }

    func controller(
        _ controller: FetchedResultsController, didChange todo: Todo, at indexPath: SnapshotIndexPath?,
        for type: FetchedResultsChangeType, newIndexPath: SnapshotIndexPath?
    ) {
        func text(_ path: SnapshotIndexPath?) -> String { path.map { "\($0.section).\($0.item)" } ?? "-" }
        events.append("\(type) \(todo.id) \(text(indexPath))->\(text(newIndexPath))")
    }

    func controllerDidChangeContent(_ controller: FetchedResultsController) { events.append("did") }

    func controller(_ controller: FetchedResultsController, didChangeContentWith batch: FetchedResultsBatch) {
        batches.append(batch)
    }

    /// "lists NAME,NAME": the lists told, by name in display order.
    func controller(_ controller: FetchedResultsController, didChangeLists lists: [TodoList]) {
        events.append("lists " + lists.map(\.name).joined(separator: ","))
    }

    /// The object changes only (no will/did/section lines).
    var objectChanges: [String] {
        events.filter { !["will", "did"].contains($0) && !$0.hasPrefix("section") }
    }
}
