// Applying a difference with the batch-update semantics written on SnapshotDifference: the
// reference that the property tests hold the diff to, and what a consumer without a table view
// can use to replay changes.

extension Snapshot {
    /// The snapshot that results from applying a difference with batch-update semantics.
    ///
    /// Runs the five steps listed on ``SnapshotDifference`` in order. O(n + k log k).
    /// Precondition: the difference fits this snapshot: every `from` names the identifier it
    /// claims, a deleted section is empty once its items are removed, no index is reported
    /// twice or out of bounds, and no identifier ends up twice. A difference made by
    /// ``difference(from:)`` from this snapshot always fits.
    @inlinable
    public func applying(_ difference: SnapshotDifference<SectionID, Item>) -> Snapshot {
        do {
            return try checkedApplying(difference)
        } catch {
            fatalError(error.description)
        }
    }

    /// ``applying(_:)``, throwing instead of stopping when the difference does not fit.
    @inlinable
    func checkedApplying(_ difference: SnapshotDifference<SectionID, Item>) throws(BatchUpdateMismatch) -> Snapshot {
        let context = "Snapshot.applying"

        // 1. Item deletes and move sources, in old coordinates.
        var removals = [[Int]](repeating: [], count: sectionIDs.count)
        func addRemoval(_ id: Item.ID, at path: SnapshotIndexPath) throws(BatchUpdateMismatch) {
            guard
                sectionItems.indices.contains(path.section)
                    && sectionItems[path.section].indices.contains(path.item)
                    && sectionItems[path.section][path.item].id == id
            else { throw BatchUpdateMismatch("\(context): item \(id) is not at old index path \(path)") }
            removals[path.section].append(path.item)
        }
        for delete in difference.itemDeletes { try addRemoval(delete.id, at: delete.from) }
        for move in difference.itemMoves { try addRemoval(move.id, at: move.from) }
        for update in difference.itemUpdates where indexPath(ofItem: update.id) != update.from {
            throw BatchUpdateMismatch("\(context): updated item \(update.id) is not at old index path \(update.from)")
        }
        var remaining: [[Item]] = []
        for section in sectionItems.indices {
            remaining.append(try removingElements(of: sectionItems[section], at: removals[section], context: context))
        }

        // 2. Section deletes and move sources, in old coordinates.
        var carried: [SectionID: [Item]] = [:]
        var sectionRemovals: [Int] = []
        for delete in difference.sectionDeletes {
            try requireSection(delete.id, at: delete.from, context)
            guard remaining[delete.from].isEmpty else {
                throw BatchUpdateMismatch(
                    "\(context): deleted section \(delete.id) still holds items its changes do not remove")
            }
            sectionRemovals.append(delete.from)
        }
        for move in difference.sectionMoves {
            try requireSection(move.id, at: move.from, context)
            carried[move.id] = remaining[move.from]
            sectionRemovals.append(move.from)
        }
        let keptIDs = try removingElements(of: sectionIDs, at: sectionRemovals, context: context)
        remaining = try removingElements(of: remaining, at: sectionRemovals, context: context)

        // 3. Section inserts (empty) and move targets (with what they still hold), new coordinates.
        let sectionInsertions =
            difference.sectionInserts.map { (index: $0.to, element: (id: $0.id, items: [Item]())) }
            + difference.sectionMoves.map { (index: $0.to, element: (id: $0.id, items: carried[$0.id] ?? [])) }
        let newSections = try insertingElements(
            sectionInsertions, into: zip(keptIDs, remaining).map { (id: $0, items: $1) }, context: context)

        // 4. Item inserts and move targets, in new coordinates.
        var insertions = [[(index: Int, element: Item)]](repeating: [], count: newSections.count)
        func addInsertion(_ item: Item, at path: SnapshotIndexPath) throws(BatchUpdateMismatch) {
            guard insertions.indices.contains(path.section) else {
                throw BatchUpdateMismatch("\(context): insertion of \(item.id) at \(path) names no section")
            }
            insertions[path.section].append((index: path.item, element: item))
        }
        for insert in difference.itemInserts { try addInsertion(insert.item, at: insert.to) }
        for move in difference.itemMoves { try addInsertion(move.item, at: move.to) }
        var result: [(id: SectionID, items: [Item])] = []
        for section in newSections.indices {
            let items = try insertingElements(
                insertions[section], into: newSections[section].items, context: context)
            result.append((id: newSections[section].id, items: items))
        }

        // 5. Updates, in new coordinates.
        for update in difference.itemUpdates {
            let path = update.to
            guard
                result.indices.contains(path.section)
                    && result[path.section].items.indices.contains(path.item)
                    && result[path.section].items[path.item].id == update.id
            else { throw BatchUpdateMismatch("\(context): update of \(update.id) does not find it at \(path)") }
            result[path.section].items[path.item] = update.item
        }
        return try Snapshot(validating: result, context: context)
    }

    /// Like ``init(sections:)``, throwing on a duplicate identifier instead of stopping.
    @inlinable
    init(validating sections: [(id: SectionID, items: [Item])], context: String) throws(BatchUpdateMismatch) {
        if let duplicate = appendSectionsReportingDuplicate(sections.map(\.id)) {
            throw BatchUpdateMismatch("\(context): section \(duplicate) ends up twice")
        }
        for (position, section) in sections.enumerated() {
            if let duplicate = appendItemsReportingDuplicate(section.items, toSectionAt: position) {
                throw BatchUpdateMismatch("\(context): item \(duplicate) ends up twice")
            }
        }
    }

    @inlinable
    func requireSection(_ id: SectionID, at index: Int, _ context: String) throws(BatchUpdateMismatch) {
        guard sectionIDs.indices.contains(index) && sectionIDs[index] == id else {
            throw BatchUpdateMismatch("\(context): section \(id) is not at old index \(index)")
        }
    }
}
