import TodoObservation
import TodoSnapshot
import TodoStore

/// The todos a ``UIList`` shows, as the controller keeps them: whole todos (a snapshot, as a
/// first screen's preview and the unit tests give), or their keys (what `todo ui` keeps of a
/// list: ids and what places them, the rows read by id when shown, ``UIRowSource``).
enum UIResults {
    case todos(TodoResultsSnapshot)
    case keys(TodoKeyResults)

    /// The number of todos.
    var count: Int {
        switch self {
        case .todos(let results): results.numberOfItems
        case .keys(let results): results.count
        }
    }

    /// The id of the todo at `offset` (in `0 ..< count`). O(log n).
    func id(at offset: Int) -> Int64 {
        switch self {
        case .todos(let results): results.item(at: SnapshotIndexPath(section: 0, item: offset)).id
        case .keys(let results): results.ids[offset]
        }
    }

    /// Where todo `id` is, nil when absent. O(log n).
    func index(of id: Int64) -> Int? {
        switch self {
        case .todos(let results): results.index(ofItem: id)
        case .keys(let results): results.index(of: id)
        }
    }

    /// Whether todo `id` is among them. O(1).
    func contains(_ id: Int64) -> Bool {
        switch self {
        case .todos(let results): results.contains(itemWithID: id)
        case .keys(let results): results.contains(id)
        }
    }

    /// What the order and the groupings compare of todo `id` (the whole todo, or its key todo,
    /// which compares and groups as the whole one), nil when absent. O(1).
    func record(withID id: Int64) -> Todo? {
        switch self {
        case .todos(let results): results.item(withID: id)
        case .keys(let results): results.todo(withID: id)
        }
    }

    /// Whether they are in the order the comparator expects (else they are never patched).
    var isOrdered: Bool {
        switch self {
        case .todos(let results): results.isOrdered
        case .keys(let results): results.isOrdered
        }
    }

    /// Every record (``record(withID:)``), in order.
    var records: AnySequence<Todo> {
        switch self {
        case .todos(let results):
            AnySequence(results.numberOfSections > 0 ? results.list(inSection: 0) : ChunkedList())
        case .keys(let results): AnySequence(results.todos)
        }
    }

    /// Every id, in order.
    var ids: [Int64] {
        switch self {
        case .todos(let results): results.numberOfSections > 0 ? results.list(inSection: 0).map(\.id) : []
        case .keys(let results): Array(results.ids)
        }
    }

    /// The whole-todo snapshot, empty for keys.
    var snapshot: TodoResultsSnapshot? {
        guard case .todos(let results) = self else { return nil }
        return results
    }
}

/// "All"'s tree, as the controller keeps it: tree rows of whole todos, or the tree of keys with
/// the results it is read through.
enum UITree {
    case rows(TodoTreeSnapshot)
    case keys(TodoKeyTree, TodoKeyResults)

    var count: Int {
        switch self {
        case .rows(let tree): tree.numberOfItems
        case .keys(let tree, _): tree.count
        }
    }

    func id(at offset: Int) -> Int64 {
        switch self {
        case .rows(let tree): tree.item(at: SnapshotIndexPath(section: 0, item: offset)).id
        case .keys(let tree, _): tree.ids[offset]
        }
    }

    func index(of id: Int64) -> Int? {
        switch self {
        case .rows(let tree): tree.index(ofItem: id)
        case .keys(let tree, let results): tree.index(of: id, in: results)
        }
    }

    func depth(of id: Int64) -> Int {
        switch self {
        case .rows(let tree): tree.item(withID: id)?.depth ?? 0
        case .keys(let tree, _): tree.depth(of: id)
        }
    }

    /// The todo `id` is under, nil at the top.
    func parentID(of id: Int64) -> Int64? {
        switch self {
        case .rows(let tree): tree.item(withID: id)?.parentID
        case .keys(let tree, let results): tree.depth(of: id) > 0 ? results.parentID(of: id) : nil
        }
    }

    /// The todos above `id`, the top one first; nil when `id` is not in the tree.
    func ancestors(of id: Int64) -> [Int64]? {
        switch self {
        case .rows(let tree): tree.item(withID: id)?.ancestors.map(\.id)
        case .keys(let tree, let results): results.contains(id) ? tree.ancestors(of: id, in: results) : nil
        }
    }
}

/// The rows of the todos shown, read by id from the database when a line needs one and kept
/// for the next frames, as `NSFetchedResultsController` faults in the objects shown: what
/// `todo ui` holds of the todos themselves, a few screens' worth, whatever the list's size.
///
/// The owner forgets the rows a batch names (``forget(_:)``) and, when a batch names none
/// (the results were read whole), all of them.
final class UIRowSource {
    /// Where rows are read: the controller's repository (it follows a replaced file).
    var repository: TodoRepository
    private var cache: [Int64: Todo] = [:]
    /// Rows kept at most: a few screens; past it the cache starts again.
    static let limit = 2_048

    init(repository: TodoRepository) { self.repository = repository }

    /// The row of todo `id`, nil when it cannot be read (gone since, or the file failed).
    func todo(_ id: Int64) -> Todo? {
        if let todo = cache[id] { return todo }
        guard let todo = try? repository.todo(id: id) else { return nil }
        if cache.count >= Self.limit { cache.removeAll(keepingCapacity: true) }
        cache[id] = todo
        return todo
    }

    func forget(_ ids: some Sequence<Int64>) {
        for id in ids { cache[id] = nil }
    }

    func forgetAll() { cache.removeAll() }
}
