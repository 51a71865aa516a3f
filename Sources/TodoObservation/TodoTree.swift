import TodoSnapshot
import TodoStore

/// One todo of a controller's results in tree order: the todo, how deep it is, and the todo it
/// is under (by the tree rule, `TodoOutline`: a parent among the results, in the same list and
/// the same section, else the top level).
///
/// Identified by the todo's id alone, so a todo that changed parent or level is the same row,
/// moved or updated, never deleted and inserted again.
public struct TodoTreeRow: Identifiable, Equatable, Sendable {
    /// The todo.
    public let todo: Todo
    /// 0 at the top level, 1 for a subtask, and so on.
    public let depth: Int
    /// The id of the todo it is under, nil at the top level.
    public let parentID: Int64?
    /// The todos above it, the top one first (`depth` of them): what tree order compares. A
    /// todo sorts where its top ancestor does, then under each ancestor where it does among
    /// its siblings. Not compared by `==`: an edit of a parent that moves nothing changes no
    /// row under it.
    public let ancestors: [Todo]

    /// A row; `ancestors` are the todos above `todo`, the top one first.
    public init(todo: Todo, ancestors: [Todo]) {
        self.todo = todo
        self.depth = ancestors.count
        self.parentID = ancestors.last?.id
        self.ancestors = ancestors
    }

    /// The todo's id.
    public var id: Int64 { todo.id }

    /// Equal when the todo, its depth and its parent are: what a list of rows shows.
    public static func == (lhs: TodoTreeRow, rhs: TodoTreeRow) -> Bool {
        lhs.todo == rhs.todo && lhs.depth == rhs.depth && lhs.parentID == rhs.parentID
    }

    /// The todo at `level` of the path from the top to this row (`depth`: the todo itself).
    @inlinable
    func pathTodo(_ level: Int) -> Todo { level < ancestors.count ? ancestors[level] : todo }
}

/// A controller's results in tree order (``FetchedResultsController/tree``): the sections of
/// its results, each a tree, depth first, siblings in the request's order. A `SortedSnapshot`
/// like the results, ordered by each row's path, so a commit that changes k todos moves their
/// rows (and those under them) by binary search and the difference is derived from them.
public typealias TodoTreeSnapshot = SortedSnapshot<String, TodoTreeRow>

/// The tree before and after one commit, and their difference in tree order (indexes among
/// the rows in tree order): a todo that only changed parent or level is a move or an update.
public struct TodoTreeChange: Sendable {
    /// The rows before the change.
    public let previous: TodoTreeSnapshot
    /// The rows after the change.
    public let snapshot: TodoTreeSnapshot
    /// The changes from ``previous``: never empty when the tree changed.
    public let difference: SnapshotDifference<String, TodoTreeRow>
}

extension SortedSnapshot where SectionID == String, Item == TodoTreeRow {
    /// Rows of results fetched in `order` and grouped as `sectioning` says, given in tree
    /// order (each section a tree, depth first). O(n).
    public init(
        order: TodoFetchRequest.Order, sectioning: FetchedResultsController.Sectioning = .none,
        rows: [TodoTreeRow] = []
    ) {
        // Paths compared level by level: the first todos that differ decide, by the request's
        // order; a row whose path is a prefix of another's is that one's ancestor, and first.
        let areInIncreasingOrder: @Sendable (TodoTreeRow, TodoTreeRow) -> Bool = { a, b in
            for level in 0...min(a.depth, b.depth) {
                let x = a.pathTodo(level)
                let y = b.pathTodo(level)
                if x.id != y.id { return order.areInIncreasingOrder(x, y) }
            }
            return a.depth < b.depth
        }
        let layout: Layout
        switch sectioning {
        case .none:
            layout = .single("All", areInIncreasingOrder: areInIncreasingOrder)
        case .byDoneState:
            layout = Layout(
                sections: TodoGroup.doneStates.map(\.title), keepsEmptySections: false,
                section: { TodoGroup(isDone: $0.todo.isDone) == .undone ? 0 : 1 },
                areInIncreasingOrder: areInIncreasingOrder)
        }
        self.init(layout: layout, items: rows)
    }

    /// The tree of `results` (a controller's, in `order` and `sectioning`): each section's todos
    /// arranged by the tree rule, ``TodoOutline``, which also cuts a loop a damaged file holds.
    /// O(n).
    static func tree(
        of results: TodoResultsSnapshot, order: TodoFetchRequest.Order,
        sectioning: FetchedResultsController.Sectioning
    ) -> TodoTreeSnapshot {
        var rows: [TodoTreeRow] = []
        rows.reserveCapacity(results.numberOfItems)
        for section in 0..<results.numberOfSections {
            var above: [Todo] = []
            for row in TodoOutline(Array(results.list(inSection: section))).rows {
                above.removeLast(max(0, above.count - row.depth))
                rows.append(TodoTreeRow(todo: row.todo, ancestors: above))
                above.append(row.todo)
            }
        }
        return TodoTreeSnapshot(order: order, sectioning: sectioning, rows: rows)
    }

    /// `results` as a tree without subtasks: every todo at the top level. O(n).
    static func flat(
        of results: TodoResultsSnapshot, order: TodoFetchRequest.Order,
        sectioning: FetchedResultsController.Sectioning
    ) -> TodoTreeSnapshot {
        TodoTreeSnapshot(
            order: order, sectioning: sectioning, rows: results.items.map { TodoTreeRow(todo: $0, ancestors: []) })
    }

    /// The rows in tree order, section after section. O(n).
    public var rows: [TodoTreeRow] { items }
}

/// What a ``FetchedResultsController`` keeps of the tree between commits: the stored parent
/// links among its results, and the tree itself while any todo of them has a parent. Owned by
/// the controller, on its thread.
///
/// Why so: most files have no subtask, and their commits must stay O(k) (k todos changed),
/// never O(n); a file without links keeps no tree at all (``snapshot`` is nil, and the tree is
/// the flat results). With links, a commit re-reads the rows of the changed todos and of every
/// todo under them (their paths moved), O((k + s) (d + log n)) for s todos under them and trees
/// d deep; building the tree whole (the first commit that brings a link, the last that takes
/// one away, a loop, a refetch) is O(n).
struct TodoTreeState {
    /// The results' order and sectioning, the tree's too.
    let order: TodoFetchRequest.Order
    let sectioning: FetchedResultsController.Sectioning
    /// Every todo of the results that has a ``Todo/parentID``, by that parent's id, whether or
    /// not the parent is among the results: who may move when a todo comes, goes or changes.
    private var children: [Int64: [Int64]] = [:]
    /// The tree, nil while ``children`` is empty.
    private(set) var snapshot: TodoTreeSnapshot?

    init(order: TodoFetchRequest.Order, sectioning: FetchedResultsController.Sectioning) {
        self.order = order
        self.sectioning = sectioning
    }

    /// Takes `results` whole (a fetch): O(n) to find the links, O(n) more to build the tree
    /// when there are some.
    mutating func reset(to results: TodoResultsSnapshot) {
        children = [:]
        for section in 0..<results.numberOfSections {
            for todo in results.list(inSection: section) {
                if let parent = todo.parentID { children[parent, default: []].append(todo.id) }
            }
        }
        snapshot = children.isEmpty ? nil : .tree(of: results, order: order, sectioning: sectioning)
    }

    /// Follows the results from `old` to `new`, which differ at most in the todos `changed`
    /// names (nil: unknown, as after a refetch that could not tell), and returns how the tree
    /// changed; nil when neither side has a link (the flat results' difference says it all).
    mutating func update(from old: TodoResultsSnapshot, to new: TodoResultsSnapshot, changed: [Int64]?)
        -> TodoTreeChange?
    {
        guard let changed else {
            let previous = snapshot ?? .flat(of: old, order: order, sectioning: sectioning)
            reset(to: new)
            return whole(from: previous, to: new)
        }
        for id in changed {
            if let parent = old.item(withID: id)?.parentID { unlink(id, from: parent) }
            if let parent = new.item(withID: id)?.parentID { children[parent, default: []].append(id) }
        }
        guard let previous = snapshot else {
            guard !children.isEmpty else { return nil }
            // The first link: the tree is built whole, once.
            snapshot = .tree(of: new, order: order, sectioning: sectioning)
            return whole(from: .flat(of: old, order: order, sectioning: sectioning), to: new)
        }
        guard !children.isEmpty else {
            // The last link gone: no tree kept from now on.
            snapshot = nil
            return whole(from: previous, to: new)
        }
        // The changed todos and every todo under them (by the stored links, so a todo whose
        // parent came, went or moved is among them), each once.
        var affected: [Int64] = []
        var seen = Set<Int64>()
        var pending = changed
        while let id = pending.popLast() {
            guard seen.insert(id).inserted else { continue }
            affected.append(id)
            if let under = children[id] { pending.append(contentsOf: under) }
        }
        var rows: [Int64: TodoTreeRow?] = [:]
        rows.reserveCapacity(affected.count)
        for id in affected {
            guard let todo = new.item(withID: id) else {
                rows.updateValue(nil, forKey: id)
                continue
            }
            // A loop (a damaged file): the tree is built whole, which cuts it.
            guard let row = row(of: todo, in: new) else { return rebuild(from: previous, to: new) }
            rows.updateValue(row, forKey: id)
        }
        guard let patched = previous.applying(rows),
            let difference = patched.difference(from: previous, changed: rows.keys)
        else { return rebuild(from: previous, to: new) }
        snapshot = patched
        return TodoTreeChange(previous: previous, snapshot: patched, difference: difference)
    }

    /// The row of `todo` in `results` by the tree rule, nil when walking up from it meets a
    /// todo twice (a loop). O(depth).
    private func row(of todo: Todo, in results: TodoResultsSnapshot) -> TodoTreeRow? {
        let byDoneState = sectioning == .byDoneState
        var above: [Todo] = []
        var met: Set<Int64>?
        var current = todo
        // A parent counts when it is among the results in the same section (and, the rule says,
        // the same list).
        while let parent = TodoOutline.parent(
            of: current,
            among: { id in results.item(withID: id).flatMap { !byDoneState || $0.isDone == todo.isDone ? $0 : nil } })
        {
            if parent.id == todo.id { return nil }
            // Short paths are searched; a long one gets a set.
            if above.count < 16 {
                if above.contains(where: { $0.id == parent.id }) { return nil }
            } else {
                if met == nil { met = Set(above.map(\.id)) }
                guard met?.insert(parent.id).inserted == true else { return nil }
            }
            above.append(parent)
            current = parent
        }
        return TodoTreeRow(todo: todo, ancestors: above.reversed())
    }

    private mutating func unlink(_ id: Int64, from parent: Int64) {
        guard var under = children[parent], let index = under.firstIndex(of: id) else { return }
        under.remove(at: index)
        children[parent] = under.isEmpty ? nil : under
    }

    /// Builds the tree of `new` whole and reports it against `previous`.
    private mutating func rebuild(from previous: TodoTreeSnapshot, to new: TodoResultsSnapshot) -> TodoTreeChange? {
        snapshot = .tree(of: new, order: order, sectioning: sectioning)
        return whole(from: previous, to: new)
    }

    /// The change from `previous` to the current tree (or `new` flat, without one), found by
    /// comparing them whole: O(n). (Not by merging the two sorted lists, as the results'
    /// refetch does: a row's place depends on the rows above it, so the two sides are not in
    /// one order.)
    private func whole(from previous: TodoTreeSnapshot, to new: TodoResultsSnapshot) -> TodoTreeChange? {
        let current = snapshot ?? .flat(of: new, order: order, sectioning: sectioning)
        let difference = current.snapshot.difference(from: previous.snapshot)
        guard !difference.isEmpty else { return nil }
        return TodoTreeChange(previous: previous, snapshot: current, difference: difference)
    }
}
