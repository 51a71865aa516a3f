import TodoSnapshot
import TodoStore

typealias UIRowID = TodoRowID<Int64>

/// The rows `todo ui` shows, as the sample app's collection view does: the "All" section (every
/// todo, flat, fetch order), then the "Outline" section with its "Undone" and "Done" group rows,
/// each followed by its todos while expanded.
///
/// Built from ``TodoSnapshots`` without copying it into one big row array: "All" rows are read
/// from the snapshot's section by offset; only the outline's visible identifiers are flattened.
/// Reading a row by index is O(1), so a window of a 100,000-todo list costs its own size.
struct UIList {
    /// One line of the list.
    enum Entry {
        case sectionHeader(TodoSection)
        case group(TodoGroup)
        case todo(Todo, TodoSection)
    }

    private(set) var snapshots: TodoSnapshots<Todo>
    private var allRows: [TodoRow<Todo>]
    private var outlineVisible: [UIRowID]
    /// Lazily built index of ``outlineVisible``, for cursor look-ups after updates.
    private var outlinePositions: [UIRowID: Int]?

    init(_ snapshots: TodoSnapshots<Todo>) {
        self.snapshots = snapshots
        allRows = snapshots.snapshot.items(inSection: .all)
        outlineVisible = snapshots.outline.visibleItems
    }

    /// The number of lines, headers included.
    var count: Int { 2 + allRows.count + outlineVisible.count }
    /// The number of todos.
    var todoCount: Int { allRows.count }
    /// Where the "Outline" header is.
    var outlineHeaderIndex: Int { 1 + allRows.count }

    /// The line at `index`. Precondition: `0 ..< count`.
    func entry(at index: Int) -> Entry {
        if index == 0 { return .sectionHeader(.all) }
        if index <= allRows.count { return .todo(allRows[index - 1].record!, .all) }
        if index == outlineHeaderIndex { return .sectionHeader(.outline) }
        let id = outlineVisible[index - outlineHeaderIndex - 1]
        switch id {
        case .group(let group): return .group(group)
        case .todo:
            guard let record = snapshots.snapshot.item(withID: id)?.record else { return .sectionHeader(.outline) }
            return .todo(record, .outline)
        }
    }

    /// The row identifier at `index`, nil for a section header.
    func id(at index: Int) -> UIRowID? {
        guard index > 0, index < count, index != outlineHeaderIndex else { return nil }
        if index <= allRows.count { return allRows[index - 1].id }
        return outlineVisible[index - outlineHeaderIndex - 1]
    }

    /// Whether the line at `index` can hold the cursor (anything but a section header).
    func isSelectable(_ index: Int) -> Bool { id(at: index) != nil }

    /// The line of a row, nil when it is absent or hidden in a collapsed group.
    mutating func index(of id: UIRowID) -> Int? {
        switch id {
        case .todo(_, .all):
            guard let flat = snapshots.snapshot.index(ofItem: id), flat < allRows.count else { return nil }
            return 1 + flat
        default:
            if outlinePositions == nil {
                var positions: [UIRowID: Int] = [:]
                positions.reserveCapacity(outlineVisible.count)
                for (offset, rowID) in outlineVisible.enumerated() { positions[rowID] = offset }
                outlinePositions = positions
            }
            return outlinePositions?[id].map { outlineHeaderIndex + 1 + $0 }
        }
    }

    /// The number of todos in a group.
    func count(of group: TodoGroup) -> Int { snapshots.count(of: group) }

    /// Whether a group shows its todos.
    func isExpanded(_ group: TodoGroup) -> Bool { snapshots.outline.isExpanded(.group(group)) }

    /// Expands or collapses a group.
    mutating func setExpanded(_ group: TodoGroup, _ expanded: Bool) {
        if expanded {
            snapshots.outline.expand([.group(group)])
        } else {
            snapshots.outline.collapse([.group(group)])
        }
        outlineVisible = snapshots.outline.visibleItems
        outlinePositions = nil
    }
}
