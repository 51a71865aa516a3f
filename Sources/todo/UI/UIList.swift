import TodoObservation
import TodoSnapshot
import TodoStore

typealias UIRowID = TodoRowID<Int64>

/// The rows `todo ui` shows, as the sample app's collection view does: the "All" section (every
/// todo, flat, fetch order), then the "Outline" section with its group rows ("Undone" and
/// "Done", or those of `--by`), each followed by its todos while expanded. Either section can be
/// hidden (``sections``).
///
/// Built from the controller's flat snapshot without building a second, row-level snapshot
/// (a `SectionSnapshot` of the outline hashes every row on every change, so that on a long
/// list it was most of a key press; the outline's expansion is just which groups are collapsed):
/// "All" rows are read from it by offset, each group is one list in the request's order, and a
/// line's position is arithmetic on their counts.
///
/// Complexity, for g groups (two by done state, at most seven by priority or deadline, one per
/// tag): reading a line O(g + log n), so a window costs its own size; finding a row's line
/// O(g + log n); a change of k todos, ``apply(_:)``, O(k (g + log n)) (each group is a
/// `ChunkedList` of ids, in the request's order, patched by binary search as the controller
/// patches its snapshot); building it O(n), once per fetch. Ids rather than todos, because
/// copying a todo retains its name.
///
/// Subtasks: while the controller's results have some, "All" is its tree (``tree``, the
/// controller's `TodoTreeSnapshot`, depth first, read by offset as the results are) and a todo's
/// subtasks can be folded away (``setFolded(_:_:)``), as the section snapshot's collapse hides an
/// item's children. A folded todo's subtasks are one run of rows in tree order: the hidden runs
/// (``hidden``) are found again after each change, O(f (log n + s)) for f folded todos with s
/// subtasks, and a line's row is found past them, O(f). The outline's groups stay flat, in
/// the request's order (`todo list --outline` nests them).
struct UIList {
    /// One line of the list.
    enum Entry {
        case sectionHeader(TodoSection)
        case group(TodoGroup)
        /// A todo in "All", or in the outline when a todo is in one group only.
        case todo(Todo, TodoSection)
        /// A todo in the outline under one of the several groups it is in (by tag).
        case member(Todo, TodoGroup)

        /// The todo of a todo or member line; nil for a header or a group.
        var todo: Todo? {
            switch self {
            case .todo(let todo, _), .member(let todo, _): todo
            case .sectionHeader, .group: nil
            }
        }
    }

    /// The controller's results: one section, in the request's order.
    private(set) var results: UIResults
    /// The results as a tree, what "All" shows; nil while they have no subtask (or under a
    /// filter's narrowing, which is flat): "All" is then ``results``.
    private(set) var tree: UITree?
    /// Where the rows of keys (``UIResults/keys(_:)``) are read, by id, when a line shows one;
    /// nil for whole todos.
    let rows: UIRowSource?
    /// The todos whose subtasks are folded away (kept while the todo is gone, so that it comes
    /// back folded, as undo brings it).
    private(set) var folded: Set<Int64> = []
    /// The runs of tree rows the folds hide, as ranges of row offsets in ``tree``: sorted, apart.
    private var hidden: [Range<Int>] = []
    private let order: TodoFetchRequest.Order
    /// How the outline groups the todos (the snapshot layer's rule, as `todo list --outline`);
    /// replaced when the lists it groups by change (``regroup(by:)``).
    private(set) var grouping: TodoGrouping<Todo>
    /// The outline's groups, in display order: the fixed ones always, the others while they
    /// have todos.
    private var groups: [TodoGroup] = []
    /// `members[i]` holds the ids of `groups[i]`'s todos, in the request's order.
    private var members: [ChunkedList<Int64>] = []
    /// The groups that hide their todos; a group not seen before shows them.
    private var collapsed: Set<TodoGroupID>
    /// The number of todos when `results` is only the head of the list (a first-screen preview).
    private let previewTotal: Int?
    /// The sections shown (`v` cycles them); a hidden section has no lines.
    var sections: UISections

    /// `results` must be a ``FetchedResultsController/Sectioning/none`` snapshot fetched in
    /// `order`; `collapsed` is the outline's expansion state to keep (every group open at first).
    init(
        _ results: TodoResultsSnapshot, order: TodoFetchRequest.Order, grouping: TodoGrouping<Todo> = .byDoneState,
        collapsed: Set<TodoGroupID> = [], sections: UISections = .both, previewTotal: Int? = nil,
        tree: TodoTreeSnapshot? = nil, folded: Set<Int64> = []
    ) {
        self.init(
            .todos(results), order: order, grouping: grouping, collapsed: collapsed, sections: sections,
            previewTotal: previewTotal, tree: tree.map(UITree.rows), folded: folded, rows: nil)
    }

    /// A list of a controller's results in ``FetchedResultsController/Rows/keys(_:)``: its rows
    /// are read from `rows` when shown.
    init(
        keys results: TodoKeyResults, tree: TodoKeyTree?, rows: UIRowSource, grouping: TodoGrouping<Todo>,
        collapsed: Set<TodoGroupID> = [], sections: UISections = .both, folded: Set<Int64> = []
    ) {
        self.init(
            .keys(results), order: results.order, grouping: grouping, collapsed: collapsed, sections: sections,
            previewTotal: nil, tree: tree.map { UITree.keys($0, results) }, folded: folded, rows: rows)
    }

    /// A list of a filter's narrowing (flat: no tree), its rows read from `rows` for keys.
    init(
        narrowed results: UIResults, rows: UIRowSource?, order: TodoFetchRequest.Order, grouping: TodoGrouping<Todo>,
        collapsed: Set<TodoGroupID>, sections: UISections
    ) {
        self.init(
            results, order: order, grouping: grouping, collapsed: collapsed, sections: sections, previewTotal: nil,
            tree: nil, folded: [], rows: results.snapshot == nil ? rows : nil)
    }

    private init(
        _ results: UIResults, order: TodoFetchRequest.Order, grouping: TodoGrouping<Todo>,
        collapsed: Set<TodoGroupID>, sections: UISections, previewTotal: Int?, tree: UITree?, folded: Set<Int64>,
        rows: UIRowSource?
    ) {
        self.results = results
        self.tree = tree
        self.rows = rows
        self.folded = folded
        self.sections = sections
        self.previewTotal = previewTotal
        self.order = order
        self.grouping = grouping
        self.collapsed = collapsed
        regroup()
        refold()
    }

    /// Sorts every todo into its groups, by the grouping's one rule, as `todo list --outline`
    /// does (`TodoGrouping.partition(_:keeping:)`, keeping ids). O(n).
    private mutating func regroup() {
        let partition: [(group: TodoGroup, members: [Int64])]
        switch results {
        case .todos(let results):
            partition = grouping.partition(results.numberOfSections > 0 ? results.list(inSection: 0) : ChunkedList()) {
                todo, _ in todo.id
            }
        case .keys(let results): partition = grouping.partition(results.todos) { todo, _ in todo.id }
        }
        groups = partition.map(\.group)
        members = partition.map { ChunkedList($0.members) }
    }

    /// Groups by `grouping` from now on (the lists' grouping, rebuilt after a change to the
    /// lists). Where every group shown is the same group under it (the same identity: a list
    /// renamed, or recoloured), the groups are re-titled in place, O(g), and the expansion
    /// state and every row's place stay; otherwise the todos are grouped again, O(n).
    mutating func regroup(by grouping: TodoGrouping<Todo>) {
        self.grouping = grouping
        // A preview's groups are not the list's (see ``count(of:)``): the load regroups it.
        guard previewTotal == nil else { return }
        var retitled = groups
        for slot in groups.indices {
            // A group's todos share it under a grouping of one group a todo (by list): its
            // first todo says what it is now. Fixed groups (and only they) may be empty.
            guard !grouping.allowsSeveralGroups, let first = members[slot].first,
                let todo = results.record(withID: first)
            else {
                if members[slot].isEmpty, grouping.fixedGroups.contains(groups[slot]) { continue }
                return regroup()
            }
            var now: TodoGroup?
            grouping.forEachGroup(of: todo) { now = $0 }
            guard let now, now.id == groups[slot].id else { return regroup() }
            retitled[slot] = now
        }
        groups = retitled
    }

    /// Takes in one change of the controller's results: the todos it names leave their groups
    /// at their old places and join their new ones at their new places. O(k (g + log n)) for k
    /// todos changed.
    mutating func apply(_ batch: FetchedResultsBatch) {
        // A preview holds only the first screen; the load's end replaces it whole.
        guard previewTotal == nil else { return }
        // The batch's tree is the controller's now (a flat one, every todo at the top, when the
        // last subtask just went); no tree change means there is no tree.
        tree = batch.tree.map { UITree.rows($0.snapshot) }
        apply(.todos(batch.snapshot), changed: batch.difference.itemIDs)
        refold()
    }

    /// Takes in one batch of a controller in ``FetchedResultsController/Rows/keys(_:)``, as
    /// ``apply(_:)-(FetchedResultsBatch)`` does (regrouping whole when the batch does not say
    /// which todos changed).
    mutating func apply(_ batch: TodoKeyBatch) {
        guard previewTotal == nil else { return }
        // The batch's tree is the controller's now; no tree change means there is none.
        tree = (batch.tree?.tree).map { UITree.keys($0, batch.results) }
        if let changed = batch.changed {
            apply(.keys(batch.results), changed: changed)
        } else {
            results = .keys(batch.results)
            regroup()
        }
        refold()
    }

    /// This list narrowed to `narrowed`, some of its todos in the same order (a filter's): each
    /// group keeps those of its members that are among them, in their order, so no todo is
    /// grouped again, and each group is titled by its first todo left, as grouping them anew
    /// would title it. Flat ("All" shows no tree under a filter). O(m) look-ups for the m
    /// todos of the groups, where grouping anew builds each todo's record.
    func narrowed(to narrowed: UIResults) -> UIList {
        var list = self
        list.results = narrowed
        list.tree = nil
        list.hidden = []
        let bits: UIIDBits? =
            switch narrowed {
            case .keys(let results): UIIDBits(results.ids)
            case .todos: nil
            }
        for slot in groups.indices.reversed() {
            let kept = members[slot].filter { bits?.contains($0) ?? narrowed.contains($0) }
            if kept.isEmpty, !grouping.fixedGroups.contains(groups[slot]) {
                list.groups.remove(at: slot)
                list.members.remove(at: slot)
                continue
            }
            list.members[slot] = ChunkedList(kept)
            guard let first = kept.first, let record = narrowed.record(withID: first) else { continue }
            let id = groups[slot].id
            grouping.forEachGroup(of: record) { group in if group.id == id { list.groups[slot] = group } }
        }
        return list
    }

    /// Whether "All" shows a tree.
    var hasTree: Bool { tree != nil }

    /// The todo `id` is under in "All"'s tree, nil at the top (or without a tree).
    func treeParent(of id: Int64) -> Int64? { tree?.parentID(of: id) }

    // MARK: The tree in "All"

    /// The id and depth of the tree row at `offset` in ``tree``.
    private func treeRow(at offset: Int) -> (id: Int64, depth: Int)? {
        guard let tree, offset >= 0, offset < tree.count else { return nil }
        let id = tree.id(at: offset)
        return (id, tree.depth(of: id))
    }

    /// How deep a todo is in "All"'s tree (0 at the top, and for every todo without a tree).
    func depth(ofTodo id: Int64) -> Int { tree?.depth(of: id) ?? 0 }

    /// The number of todos under `id` in the tree, at every depth, and where it is: its
    /// subtasks are the rows right after it that are deeper. O(log n + subtasks).
    private func subtree(of id: Int64) -> (offset: Int, count: Int)? {
        guard let tree, let offset = tree.index(of: id), let row = treeRow(at: offset) else { return nil }
        var end = offset + 1
        while let next = treeRow(at: end), next.depth > row.depth { end += 1 }
        return (offset, end - offset - 1)
    }

    /// Whether the todo has subtasks in "All"'s tree. O(log n).
    func hasSubtasks(_ id: Int64) -> Bool {
        guard let tree, let offset = tree.index(of: id), let row = treeRow(at: offset) else { return false }
        return (treeRow(at: offset + 1)?.depth ?? 0) > row.depth
    }

    /// Whether the todo's subtasks are folded away.
    func isFolded(_ id: Int64) -> Bool { folded.contains(id) && hasSubtasks(id) }

    /// Folds or unfolds a todo's subtasks.
    mutating func setFolded(_ id: Int64, _ isFolded: Bool) {
        if isFolded { folded.insert(id) } else { folded.remove(id) }
        refold()
    }

    /// Unfolds the todos above `id` that hide it, so that its row shows; returns whether any was.
    mutating func reveal(_ id: Int64) -> Bool {
        guard let ancestors = tree?.ancestors(of: id) else { return false }
        let above = Set(ancestors).intersection(folded)
        guard !above.isEmpty else { return false }
        folded.subtract(above)
        refold()
        return true
    }

    /// Finds the runs of rows the folds hide again (after a change or a fold).
    private mutating func refold() {
        guard tree != nil, !folded.isEmpty else {
            hidden = []
            return
        }
        var runs: [Range<Int>] = folded.compactMap { id in
            guard let subtree = subtree(of: id), subtree.count > 0 else { return nil }
            return (subtree.offset + 1)..<(subtree.offset + 1 + subtree.count)
        }
        runs.sort { $0.lowerBound < $1.lowerBound }
        // A fold inside a folded subtree hides nothing more.
        var merged: [Range<Int>] = []
        for run in runs {
            if let last = merged.last, run.lowerBound < last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, run.upperBound)
            } else {
                merged.append(run)
            }
        }
        hidden = merged
    }

    /// The number of todos "All" shows: all of them less those folded away.
    private var shownTodoCount: Int { todoCount - hidden.reduce(0) { $0 + $1.count } }

    /// The tree offset of the `line`th todo "All" shows (from 0), skipping the hidden runs.
    private func treeOffset(ofShown line: Int) -> Int {
        var offset = line
        for run in hidden where run.lowerBound <= offset { offset += run.count }
        return offset
    }

    /// The line among those "All" shows of the tree offset `offset`, nil when a fold hides it.
    private func shownLine(ofTreeOffset offset: Int) -> Int? {
        var line = offset
        for run in hidden {
            if run.contains(offset) { return nil }
            if run.upperBound <= offset { line -= run.count }
        }
        return line
    }

    /// Takes in new results that differ from the current ones at most in the todos `changed`
    /// names (a batch, or a narrowing of one). O(k (g + log n)) for k todos.
    mutating func apply(_ newResults: TodoResultsSnapshot, changed: [Int64]) {
        apply(.todos(newResults), changed: changed)
    }

    /// ``apply(_:changed:)-(TodoResultsSnapshot,_)`` for either kind of results.
    mutating func apply(_ newResults: UIResults, changed: [Int64]) {
        // A preview holds only the first screen; the load's end replaces it whole.
        guard previewTotal == nil else { return }
        let previous = results
        results = newResults
        // Groups in an order the comparator does not share cannot be searched: rebuild them.
        guard previous.isOrdered, results.isOrdered else { return regroup() }
        // The groups are in the previous order until the changed todos are out, and in the new
        // one after: search each phase with the todos of its snapshot.
        var lost = false
        for id in changed {
            guard let old = previous.record(withID: id) else { continue }
            grouping.forEachGroup(of: old) { group in
                guard !lost, let slot = slot(of: group.id),
                    let offset = position(of: old, inSlot: slot, readingFrom: previous)
                else {
                    lost = true
                    return
                }
                members[slot].remove(at: offset)
            }
        }
        guard !lost else { return regroup() }
        for id in changed {
            guard let new = results.record(withID: id) else { continue }
            grouping.forEachGroup(of: new) { group in
                let slot = slot(of: group.id) ?? makeSlot(for: group)
                members[slot].insert(id, at: insertionPoint(of: new, inSlot: slot, readingFrom: results))
            }
        }
        // A group that is not fixed shows while it has todos.
        for slot in groups.indices.reversed()
        where members[slot].isEmpty && !grouping.fixedGroups.contains(groups[slot]) {
            groups.remove(at: slot)
            members.remove(at: slot)
        }
    }

    /// The slot of the group with this identity, nil when the outline does not show it. O(g).
    private func slot(of id: TodoGroupID) -> Int? { groups.firstIndex { $0.id == id } }

    /// Makes an empty slot for `group` at its place in display order. O(g).
    private mutating func makeSlot(for group: TodoGroup) -> Int {
        let slot = groups.firstIndex { group < $0 } ?? groups.count
        groups.insert(group, at: slot)
        members.insert(ChunkedList(), at: slot)
        return slot
    }

    /// The groups that hide their todos.
    var collapsedGroups: Set<TodoGroupID> {
        get { collapsed }
        set { collapsed = newValue }
    }

    /// Whether the outline puts a todo under each of several groups (its rows are `.member`s).
    private var hasMemberRows: Bool { grouping.allowsSeveralGroups }

    /// The number of todos.
    var todoCount: Int { previewTotal ?? results.count }
    /// The lines of the "All" section: its header and every todo not folded away, none when
    /// it is hidden.
    private var allLineCount: Int { sections.showsAll ? 1 + shownTodoCount : 0 }
    /// Where the "Outline" header is (when it is shown).
    var outlineHeaderIndex: Int { allLineCount }
    /// The lines of group `slot`: its row, and its todos while expanded.
    private func lineCount(ofSlot slot: Int) -> Int {
        1 + (collapsed.contains(groups[slot].id) ? 0 : count(ofSlot: slot))
    }
    /// Where the row of group `slot` is. O(g).
    private func groupRowIndex(ofSlot slot: Int) -> Int {
        var index = outlineHeaderIndex + 1
        for earlier in 0..<slot { index += lineCount(ofSlot: earlier) }
        return index
    }
    /// The number of lines, headers included.
    var count: Int {
        guard sections.showsOutline else { return allLineCount }
        return groups.indices.reduce(outlineHeaderIndex + 1) { $0 + lineCount(ofSlot: $1) }
    }

    /// The line at `index`. Precondition: `0 ..< count`.
    ///
    /// In a preview, a todo line past the fetched head reads as the section's header (never
    /// shown: the preview covers the first screen, and the whole list replaces it before any
    /// key is handled).
    func entry(at index: Int) -> Entry {
        switch line(at: index) {
        case .sectionHeader(let section): return .sectionHeader(section)
        case .group(let group): return .group(group)
        case .todo(let id, let section):
            guard let todo = todo(id) else { return .sectionHeader(section) }
            return .todo(todo, section)
        case .member(let id, let group):
            guard let todo = todo(id) else { return .sectionHeader(.outline) }
            return .member(todo, group)
        }
    }

    /// The whole todo `id`: from the results, or read by id for keys (its key todo when it
    /// cannot be read: gone since, which the next batch says).
    private func todo(_ id: Int64) -> Todo? {
        if let rows, let todo = rows.todo(id) { return todo }
        return results.record(withID: id)
    }

    /// A line by ids: what ``entry(at:)`` is, without reading any todo.
    private enum Line {
        case sectionHeader(TodoSection)
        case group(TodoGroup)
        case todo(Int64, TodoSection)
        case member(Int64, TodoGroup)
    }

    private func line(at index: Int) -> Line {
        if index < allLineCount {
            guard index > 0, index <= results.count else { return .sectionHeader(.all) }
            if tree != nil {
                guard let row = treeRow(at: treeOffset(ofShown: index - 1)) else { return .sectionHeader(.all) }
                return .todo(row.id, .all)
            }
            return .todo(results.id(at: index - 1), .all)
        }
        if index == outlineHeaderIndex { return .sectionHeader(.outline) }
        var start = outlineHeaderIndex + 1
        for slot in groups.indices {
            let lines = lineCount(ofSlot: slot)
            if index < start + lines {
                let offset = index - start - 1
                guard offset >= 0 else { return .group(groups[slot]) }
                guard offset < members[slot].count, results.contains(members[slot][offset]) else {
                    return .sectionHeader(.outline)
                }
                let id = members[slot][offset]
                return hasMemberRows ? .member(id, groups[slot]) : .todo(id, .outline)
            }
            start += lines
        }
        return .sectionHeader(.outline)
    }

    /// The row identifier at `index`, nil for a section header. Reads no row.
    func id(at index: Int) -> UIRowID? {
        guard index > 0, index < count else { return nil }
        switch line(at: index) {
        case .sectionHeader: return nil
        case .group(let group): return .group(group.id)
        case .todo(let id, let section): return .todo(id, section)
        case .member(let id, let group): return .member(id, group.id)
        }
    }

    /// Whether the line at `index` can hold the cursor (anything but a section header).
    func isSelectable(_ index: Int) -> Bool { id(at: index) != nil }

    /// The line of a row, nil when it is absent or hidden in a collapsed group.
    ///
    /// Complexity: O(1) for "All"; O(g) for a group; O(g + log n) for an outline todo (binary
    /// search in its group, which is in the request's order).
    func index(of id: UIRowID) -> Int? {
        if case .todo(_, .all) = id {
            guard sections.showsAll else { return nil }
        } else {
            guard sections.showsOutline else { return nil }
        }
        switch id {
        case .group(let groupID):
            return slot(of: groupID).map(groupRowIndex(ofSlot:))
        case .todo(let todoID, .all):
            if let tree {
                return tree.index(of: todoID).flatMap(shownLine(ofTreeOffset:)).map { 1 + $0 }
            }
            return results.index(of: todoID).map { 1 + $0 }
        case .todo(let todoID, .outline):
            guard !hasMemberRows, let todo = results.record(withID: todoID) else { return nil }
            var line: Int?
            grouping.forEachGroup(of: todo) { group in line = lineInOutline(of: todo, in: group.id) }
            return line
        case .member(let todoID, let groupID):
            guard hasMemberRows, let todo = results.record(withID: todoID) else { return nil }
            return lineInOutline(of: todo, in: groupID)
        }
    }

    /// The line of `todo` under the group `groupID`, nil when that group is collapsed or does not
    /// hold it.
    private func lineInOutline(of todo: Todo, in groupID: TodoGroupID) -> Int? {
        guard let slot = slot(of: groupID), !collapsed.contains(groupID),
            let offset = position(of: todo, inSlot: slot)
        else { return nil }
        return groupRowIndex(ofSlot: slot) + 1 + offset
    }

    /// The outline row of a todo (under its first group), nil when the list does not contain it.
    func outlineRowID(ofTodo id: Int64) -> UIRowID? {
        guard let group = group(ofTodo: id) else { return nil }
        return hasMemberRows ? .member(id, group.id) : .todo(id, .outline)
    }

    /// The group an outline todo is in (its first, when several), nil when the list does not
    /// contain it.
    func group(ofTodo id: Int64) -> TodoGroup? {
        guard let todo = results.record(withID: id) else { return nil }
        var first: TodoGroup?
        grouping.forEachGroup(of: todo) { group in if first == nil { first = group } }
        return first
    }

    /// The group the outline row `id` is under, nil for any other row.
    func group(ofRow id: UIRowID) -> TodoGroup? {
        switch id {
        case .group(let groupID), .member(_, let groupID): slot(of: groupID).map { groups[$0] }
        case .todo(let todoID, .outline): group(ofTodo: todoID)
        case .todo(_, .all): nil
        }
    }

    /// The number of todos in a group.
    ///
    /// A preview does not know how its total splits (grouping costs a scan of the table, on a
    /// long list more than the rest of the first frame): it counts every todo in the first
    /// group. The group rows lie past its first screen (it has more todos than the screen has
    /// lines), so this only sizes the scrolling range, which comes out exact.
    func count(of group: TodoGroup) -> Int { slot(of: group.id).map(count(ofSlot:)) ?? 0 }

    private func count(ofSlot slot: Int) -> Int {
        if let previewTotal { return slot == 0 ? previewTotal : 0 }
        return members[slot].count
    }

    /// Whether a group shows its todos.
    func isExpanded(_ group: TodoGroup) -> Bool { !collapsed.contains(group.id) }

    /// Expands or collapses a group.
    mutating func setExpanded(_ group: TodoGroup, _ isExpanded: Bool) {
        if isExpanded { collapsed.remove(group.id) } else { collapsed.insert(group.id) }
    }

    /// Where `todo` is in group `slot`. Binary search first, reading the members' todos from
    /// `snapshot` (the results whose order the group is in; the current ones by default); a
    /// linear scan backs it up in case the database's order and ours ever disagree (another
    /// program's data that sorts differently in SQL), so the cursor is never lost.
    private func position(of todo: Todo, inSlot slot: Int, readingFrom snapshot: UIResults? = nil) -> Int? {
        let low = insertionPoint(of: todo, inSlot: slot, readingFrom: snapshot ?? results)
        if low < members[slot].count, members[slot][low] == todo.id { return low }
        return members[slot].firstIndex(of: todo.id)
    }

    /// Where `todo` goes in group `slot`: the first member that does not come before it.
    private func insertionPoint(of todo: Todo, inSlot slot: Int, readingFrom snapshot: UIResults) -> Int {
        members[slot].lowerBound { id in
            // A member missing from the snapshot cannot happen; sorting it first keeps the
            // search total.
            guard let member = snapshot.record(withID: id) else { return true }
            return order.areInIncreasingOrder(member, todo)
        }
    }
}
