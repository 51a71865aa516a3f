// Diffing two snapshots: Heckel-style matching by identifier through the old snapshot's own
// index (no table to build), then per section the increasing run of items kept in place that
// leaves the fewest changes to report (see `keptInPlaceMask`).

extension Snapshot {
    /// The changes that turn `old` into this snapshot, with exact batch-update semantics.
    ///
    /// See ``SnapshotDifference`` for the index rules and guarantees. Single edits give single
    /// changes: a changed content in place is one update, a reorder of one item is one move
    /// (carrying its new content), an added item is one insert, a removed one one delete.
    ///
    /// O(n) time when every section keeps its shared items in order, else O(n + b log n), b
    /// being the blocks of them adjacent in both snapshots (few when few items move), at worst
    /// O(n log n); O(n) memory. Matching reuses the old snapshot's identifier index, so no table
    /// is built.
    @inlinable
    public func difference(from old: Snapshot) -> SnapshotDifference<SectionID, Item> {
        var result = SnapshotDifference<SectionID, Item>()
        let newSectionToOld = diffSections(from: old, into: &result)

        var oldMatched = [Bool](repeating: false, count: old.numberOfItems)
        // Per new section, reused: the old location of each item (section -1 when new), and the
        // old offsets of the items staying in the same section, in new order, with whether each
        // one's content is unchanged.
        var matchedSections: [Int] = []
        var matchedOffsets: [Int] = []
        var stayingOffsets: [Int] = []
        var stayingUnchanged: [Bool] = []
        // Loops go by index: `for item in items` would copy (retain and release) every item.
        for newSection in sectionItems.indices {
            let items = sectionItems[newSection]
            let oldSection = newSectionToOld[newSection]
            matchedSections.removeAll(keepingCapacity: true)
            matchedOffsets.removeAll(keepingCapacity: true)
            stayingOffsets.removeAll(keepingCapacity: true)
            stayingUnchanged.removeAll(keepingCapacity: true)
            for offset in items.indices {
                if let location = old.locations[items[offset].id] {
                    oldMatched[old.starts[location.section] + location.offset] = true
                    matchedSections.append(location.section)
                    matchedOffsets.append(location.offset)
                    if location.section == oldSection {
                        stayingOffsets.append(location.offset)
                        stayingUnchanged.append(old.sectionItems[location.section][location.offset] == items[offset])
                    }
                } else {
                    matchedSections.append(-1)
                    matchedOffsets.append(-1)
                }
            }
            let stays = keptInPlaceMask(offsets: stayingOffsets, unchanged: stayingUnchanged)
            var staying = 0
            for offset in items.indices {
                let to = SnapshotIndexPath(section: newSection, item: offset)
                let fromSection = matchedSections[offset]
                guard fromSection >= 0 else {
                    result.itemInserts.append(.init(item: items[offset], to: to))
                    continue
                }
                let from = SnapshotIndexPath(section: fromSection, item: matchedOffsets[offset])
                if fromSection == oldSection {
                    let staysPut = stays[staying]
                    let unchanged = stayingUnchanged[staying]
                    staying += 1
                    if staysPut {
                        if !unchanged { result.itemUpdates.append(.init(item: items[offset], from: from, to: to)) }
                        continue
                    }
                }
                result.itemMoves.append(.init(item: items[offset], from: from, to: to))
            }
        }

        var flat = 0
        for oldSection in old.sectionItems.indices {
            let items = old.sectionItems[oldSection]
            for offset in items.indices where !oldMatched[flat + offset] {
                result.itemDeletes.append(
                    .init(id: items[offset].id, from: SnapshotIndexPath(section: oldSection, item: offset)))
            }
            flat += items.count
        }
        return result
    }

    /// Fills in the section changes and returns, for each new section, its old index or -1.
    @inlinable
    func diffSections(
        from old: Snapshot, into result: inout SnapshotDifference<SectionID, Item>
    ) -> [Int] {
        let newToOld = sectionIDs.map { old.sectionPositions[$0] ?? -1 }
        // Sections have no content of their own: every one counts as unchanged, so this keeps
        // a longest increasing run and the section moves are minimal.
        let surviving = newToOld.filter { $0 >= 0 }
        let stays = keptInPlaceMask(
            offsets: surviving, unchanged: [Bool](repeating: true, count: surviving.count))
        var oldSurvives = [Bool](repeating: false, count: old.sectionIDs.count)
        var staying = 0
        for (to, from) in newToOld.enumerated() {
            guard from >= 0 else {
                result.sectionInserts.append(.init(id: sectionIDs[to], to: to))
                continue
            }
            oldSurvives[from] = true
            if !stays[staying] {
                result.sectionMoves.append(.init(id: sectionIDs[to], from: from, to: to))
            }
            staying += 1
        }
        for (from, survives) in oldSurvives.enumerated() where !survives {
            result.sectionDeletes.append(.init(id: old.sectionIDs[from], from: from))
        }
        return newToOld
    }
}
