import TodoSnapshot
import TodoStore

/// One row of an outline grouped by a `TodoGrouping`, as a change names it: a group row, or a
/// todo's row under a group.
public struct TodoOutlineRow: Sendable, Equatable {
    /// The row's identifier, as `TodoSnapshotBuilder` makes it: `.group`, `.todo(id, .outline)`
    /// when a todo is in one group, `.member(id, group)` when it can be in several.
    public let id: TodoRowID<Int64>
    /// The todo; nil for a group row.
    public let todo: Todo?
    /// The group the row is in (a group row's own), with its title at the time.
    public let group: TodoGroup
    /// How deep the todo is in its group's tree: 0 at the group's top level (and for a group row).
    public let depth: Int

    /// A row from its parts.
    public init(id: TodoRowID<Int64>, todo: Todo?, group: TodoGroup, depth: Int) {
        self.id = id
        self.todo = todo
        self.group = group
        self.depth = depth
    }
}

/// How an outline changed, in UIKit batch-update terms over its rows (group rows included,
/// offsets counted from its first group row): what `todo watch --outline` prints. Deletes are
/// sorted by `from`, the others by `to`; a move carries the row as it is now. Made by
/// ``TodoOutlineGroups/apply(from:to:changed:previousTree:tree:)`` from the changed todos alone,
/// or by ``init(from:to:)`` from two whole outlines.
public struct TodoOutlineChange: Sendable {
    /// A row gone, at its old offset.
    public struct Removal: Sendable {
        public let row: TodoOutlineRow
        public let from: Int
    }

    /// A row new, at its new offset.
    public struct Addition: Sendable {
        public let row: TodoOutlineRow
        public let to: Int
    }

    /// A row on both sides: a move (its place changed relative to the rows kept) or an update.
    public struct Shift: Sendable {
        public let old: TodoOutlineRow
        public let new: TodoOutlineRow
        public let from: Int
        public let to: Int
    }

    /// A group whose title changed: its old title, the group now, and its row's offsets.
    public struct Retitle: Sendable {
        public let oldTitle: String
        public let group: TodoGroup
        public let from: Int
        public let to: Int
    }

    public internal(set) var deletes: [Removal] = []
    public internal(set) var inserts: [Addition] = []
    public internal(set) var moves: [Shift] = []
    public internal(set) var updates: [Shift] = []
    /// In the groups' display order.
    public internal(set) var retitles: [Retitle] = []

    /// No change.
    public init() {}

    /// Groups re-titled, and nothing else.
    public init(retitles: [Retitle]) { self.retitles = retitles }

    /// Whether nothing changed.
    public var isEmpty: Bool {
        deletes.isEmpty && inserts.isEmpty && moves.isEmpty && updates.isEmpty && retitles.isEmpty
    }

    /// The change between two whole outlines (`TodoSnapshotBuilder/build(_:previousOutline:)`'s),
    /// found by comparing them whole: O(n). What a list of changes is checked against, and
    /// what the watch falls back on where it cannot follow a change (the lists regrouped, a
    /// loop in a damaged file).
    public init(from old: TodoSnapshots<Todo>, to new: TodoSnapshots<Todo>) {
        func outlineSection(_ snapshots: TodoSnapshots<Todo>) -> Int? {
            snapshots.snapshot.sectionIdentifiers.firstIndex(of: .outline)
        }
        func row(_ id: TodoRowID<Int64>, in snapshots: TodoSnapshots<Todo>) -> TodoOutlineRow? {
            guard let item = snapshots.snapshot.item(withID: id), snapshots.outline.contains(id) else { return nil }
            // The group is the root above the row; the depth its level under it.
            var top = id
            var level = 0
            while let parent = snapshots.outline.parent(of: top) {
                top = parent
                level += 1
            }
            guard case .group(let group)? = snapshots.snapshot.item(withID: top) else { return nil }
            return TodoOutlineRow(id: id, todo: item.record, group: group, depth: max(0, level - 1))
        }
        let difference = new.snapshot.difference(from: old.snapshot)
        let oldSection = outlineSection(old)
        let newSection = outlineSection(new)
        for change in difference.itemDeletes where change.from.section == oldSection {
            if let row = row(change.id, in: old) { deletes.append(Removal(row: row, from: change.from.item)) }
        }
        for change in difference.itemInserts where change.to.section == newSection {
            if let row = row(change.id, in: new) { inserts.append(Addition(row: row, to: change.to.item)) }
        }
        for change in difference.itemMoves where change.to.section == newSection {
            if let before = row(change.id, in: old), let after = row(change.id, in: new) {
                moves.append(Shift(old: before, new: after, from: change.from.item, to: change.to.item))
            }
        }
        for change in difference.itemUpdates where change.to.section == newSection {
            if let before = row(change.id, in: old), let after = row(change.id, in: new) {
                updates.append(Shift(old: before, new: after, from: change.from.item, to: change.to.item))
            }
        }
        let oldTitles = Dictionary(old.groups.map { ($0.id, $0.title) }) { first, _ in first }
        for group in new.groups {
            guard let title = oldTitles[group.id], title != group.title,
                let from = old.snapshot.indexPath(ofItem: .group(group.id)),
                let to = new.snapshot.indexPath(ofItem: .group(group.id))
            else { continue }
            retitles.append(Retitle(oldTitle: title, group: group, from: from.item, to: to.item))
        }
    }
}

/// An outline of a controller's results, grouped by a `TodoGrouping` and kept from one batch
/// to the next by the changed todos alone: the groups in display order, each one's todos as a
/// `ChunkedList` of ids in its tree order (the request's order, each subtask under its parent
/// when that parent is in the group, by `TodoOutline`'s rule, as `TodoSnapshotBuilder`
/// nests them; or flat). What `todo watch --outline` prints, and could back any view of the
/// outline.
///
/// Why so: rebuilding and diffing the outline on every commit costs O(n) a commit and the whole
/// outline's rows in memory (at a million todos by tag, seconds and hundreds of megabytes).
/// Here a row is an id (eight bytes), read back from the controller's results when shown, and
/// a batch of k changed todos moves their rows (and those of the todos under them) by binary
/// search in their groups, then derives the change from those rows alone with the
/// kept-in-place rule of the snapshot layer (`ChangedItemPlacement`): O((k + s) d (g + log n))
/// for s todos under them, trees d deep and g groups, whatever the list's length. The change
/// is the one ``TodoOutlineChange/init(from:to:)`` finds comparing whole outlines, up to ties
/// between equally minimal choices.
///
/// Built in O(n) (``init(results:order:grouping:nested:visit:)``), once; after a batch it
/// cannot follow (results out of the request's order, a parent loop in a damaged file, a
/// regrouping that is not a re-titling), build it again.
public struct TodoOutlineGroups: Sendable {
    /// The order of the results (the controller's request's).
    public let order: TodoFetchRequest.Order
    /// How todos are grouped.
    public private(set) var grouping: TodoGrouping<Todo>
    /// Whether a group's todos nest under their parents (else each group is flat).
    public let nested: Bool
    /// The groups shown, in display order: the fixed ones always, the others while they have todos.
    public private(set) var groups: [TodoGroup] = []
    /// `members[i]`: the ids of `groups[i]`'s todos, in the group's tree order.
    private var members: [ChunkedList<Int64>] = []
    /// `titles[i]`: how many of `groups[i]`'s todos write its title each way (a tag as `+Work`
    /// or `@work`): the title is the first todo's in the request's order, found without a scan
    /// while they all agree.
    private var titles: [[String: Int]] = []

    /// The outline of `results` (a controller's, one section, in `order`), grouped by
    /// `grouping`; `visit` sees each group as built, in display order, with its todos' ids and
    /// depths in tree order (so that a caller can print it without holding every row). O(n).
    public init(
        results: TodoResultsSnapshot, order: TodoFetchRequest.Order, grouping: TodoGrouping<Todo>,
        nested: Bool = true, visit: ((TodoGroup, ChunkedList<Int64>, [Int]?) -> Void)? = nil
    ) {
        self.order = order
        self.grouping = grouping
        self.nested = nested
        let todos = results.numberOfSections > 0 ? results.list(inSection: 0) : ChunkedList()
        var hasParents = false
        var variants: [TodoGroupID: [String: Int]] = [:]
        let partition = grouping.partition(todos) { todo, _ in
            if todo.parentID != nil { hasParents = true }
            return todo.id
        }
        for todo in todos {
            grouping.forEachGroup(of: todo) { variants[$0.id, default: [:]][$0.title, default: 0] += 1 }
        }
        groups.reserveCapacity(partition.count)
        for (group, ids) in partition {
            var list: ChunkedList<Int64>
            var depths: [Int]?
            if nested && hasParents {
                let nodes = ids.compactMap { results.item(withID: $0).map(TodoOutline.Node.init) }
                let places = TodoOutline.places(nodes)
                list = ChunkedList(places.lazy.map(\.id))
                depths = places.map(\.depth)
            } else {
                list = ChunkedList(ids)
            }
            visit?(group, list, depths)
            groups.append(group)
            members.append(list)
            titles.append(grouping.fixedGroups.contains(group) ? [:] : variants[group.id] ?? [:])
        }
    }

    /// The number of rows: a row per group, and one per todo under each.
    public var rowCount: Int { members.reduce(groups.count) { $0 + $1.count } }

    /// The ids of a group's todos, in tree order; empty when the group is not shown.
    public func members(of group: TodoGroupID) -> ChunkedList<Int64> {
        slot(of: group).map { members[$0] } ?? ChunkedList()
    }

    /// The depth of `id` in `group`'s tree as `results` (the current results) place it; nil
    /// when a loop is met. O(depth).
    public func depth(of todo: Todo, in group: TodoGroupID, results: TodoResultsSnapshot) -> Int? {
        path(of: todo, in: group, results: results).map { $0.count - 1 }
    }

    // MARK: The rule of the tree, in a group

    /// Whether `todo` is in the group `id`.
    private func isIn(_ todo: Todo, _ id: TodoGroupID) -> Bool {
        var found = false
        grouping.forEachGroup(of: todo) { if $0.id == id { found = true } }
        return found
    }

    /// The todos from the top of `group`'s tree down to `todo` (itself last), as `results`
    /// place them: a parent counts when it is among the results, in the group (and in the
    /// same list, the rule says). Nil when a loop is met. O(depth).
    private func path(of todo: Todo, in group: TodoGroupID, results: TodoResultsSnapshot) -> [Todo]? {
        guard nested, todo.parentID != nil else { return [todo] }
        var path = [todo]
        var current = todo
        while let parent = TodoOutline.parent(
            of: current, among: { id in results.item(withID: id).flatMap { isIn($0, group) ? $0 : nil } })
        {
            if path.contains(where: { $0.id == parent.id }) { return nil }
            path.append(parent)
            current = parent
        }
        path.reverse()
        return path
    }

    /// Tree order: the first todos that differ on the two paths decide, by the request's
    /// order; a path that is a prefix of the other (an ancestor) comes first.
    private func comesBefore(_ a: [Todo], _ b: [Todo]) -> Bool {
        for level in 0..<min(a.count, b.count) where a[level].id != b[level].id {
            return order.areInIncreasingOrder(a[level], b[level])
        }
        return a.count < b.count
    }

    /// Where the row of `path`'s todo goes in group `slot` (the first member not before it),
    /// reading the members from `results`; nil when a loop is met.
    private func insertionPoint(of path: [Todo], inSlot slot: Int, results: TodoResultsSnapshot) -> Int? {
        var lost = false
        let point = members[slot].lowerBound { id in
            guard !lost, let member = results.item(withID: id),
                let memberPath = self.path(of: member, in: groups[slot].id, results: results)
            else {
                lost = true
                return false
            }
            return comesBefore(memberPath, path)
        }
        return lost ? nil : point
    }

    /// Where the row of `path`'s todo is in group `slot`; nil when it is not found there.
    private func offset(of path: [Todo], inSlot slot: Int, results: TodoResultsSnapshot) -> Int? {
        guard let todo = path.last, let point = insertionPoint(of: path, inSlot: slot, results: results),
            point < members[slot].count, members[slot][point] == todo.id
        else { return nil }
        return point
    }

    // MARK: Groups

    private func slot(of id: TodoGroupID) -> Int? { groups.firstIndex { $0.id == id } }

    /// Makes an empty slot for `group` at its place in display order. O(g).
    private mutating func makeSlot(for group: TodoGroup) -> Int {
        let slot = groups.firstIndex { group < $0 } ?? groups.count
        groups.insert(group, at: slot)
        members.insert(ChunkedList(), at: slot)
        titles.insert([:], at: slot)
        return slot
    }

    /// The offset of each group's row, by group. O(g).
    private func groupStarts() -> [TodoGroupID: Int] {
        var starts: [TodoGroupID: Int] = [:]
        starts.reserveCapacity(groups.count)
        var offset = 0
        for slot in groups.indices {
            starts[groups[slot].id] = offset
            offset += 1 + members[slot].count
        }
        return starts
    }

    /// The row identifier of `id` under `group`.
    private func rowID(_ id: Int64, _ group: TodoGroupID) -> TodoRowID<Int64> {
        grouping.allowsSeveralGroups ? .member(id, group) : .todo(id, .outline)
    }

    /// The title group `slot` has now: its only way of writing it, or the first todo's in the
    /// request's order. O(1) while its todos agree, else O(group).
    private func currentTitle(ofSlot slot: Int, results: TodoResultsSnapshot) -> String {
        let variants = titles[slot]
        guard variants.count > 1 else { return variants.first?.key ?? groups[slot].title }
        var first: Todo?
        for id in members[slot] {
            guard let todo = results.item(withID: id) else { continue }
            if let earlier = first, !order.areInIncreasingOrder(todo, earlier) { continue }
            first = todo
        }
        var title = groups[slot].title
        if let first { grouping.forEachGroup(of: first) { if $0.id == groups[slot].id { title = $0.title } } }
        return title
    }

    // MARK: Following a batch

    /// A row as placed on one side of a change.
    private struct Placed {
        var row: TodoOutlineRow
        var offset: Int
    }

    /// Follows the results from `previous` to `results` (a controller's batch: its previous and
    /// new results, the ids its difference names, and its tree before and after, which say
    /// which todos are under the changed ones) and returns how the outline changed. Nil when it
    /// cannot follow: then this value is spent, and a new one must be built from `results`.
    public mutating func apply(
        from previous: TodoResultsSnapshot, to results: TodoResultsSnapshot, changed: some Sequence<Int64>,
        previousTree: TodoTreeSnapshot?, tree: TodoTreeSnapshot?
    ) -> TodoOutlineChange? {
        guard previous.isOrdered, results.isOrdered, previous.numberOfSections <= 1, results.numberOfSections <= 1
        else { return nil }
        // The changed todos, and the todos under them before and after: their paths may have changed.
        var affected: [Int64] = []
        var seen = Set<Int64>()
        for id in changed where seen.insert(id).inserted { affected.append(id) }
        if nested {
            for id in affected {
                for side in [previousTree, tree] {
                    guard let side, let offset = side.index(ofItem: id) else { continue }
                    let depth = side.item(at: SnapshotIndexPath(section: 0, item: offset)).depth
                    var next = offset + 1
                    while next < side.numberOfItems {
                        let row = side.item(at: SnapshotIndexPath(section: 0, item: next))
                        guard row.depth > depth else { break }
                        if seen.insert(row.id).inserted { affected.append(row.id) }
                        next += 1
                    }
                }
            }
        }

        // Before: where each affected todo's rows are, then out with them.
        let oldCount = rowCount
        let oldStarts = groupStarts()
        let oldGroups = Dictionary(groups.map { ($0.id, $0) }) { first, _ in first }
        var old: [TodoRowID<Int64>: Placed] = [:]
        var removals: [(slot: Int, offset: Int, title: String)] = []
        for id in affected {
            guard let todo = previous.item(withID: id) else { continue }
            var failed = false
            grouping.forEachGroup(of: todo) { group in
                guard !failed, let slot = slot(of: group.id),
                    let path = path(of: todo, in: group.id, results: previous),
                    let offset = offset(of: path, inSlot: slot, results: previous), let start = oldStarts[group.id]
                else {
                    failed = true
                    return
                }
                let row = TodoOutlineRow(
                    id: rowID(id, group.id), todo: todo, group: groups[slot], depth: path.count - 1)
                old[row.id] = Placed(row: row, offset: start + 1 + offset)
                removals.append((slot, offset, group.title))
            }
            if failed { return nil }
        }
        var touched = Set<TodoGroupID>()
        for removal in removals.sorted(by: { ($0.slot, $0.offset) > ($1.slot, $1.offset) }) {
            members[removal.slot].remove(at: removal.offset)
            if let count = titles[removal.slot][removal.title] {
                titles[removal.slot][removal.title] = count > 1 ? count - 1 : nil
            }
            touched.insert(groups[removal.slot].id)
        }

        // After: in with them where they go now.
        var placed: [(id: Int64, todo: Todo, group: TodoGroupID, path: [Todo])] = []
        for id in affected {
            guard let todo = results.item(withID: id) else { continue }
            var failed = false
            grouping.forEachGroup(of: todo) { group in
                let slot = slot(of: group.id) ?? makeSlot(for: group)
                guard !failed, let path = path(of: todo, in: group.id, results: results),
                    let point = insertionPoint(of: path, inSlot: slot, results: results)
                else {
                    failed = true
                    return
                }
                members[slot].insert(id, at: point)
                if !grouping.fixedGroups.contains(group) { titles[slot][group.title, default: 0] += 1 }
                touched.insert(group.id)
                placed.append((id, todo, group.id, path))
            }
            if failed { return nil }
        }
        // A group that is not fixed shows while it has todos; a title follows its todos.
        for slot in groups.indices.reversed()
        where members[slot].isEmpty && !grouping.fixedGroups.contains(groups[slot]) {
            groups.remove(at: slot)
            members.remove(at: slot)
            titles.remove(at: slot)
        }
        for slot in groups.indices where touched.contains(groups[slot].id) {
            guard !grouping.fixedGroups.contains(groups[slot]) else { continue }
            let title = currentTitle(ofSlot: slot, results: results)
            if title != groups[slot].title {
                let group = groups[slot]
                groups[slot] = TodoGroup(rank: group.rank, key: group.key, title: title)
            }
        }

        let newStarts = groupStarts()
        var new: [TodoRowID<Int64>: Placed] = [:]
        for entry in placed {
            guard let slot = slot(of: entry.group), let start = newStarts[entry.group],
                let offset = offset(of: entry.path, inSlot: slot, results: results)
            else { return nil }
            let row = TodoOutlineRow(
                id: rowID(entry.id, entry.group), todo: entry.todo, group: groups[slot], depth: entry.path.count - 1)
            new[row.id] = Placed(row: row, offset: start + 1 + offset)
        }
        // Group rows come and go with their groups.
        for (id, group) in oldGroups where newStarts[id] == nil {
            guard let start = oldStarts[id] else { continue }
            old[.group(id)] = Placed(
                row: TodoOutlineRow(id: .group(id), todo: nil, group: group, depth: 0), offset: start)
        }
        var change = TodoOutlineChange()
        for slot in groups.indices {
            let group = groups[slot]
            guard let start = newStarts[group.id] else { continue }
            guard let before = oldGroups[group.id] else {
                new[.group(group.id)] = Placed(
                    row: TodoOutlineRow(id: .group(group.id), todo: nil, group: group, depth: 0), offset: start)
                continue
            }
            if before.title != group.title, let from = oldStarts[group.id] {
                change.retitles.append(.init(oldTitle: before.title, group: group, from: from, to: start))
            }
        }

        // Every row not named is the same on both sides: the counts must agree.
        guard oldCount - old.count == rowCount - new.count else { return nil }
        var staying: [(old: Placed, new: Placed)] = []
        for (id, before) in old {
            if let after = new[id] {
                staying.append((before, after))
            } else {
                change.deletes.append(.init(row: before.row, from: before.offset))
            }
        }
        for (id, after) in new where old[id] == nil {
            change.inserts.append(.init(row: after.row, to: after.offset))
        }
        let placement = ChangedItemPlacement(
            staying: staying.map {
                ChangedItemPlacement.Staying(
                    old: $0.old.offset, new: $0.new.offset, unchanged: $0.old.row.todo == $0.new.row.todo)
            },
            oldChanged: old.values.map(\.offset).sorted(), newChanged: new.values.map(\.offset).sorted(),
            oldCount: oldCount)
        for (pair, kept) in zip(staying, placement.keeps) {
            let shift = TodoOutlineChange.Shift(
                old: pair.old.row, new: pair.new.row, from: pair.old.offset, to: pair.new.offset)
            if !kept {
                change.moves.append(shift)
            } else if pair.old.row.todo != pair.new.row.todo {
                change.updates.append(shift)
            }
        }
        // Rows not named that move all the same: the same row on both sides.
        for moved in placement.movedStable {
            guard let row = row(at: moved.new, starts: newStarts, results: results) else { return nil }
            let before = TodoOutlineRow(
                id: row.id, todo: row.todo, group: oldGroups[row.group.id] ?? row.group, depth: row.depth)
            change.moves.append(.init(old: before, new: row, from: moved.old, to: moved.new))
        }
        change.deletes.sort { $0.from < $1.from }
        change.inserts.sort { $0.to < $1.to }
        change.moves.sort { $0.to < $1.to }
        change.updates.sort { $0.to < $1.to }
        return change
    }

    /// The row at `offset` now. O(g + log n + depth).
    private func row(at offset: Int, starts: [TodoGroupID: Int], results: TodoResultsSnapshot) -> TodoOutlineRow? {
        for slot in groups.indices {
            guard let start = starts[groups[slot].id], offset >= start, offset <= start + members[slot].count else {
                continue
            }
            let group = groups[slot]
            if offset == start { return TodoOutlineRow(id: .group(group.id), todo: nil, group: group, depth: 0) }
            let id = members[slot][offset - start - 1]
            guard let todo = results.item(withID: id), let path = path(of: todo, in: group.id, results: results)
            else { return nil }
            return TodoOutlineRow(id: rowID(id, group.id), todo: todo, group: group, depth: path.count - 1)
        }
        return nil
    }

    /// Groups by `grouping` from now on, when every group shown is the same group under it (the
    /// same identity: a list renamed), re-titling them in place: O(g). Returns the groups whose
    /// title changed, or nil when the todos would be grouped otherwise (then build the outline
    /// again).
    public mutating func regroup(by grouping: TodoGrouping<Todo>, results: TodoResultsSnapshot)
        -> [TodoOutlineChange.Retitle]?
    {
        guard !grouping.allowsSeveralGroups, !self.grouping.allowsSeveralGroups else { return nil }
        var retitled = groups
        for slot in groups.indices {
            // A group's todos share it under a grouping of one group a todo: its first todo says
            // what it is now. Fixed groups (and only they) may be empty.
            guard let first = members[slot].first, let todo = results.item(withID: first) else {
                if members[slot].isEmpty, grouping.fixedGroups.contains(groups[slot]) { continue }
                return nil
            }
            var now: TodoGroup?
            grouping.forEachGroup(of: todo) { now = $0 }
            guard let now, now.id == groups[slot].id else { return nil }
            retitled[slot] = now
        }
        var changes: [TodoOutlineChange.Retitle] = []
        var offset = 0
        for slot in groups.indices {
            if retitled[slot].title != groups[slot].title {
                changes.append(.init(oldTitle: groups[slot].title, group: retitled[slot], from: offset, to: offset))
            }
            offset += 1 + members[slot].count
        }
        groups = retitled
        titles = groups.indices.map { slot in
            grouping.fixedGroups.contains(groups[slot]) ? [:] : [groups[slot].title: members[slot].count]
        }
        self.grouping = grouping
        return changes
    }
}
