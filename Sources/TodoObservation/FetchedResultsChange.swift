import TodoSnapshot
import TodoStore

/// The snapshot type a ``FetchedResultsController`` publishes: sections named by string
/// ("All", or "Undone" and "Done"), todos as items identified by their id, each section in the
/// request's order. A `SortedSnapshot`: reading by index path or id is O(log n), a copy
/// shares storage, and its `snapshot` property gives the plain `Snapshot` (O(n)).
public typealias TodoResultsSnapshot = SortedSnapshot<String, Todo>

extension SortedSnapshot where SectionID == String, Item == Todo {
    /// The results of a request fetched in `order`, grouped as `sectioning` says: one section
    /// "All", always shown; or "Undone" then "Done", each shown while it has todos.
    /// `todos` are in `order`, as the repository fetches them. O(n).
    public init(
        order: TodoFetchRequest.Order, sectioning: FetchedResultsController.Sectioning = .none,
        todos: [Todo] = []
    ) {
        let layout: Layout
        switch sectioning {
        case .none:
            layout = .single("All", areInIncreasingOrder: { order.areInIncreasingOrder($0, $1) })
        case .byDoneState:
            // The titles and the undone-first rule are the outline's (`TodoGroup`).
            layout = Layout(
                sections: TodoGroup.doneStates.map(\.title), keepsEmptySections: false,
                section: { TodoGroup(isDone: $0.isDone) == .undone ? 0 : 1 },
                areInIncreasingOrder: { order.areInIncreasingOrder($0, $1) })
        }
        self.init(layout: layout, items: todos)
    }
}

/// What kind of change a delegate callback reports, in `NSFetchedResultsChangeType`'s words.
public enum FetchedResultsChangeType: Sendable, Equatable {
    /// New at the new index path.
    case insert
    /// Gone from the old index path.
    case delete
    /// Moved from the old index path to the new one; its content may have changed too.
    case move
    /// Same place in the list (its index may shift with other changes), content changed.
    case update
}

/// One committed transaction's effect on the results: the new snapshot and the exact,
/// minimal difference from the previous one.
///
/// The difference follows UIKit's batch-update semantics (see `SnapshotDifference`):
/// applying it to the previous snapshot gives ``snapshot`` exactly.
public struct FetchedResultsBatch: Sendable {
    /// The results before the change (they share storage with the new ones: a change copies
    /// only the parts it touched).
    public let previous: TodoResultsSnapshot
    /// The results after the change.
    public let snapshot: TodoResultsSnapshot
    /// The changes from the previous results; never empty.
    public let difference: SnapshotDifference<String, Todo>
    /// The same change in tree order (``FetchedResultsController/tree``): nil when neither the
    /// previous results nor the new ones have a subtask (the tree is then the flat results,
    /// every todo at the top level, and ``difference`` says it all), or when the tree did not
    /// change.
    public let tree: TodoTreeChange?

    /// A batch from its parts.
    public init(
        previous: TodoResultsSnapshot, snapshot: TodoResultsSnapshot, difference: SnapshotDifference<String, Todo>,
        tree: TodoTreeChange? = nil
    ) {
        self.previous = previous
        self.snapshot = snapshot
        self.difference = difference
        self.tree = tree
    }
}

/// Receives a controller's change notifications, in the order `NSFetchedResultsController`
/// users know: will-change, section changes, object changes, did-change, then the
/// snapshot-and-difference form. Every method has an empty default.
///
/// Threading: called on the controller's thread, synchronously, once per committed
/// transaction that changed the results, never for one that changed nothing they show.
///
/// When: for a write through the controller's repository, after the writing call (`add`,
/// `setDone`, a `transaction`...) has finished and has its result, before it returns to its
/// caller; for other connections' commits, inside
/// ``FetchedResultsController/processExternalChanges()``. Never nested: one will/did pair at a
/// time, batches in commit order, whoever committed.
///
/// What a callback may do: read the controller and the repository; write through the
/// repository, and call ``FetchedResultsController/processExternalChanges()`` (what they bring
/// is reported in batches of its own, after this one's callbacks have all run); throw nothing
/// (errors have nowhere to go from a notification: keep them in the app). It must not call
/// ``FetchedResultsController/performFetch()`` from inside a callback.
public protocol FetchedResultsControllerDelegate: AnyObject {
    /// A batch of changes is about to be reported.
    func controllerWillChangeContent(_ controller: FetchedResultsController)
    /// A section appeared, disappeared or moved (only with sectioning by done state).
    func controller(
        _ controller: FetchedResultsController, didChangeSection name: String,
        atSectionIndex sectionIndex: Int?, for type: FetchedResultsChangeType, newSectionIndex: Int?)
    /// One todo changed. `indexPath` is in the old results (nil for an insert), `newIndexPath`
    /// in the new ones (nil for a delete). For a delete `todo` is the todo as it was.
    func controller(
        _ controller: FetchedResultsController, didChange todo: Todo,
        at indexPath: SnapshotIndexPath?, for type: FetchedResultsChangeType,
        newIndexPath: SnapshotIndexPath?)
    /// The batch is complete; `fetchedObjects` and `sections` already hold the new results.
    func controllerDidChangeContent(_ controller: FetchedResultsController)
    /// The batch as one value: the new snapshot and its difference from the previous one.
    func controller(_ controller: FetchedResultsController, didChangeContentWith batch: FetchedResultsBatch)
    /// Bringing the results up to date after a commit failed (a busy or failing disk, say).
    /// The results stay as last reported; the next change, or the next
    /// ``FetchedResultsController/processExternalChanges()``, refetches them whole.
    func controller(_ controller: FetchedResultsController, didFailToRefreshWith error: TodoStoreError)
    /// The lists changed (by any program): `lists` are all of them now, in display order, as
    /// ``FetchedResultsController/lists`` holds them. Told before the batch of the same commit
    /// (a list made with todos moved into it: the lists first), on the same thread and under
    /// the same rules as a batch. A grouping by list (`TodoGrouping.byList(_:)`) rebuilt
    /// from them keeps each list's group, keyed by its id: a rename re-titles it.
    func controller(_ controller: FetchedResultsController, didChangeLists lists: [TodoList])
    /// The batch of a controller in ``FetchedResultsController/Rows/keys(_:)`` (which tells
    /// no other content callback), on the same thread and under the same rules.
    func controller(_ controller: FetchedResultsController, didChangeKeysWith batch: TodoKeyBatch)
}

extension FetchedResultsControllerDelegate {
    public func controllerWillChangeContent(_ controller: FetchedResultsController) {}
    public func controller(
        _ controller: FetchedResultsController, didChangeSection name: String,
        atSectionIndex sectionIndex: Int?, for type: FetchedResultsChangeType, newSectionIndex: Int?
    ) {}
    public func controller(
        _ controller: FetchedResultsController, didChange todo: Todo,
        at indexPath: SnapshotIndexPath?, for type: FetchedResultsChangeType,
        newIndexPath: SnapshotIndexPath?
    ) {}
    public func controllerDidChangeContent(_ controller: FetchedResultsController) {}
    public func controller(_ controller: FetchedResultsController, didChangeContentWith batch: FetchedResultsBatch) {}
    public func controller(_ controller: FetchedResultsController, didFailToRefreshWith error: TodoStoreError) {}
    public func controller(_ controller: FetchedResultsController, didChangeLists lists: [TodoList]) {}
    public func controller(_ controller: FetchedResultsController, didChangeKeysWith batch: TodoKeyBatch) {}
}
