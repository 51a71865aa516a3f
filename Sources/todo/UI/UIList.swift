import TodoObservation
import TodoSnapshot
import TodoStore

typealias UIRowID = TodoRowID<Int64>

/// The rows `todo ui` shows, as the sample app's collection view does: the "All" section (every
/// todo, flat, fetch order), then the "Outline" section with its "Undone" and "Done" group rows,
/// each followed by its todos while expanded. Either section can be hidden (``sections``).
///
/// Built from the controller's flat snapshot without building a second, row-level snapshot
/// (a `SectionSnapshot` of the outline hashes every row on every change, which cost most of a
/// key press at 100,000 todos; the outline's expansion is just which of the two groups is open):
/// "All" rows are read from it by offset, each group is one list in the request's order, and a
/// line's position is arithmetic on their counts.
///
/// Complexity: reading a line O(log n), so a window costs its own size; finding a row's line
/// O(log n); a change of k todos, ``apply(_:)``, O(k log n) (each group is a `ChunkedList` of
/// ids, in the request's order, patched by binary search as the controller patches its
/// snapshot); building it O(n), once per fetch. Ids rather than todos, because copying a
/// todo retains its name: grouping 1,000,000 ids takes ~12 ms, the todos themselves ~60.
struct UIList {
    /// One line of the list.
    enum Entry {
        case sectionHeader(TodoSection)
        case group(TodoGroup)
        case todo(Todo, TodoSection)
    }

    /// The controller's results: one section, in the request's order.
    private(set) var results: TodoResultsSnapshot
    private let order: TodoFetchRequest.Order
    private var undone = ChunkedList<Int64>()
    private var done = ChunkedList<Int64>()
    private var expanded: Set<TodoGroup>
    /// The number of todos when `results` is only the head of the list (a first-screen preview).
    private let previewTotal: Int?
    /// The sections shown (`v` cycles them); a hidden section has no lines.
    var sections: UISections

    /// `results` must be a ``FetchedResultsController/Sectioning/none`` snapshot fetched in
    /// `order`; `expanded` is the outline's expansion state to keep (both groups at first).
    init(
        _ results: TodoResultsSnapshot, order: TodoFetchRequest.Order,
        expanded: Set<TodoGroup> = Set(TodoGroup.doneStates), sections: UISections = .both, previewTotal: Int? = nil
    ) {
        self.results = results
        self.sections = sections
        self.previewTotal = previewTotal
        self.order = order
        self.expanded = expanded
        regroup()
    }

    /// Sorts every todo into its group. O(n).
    private mutating func regroup() {
        undone = ChunkedList()
        done = ChunkedList()
        guard results.numberOfSections > 0 else { return }
        // The one grouping rule (the outline's, the controller's, `todo list --outline`'s).
        for todo in results.list(inSection: 0) {
            if TodoGroup(isDone: todo.isDone) == .done { done.append(todo.id) } else { undone.append(todo.id) }
        }
    }

    /// Takes in one change of the controller's results: the todos it names leave their group
    /// at their old place and join one at their new place. O(k log n) for k todos changed.
    mutating func apply(_ batch: FetchedResultsBatch) {
        apply(batch.snapshot, changed: batch.difference.itemIDs)
    }

    /// Takes in new results that differ from the current ones at most in the todos `changed`
    /// names (a batch, or a narrowing of one). O(k log n) for k todos.
    mutating func apply(_ newResults: TodoResultsSnapshot, changed: [Int64]) {
        // A preview holds only the first screen; the load's end replaces it whole.
        guard previewTotal == nil else { return }
        let previous = results
        results = newResults
        // Groups in an order the comparator does not share cannot be searched: rebuild them.
        guard previous.isOrdered, results.isOrdered else { return regroup() }
        // The groups are in the previous order until the changed todos are out, and in the new
        // one after: search each phase with the todos of its snapshot.
        for id in changed {
            if let old = previous.item(withID: id) {
                let group = TodoGroup(isDone: old.isDone)
                guard let offset = position(of: old, in: group, readingFrom: previous) else { return regroup() }
                if group == .done { done.remove(at: offset) } else { undone.remove(at: offset) }
            }
        }
        for id in changed {
            guard let new = results.item(withID: id) else { continue }
            let offset = insertionPoint(of: new, in: TodoGroup(isDone: new.isDone), readingFrom: results)
            if new.isDone { done.insert(id, at: offset) } else { undone.insert(id, at: offset) }
        }
    }

    /// The groups that show their todos.
    var expandedGroups: Set<TodoGroup> {
        get { expanded }
        set { expanded = newValue }
    }

    /// The number of todos.
    var todoCount: Int { count(of: .undone) + count(of: .done) }
    /// The lines of the "All" section: its header and every todo, none when it is hidden.
    private var allLineCount: Int { sections.showsAll ? 1 + todoCount : 0 }
    /// Where the "Outline" header is (when it is shown).
    var outlineHeaderIndex: Int { allLineCount }
    private var undoneRowIndex: Int { outlineHeaderIndex + 1 }
    private var doneRowIndex: Int { undoneRowIndex + 1 + (expanded.contains(.undone) ? undone.count : 0) }
    /// The number of lines, headers included.
    var count: Int {
        guard sections.showsOutline else { return allLineCount }
        return doneRowIndex + 1 + (expanded.contains(.done) ? done.count : 0)
    }

    /// The line at `index`. Precondition: `0 ..< count`.
    ///
    /// In a preview, a todo line past the fetched head reads as the section's header (never
    /// shown: the preview covers the first screen, and the whole list replaces it before any
    /// key is handled).
    func entry(at index: Int) -> Entry {
        if index < allLineCount {
            guard index > 0, index <= results.numberOfItems else { return .sectionHeader(.all) }
            return .todo(results.item(at: SnapshotIndexPath(section: 0, item: index - 1)), .all)
        }
        if index == outlineHeaderIndex { return .sectionHeader(.outline) }
        if index == undoneRowIndex { return .group(.undone) }
        if index == doneRowIndex { return .group(.done) }
        let (members, offset) =
            index < doneRowIndex ? (undone, index - undoneRowIndex - 1) : (done, index - doneRowIndex - 1)
        guard members.indices.contains(offset), let todo = results.item(withID: members[offset]) else {
            return .sectionHeader(.outline)
        }
        return .todo(todo, .outline)
    }

    /// The row identifier at `index`, nil for a section header.
    func id(at index: Int) -> UIRowID? {
        guard index > 0, index < count else { return nil }
        switch entry(at: index) {
        case .sectionHeader: return nil
        case .group(let group): return .group(group.id)
        case .todo(let todo, let section): return .todo(todo.id, section)
        }
    }

    /// Whether the line at `index` can hold the cursor (anything but a section header).
    func isSelectable(_ index: Int) -> Bool { id(at: index) != nil }

    /// The line of a row, nil when it is absent or hidden in a collapsed group.
    ///
    /// Complexity: O(1) for "All" and groups; O(log n) for an outline todo (binary search in
    /// its group, which is in the request's order).
    func index(of id: UIRowID) -> Int? {
        if case .todo(_, .all) = id {
            guard sections.showsAll else { return nil }
        } else {
            guard sections.showsOutline else { return nil }
        }
        switch id {
        case .group(TodoGroup.undone.id): return undoneRowIndex
        case .group(TodoGroup.done.id): return doneRowIndex
        case .todo(let todoID, .all):
            return results.index(ofItem: todoID).map { 1 + $0 }
        case .todo(let todoID, .outline):
            guard let todo = results.item(withID: todoID) else { return nil }
            let group = TodoGroup(isDone: todo.isDone)
            guard expanded.contains(group), let offset = position(of: todo, in: group) else { return nil }
            return (group == .undone ? undoneRowIndex : doneRowIndex) + 1 + offset
        // The ui shows the done-state outline only: no other group or member row is in it.
        case .group, .member: return nil
        }
    }

    /// The group an outline todo is in, nil when the list does not contain it.
    func group(ofTodo id: Int64) -> TodoGroup? {
        results.item(withID: id).map { TodoGroup(isDone: $0.isDone) }
    }

    /// The number of todos in a group.
    ///
    /// A preview does not know how its total splits (counting the done ones costs a scan of the
    /// table, 60 ms at 1,000,000 todos, more than the rest of the first frame): it counts every
    /// todo as undone. The group rows lie past its first screen (it has more todos than the
    /// screen has lines), so this only sizes the scrolling range, which comes out exact.
    func count(of group: TodoGroup) -> Int {
        if let previewTotal { return group == .undone ? previewTotal : 0 }
        return group == .undone ? undone.count : done.count
    }

    /// Whether a group shows its todos.
    func isExpanded(_ group: TodoGroup) -> Bool { expanded.contains(group) }

    /// Expands or collapses a group.
    mutating func setExpanded(_ group: TodoGroup, _ isExpanded: Bool) {
        if isExpanded { expanded.insert(group) } else { expanded.remove(group) }
    }

    /// Where `todo` is in its group. Binary search first, reading the members' todos from
    /// `snapshot` (the results whose order the group is in; the current ones by default); a
    /// linear scan backs it up in case the database's order and ours ever disagree (another
    /// program's data that sorts differently in SQL), so the cursor is never lost.
    private func position(of todo: Todo, in group: TodoGroup, readingFrom snapshot: TodoResultsSnapshot? = nil) -> Int?
    {
        let members = group == .undone ? undone : done
        let low = insertionPoint(of: todo, in: group, readingFrom: snapshot ?? results)
        if low < members.count, members[low] == todo.id { return low }
        return members.firstIndex(of: todo.id)
    }

    /// Where `todo` goes in its group: the first member that does not come before it.
    private func insertionPoint(of todo: Todo, in group: TodoGroup, readingFrom snapshot: TodoResultsSnapshot) -> Int {
        let members = group == .undone ? undone : done
        return members.lowerBound { id in
            // A member missing from the snapshot cannot happen; sorting it first keeps the
            // search total.
            guard let member = snapshot.item(withID: id) else { return true }
            return order.areInIncreasingOrder(member, todo)
        }
    }
}
