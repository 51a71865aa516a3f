// The difference between two sorted snapshots, derived from the items that changed instead of
// by comparing every item.
//
// Why it can be: inside a section both snapshots are sorted by the same total order, so the
// items that did not change ("stable" items) are in the same relative order on both sides, and
// only the changed items and the places they left or took can break runs. Cut the stable items
// at every place a changed item that stays in the section sat (before) or sits (after); each
// piece is a run that is contiguous on both sides, which an optimal kept-in-place sequence
// keeps whole or not at all (no kept item fits between its members). The choice of what stays
// is then the same maximum-weight increasing subsequence as `keptInPlaceMask` solves for
// Snapshot.difference, over at most 3k + 1 entries (k changed items) instead of n, with a run
// weighing as its number of unchanged items.

extension SortedSnapshot {
    /// The changes that turn `old` into this snapshot, with the batch-update semantics and the
    /// minimality of ``SnapshotDifference`` (the same number of moves and updates as
    /// ``Snapshot/difference(from:)`` reports; on a tie the two may pick different, equally
    /// minimal, items), derived from the items `changed`.
    ///
    /// `changed` must name every item whose content, section or presence differs (more is
    /// fine: an unchanged one reports nothing). O(k log n) for k identifiers. (The search may
    /// also move a run of unchanged items, one move each, when that were cheaper; with both
    /// sides in one order it never is, since unchanged items keep their relative order.)
    ///
    /// Returns nil when either snapshot is not ``isOrdered``, the layouts' sections differ, or
    /// `changed` turns out to miss an item (the counts do not add up): then diff whole
    /// snapshots instead.
    @inlinable
    public func difference(from old: SortedSnapshot, changed: some Sequence<Item.ID>) -> SnapshotDifference<
        SectionID, Item
    >? {
        guard isOrdered, old.isOrdered, layout.sections == old.layout.sections else { return nil }
        var result = SnapshotDifference<SectionID, Item>()
        let oldShown = old.shownIndexes()
        let newShown = shownIndexes()
        for position in lists.indices {
            switch (oldShown[position], newShown[position]) {
            case (let from?, nil): result.sectionDeletes.append(.init(id: layout.sections[position], from: from))
            case (nil, let to?): result.sectionInserts.append(.init(id: layout.sections[position], to: to))
            default: break
            }
        }

        // Per layout section: the offsets of the changed items it held and holds, and the
        // changed items that stay in it.
        var oldChanged = [[Int]](repeating: [], count: lists.count)
        var newChanged = [[Int]](repeating: [], count: lists.count)
        var staying = [[StayingItem]](repeating: [], count: lists.count)
        var seen = Set<Item.ID>()
        for id in changed where seen.insert(id).inserted {
            let before = old.index[id]
            let after = index[id]
            var from: (section: Int, offset: Int)?
            var to: (section: Int, offset: Int)?
            if let before {
                let section = layout.sectionPosition(of: before)
                guard let offset = old.offset(of: before, inList: section) else { return nil }
                from = (section, offset)
                oldChanged[section].append(offset)
            }
            if let after {
                let section = layout.sectionPosition(of: after)
                guard let offset = offset(of: after, inList: section) else { return nil }
                to = (section, offset)
                newChanged[section].append(offset)
            }
            switch (from, to, after) {
            case (nil, let to?, let after?):
                guard let shown = newShown[to.section] else { return nil }
                result.itemInserts.append(.init(item: after, to: SnapshotIndexPath(section: shown, item: to.offset)))
            case (let from?, nil, _):
                guard let shown = oldShown[from.section] else { return nil }
                result.itemDeletes.append(.init(id: id, from: SnapshotIndexPath(section: shown, item: from.offset)))
            case (let from?, let to?, let after?) where from.section != to.section:
                guard let fromShown = oldShown[from.section], let toShown = newShown[to.section] else { return nil }
                result.itemMoves.append(
                    .init(
                        item: after, from: SnapshotIndexPath(section: fromShown, item: from.offset),
                        to: SnapshotIndexPath(section: toShown, item: to.offset)))
            case (let from?, let to?, let after?):
                staying[from.section].append(
                    StayingItem(item: after, old: from.offset, new: to.offset, unchanged: before == after))
            default:
                break
            }
        }
        // Every item not named is the same on both sides, so each section loses and gains only
        // named ones: when the counts say otherwise, `changed` missed one.
        for section in lists.indices
        where old.lists[section].count - oldChanged[section].count != lists[section].count - newChanged[section].count {
            return nil
        }
        for section in lists.indices where !staying[section].isEmpty {
            guard let fromShown = oldShown[section], let toShown = newShown[section] else { return nil }
            placeStaying(
                staying[section], inList: section, from: old, fromSection: fromShown, toSection: toShown,
                oldChanged: oldChanged[section].sorted(), newChanged: newChanged[section].sorted(),
                into: &result)
        }
        result.itemDeletes.sort { ($0.from.section, $0.from.item) < ($1.from.section, $1.from.item) }
        result.itemInserts.sort { ($0.to.section, $0.to.item) < ($1.to.section, $1.to.item) }
        result.itemMoves.sort { ($0.to.section, $0.to.item) < ($1.to.section, $1.to.item) }
        result.itemUpdates.sort { ($0.to.section, $0.to.item) < ($1.to.section, $1.to.item) }
        return result
    }

    /// A changed item present in the same section before and after.
    @usableFromInline
    struct StayingItem {
        @usableFromInline var item: Item
        @usableFromInline var old: Int
        @usableFromInline var new: Int
        @usableFromInline var unchanged: Bool

        @inlinable
        init(item: Item, old: Int, new: Int, unchanged: Bool) {
            self.item = item
            self.old = old
            self.new = new
            self.unchanged = unchanged
        }
    }

    /// Decides which of the staying items and stable runs of one section keep their place, and
    /// reports the rest as moves and the kept changed items as updates. `oldChanged` and
    /// `newChanged` are the sorted offsets of every changed item the section held and holds.
    @inlinable
    func placeStaying(
        _ staying: [StayingItem], inList section: Int, from old: SortedSnapshot, fromSection: Int, toSection: Int,
        oldChanged: [Int], newChanged: [Int], into result: inout SnapshotDifference<SectionID, Item>
    ) {
        let placement = ChangedItemPlacement(
            staying: staying.map { ChangedItemPlacement.Staying(old: $0.old, new: $0.new, unchanged: $0.unchanged) },
            oldChanged: oldChanged, newChanged: newChanged, oldCount: old.lists[section].count)
        for moved in placement.movedStable {
            result.itemMoves.append(
                .init(
                    item: lists[section][moved.new], from: SnapshotIndexPath(section: fromSection, item: moved.old),
                    to: SnapshotIndexPath(section: toSection, item: moved.new)))
        }
        for (item, kept) in zip(staying, placement.keeps) {
            let from = SnapshotIndexPath(section: fromSection, item: item.old)
            let to = SnapshotIndexPath(section: toSection, item: item.new)
            if !kept {
                result.itemMoves.append(.init(item: item.item, from: from, to: to))
            } else if !item.unchanged {
                result.itemUpdates.append(.init(item: item.item, from: from, to: to))
            }
        }
    }
}

/// Which items of one list keep their place in a difference derived from the items that
/// changed alone (``SortedSnapshot/difference(from:changed:)``, and any list kept in one order
/// and patched in place, such as `todo watch --outline`'s): the rule `keptInPlaceMask` applies
/// to whole lists, over the changed items that stay in the list and the runs of unchanged
/// items between them, O(k log k) for k changed items whatever the list's length.
///
/// Why it can be: the items not named (stable) are in the same relative order on both sides,
/// and only the changed items and the places they left or took can break runs. Cut the stable
/// items at every place a staying item sat (before) or sits (after); each piece is a run that is
/// contiguous on both sides, which an optimal kept-in-place sequence keeps whole or not at all
/// (no kept item fits between its members). The choice of what stays is then the same
/// maximum-weight increasing subsequence, over at most 3k + 1 entries, with a run weighing as
/// its number of unchanged items.
public struct ChangedItemPlacement: Sendable {
    /// A changed item present before and after: its offsets, and whether its content is the same.
    public struct Staying: Sendable, Equatable {
        public var old: Int
        public var new: Int
        public var unchanged: Bool

        @inlinable
        public init(old: Int, new: Int, unchanged: Bool) {
            self.old = old
            self.new = new
            self.unchanged = unchanged
        }
    }

    /// For each staying item, in the order given: whether it keeps its place (then an update
    /// when its content changed, nothing when not); else it is a move.
    public let keeps: [Bool]
    /// The stable items that move all the same (never, when both sides are in one order and
    /// the changed items are all named; the search may still find it cheaper), each with its
    /// old and new offset.
    public let movedStable: [(old: Int, new: Int)]

    /// The placement of `staying` in a list of `oldCount` items before, where `oldChanged` and
    /// `newChanged` are the sorted offsets of every changed item the list held and holds
    /// (staying, removed and added). Precondition: the stable items (`oldCount` less
    /// `oldChanged`) are the same on both sides.
    @inlinable
    public init(staying: [Staying], oldChanged: [Int], newChanged: [Int], oldCount: Int) {
        let stableCount = oldCount - oldChanged.count
        // The stable items before each changed item, on each side (non-decreasing).
        let oldStableBefore = oldChanged.enumerated().map { $1 - $0 }
        let newStableBefore = newChanged.enumerated().map { $1 - $0 }
        // The offset of the stable item of rank `rank` (0-based among stable items) on each side.
        func oldOffset(ofStable rank: Int) -> Int { rank + countOfValues(oldStableBefore, atMost: rank) }
        func newOffset(ofStable rank: Int) -> Int { rank + countOfValues(newStableBefore, atMost: rank) }

        // Cut the stable ranks wherever a staying item sat or sits.
        var cuts: Set<Int> = [0, stableCount]
        for item in staying {
            cuts.insert(item.old - countOfValues(oldChanged, below: item.old))
            cuts.insert(item.new - countOfValues(newChanged, below: item.new))
        }
        let sortedCuts = cuts.sorted()

        // The entries, each kept or moved whole: stable runs, then staying items.
        let heavy = staying.count + 1
        var runs: [Range<Int>] = []
        var oldKeys: [Int] = []
        var newKeys: [Int] = []
        var weights: [Int] = []
        for (low, high) in zip(sortedCuts, sortedCuts.dropFirst()) where low < high {
            runs.append(low..<high)
            oldKeys.append(oldOffset(ofStable: low))
            newKeys.append(newOffset(ofStable: low))
            weights.append((high - low) * heavy)
        }
        for item in staying {
            oldKeys.append(item.old)
            newKeys.append(item.new)
            weights.append(item.unchanged ? heavy : 1)
        }
        // In new order, with old offsets ranked densely so the search's table is the entries'.
        let newOrder = newKeys.indices.sorted { newKeys[$0] < newKeys[$1] }
        let oldRank = Dictionary(uniqueKeysWithValues: oldKeys.sorted().enumerated().map { ($1, $0) })
        let mask = keptInPlaceMask(
            offsets: newOrder.map { oldRank[oldKeys[$0]] ?? 0 },
            weights: newOrder.map { weights[$0] }, bound: oldKeys.count)
        var keeps = [Bool](repeating: false, count: staying.count)
        var movedStable: [(old: Int, new: Int)] = []
        for (position, entry) in newOrder.enumerated() {
            if entry < runs.count {
                guard !mask[position] else { continue }
                for rank in runs[entry] { movedStable.append((oldOffset(ofStable: rank), newOffset(ofStable: rank))) }
            } else {
                keeps[entry - runs.count] = mask[position]
            }
        }
        self.keeps = keeps
        self.movedStable = movedStable
    }
}

/// The number of elements of the sorted `values` that are at most `value`.
@inlinable
func countOfValues(_ values: [Int], atMost value: Int) -> Int { countOfValues(values, below: value + 1) }

/// The number of elements of the sorted `values` that are below `value`.
@inlinable
func countOfValues(_ values: [Int], below value: Int) -> Int {
    var low = 0
    var high = values.count
    while low < high {
        let middle = (low + high) / 2
        if values[middle] < value { low = middle + 1 } else { high = middle }
    }
    return low
}
