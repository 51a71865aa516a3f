// Editing a snapshot: the vocabulary of NSDiffableDataSourceSnapshot, kept in step with the
// identifier index so lookups stay O(1).

extension Snapshot {
    // MARK: - Sections

    /// Appends empty sections at the end. O(k).
    ///
    /// Precondition: no identifier is already in the snapshot or repeated in `ids`.
    @inlinable
    public mutating func appendSections(_ ids: [SectionID]) {
        if let duplicate = appendSectionsReportingDuplicate(ids) { duplicateSection(duplicate) }
    }

    /// Inserts empty sections just before another one. O(items in the sections after it).
    ///
    /// Precondition: `target` is in the snapshot; no new identifier is already there or repeated.
    @inlinable
    public mutating func insertSections(_ ids: [SectionID], beforeSection target: SectionID) {
        insertSections(ids, at: requirePosition(ofSection: target))
    }

    /// Inserts empty sections just after another one. O(items in the sections after it).
    ///
    /// Precondition: `target` is in the snapshot; no new identifier is already there or repeated.
    @inlinable
    public mutating func insertSections(_ ids: [SectionID], afterSection target: SectionID) {
        insertSections(ids, at: requirePosition(ofSection: target) + 1)
    }

    /// Removes sections together with their items. Identifiers not in the snapshot are ignored.
    ///
    /// O(items in and after the first removed section).
    @inlinable
    public mutating func deleteSections(_ ids: [SectionID]) {
        var doomed = Set<Int>()
        for id in ids {
            if let position = sectionPositions.removeValue(forKey: id) { doomed.insert(position) }
        }
        guard let first = doomed.min() else { return }
        var keptIDs: [SectionID] = []
        var keptItems: [[Item]] = []
        for position in first..<sectionIDs.count {
            if doomed.contains(position) {
                for item in sectionItems[position] { locations[item.id] = nil }
            } else {
                keptIDs.append(sectionIDs[position])
                keptItems.append(sectionItems[position])
            }
        }
        sectionIDs.replaceSubrange(first..., with: keptIDs)
        sectionItems.replaceSubrange(first..., with: keptItems)
        reindexSections(from: first)
    }

    /// Moves a section, with its items, to just before another one.
    ///
    /// O(items in the sections between the two positions and after).
    /// Precondition: both are in the snapshot and differ.
    @inlinable
    public mutating func moveSection(_ id: SectionID, beforeSection target: SectionID) {
        moveSection(id, relativeTo: target, after: false)
    }

    /// Moves a section, with its items, to just after another one.
    ///
    /// O(items in the sections between the two positions and after).
    /// Precondition: both are in the snapshot and differ.
    @inlinable
    public mutating func moveSection(_ id: SectionID, afterSection target: SectionID) {
        moveSection(id, relativeTo: target, after: true)
    }

    // MARK: - Items

    /// Appends items at the end of a section, by default the last one. O(k + sections after it).
    ///
    /// Precondition: the section exists (with no argument: there is at least one section); no
    /// item identifier is already in the snapshot or repeated in `items`.
    @inlinable
    public mutating func appendItems(_ items: [Item], toSection section: SectionID? = nil) {
        let position: Int
        if let section {
            position = requirePosition(ofSection: section)
        } else {
            guard !sectionIDs.isEmpty else {
                fatalError("Snapshot: cannot append items, the snapshot has no section")
            }
            position = sectionIDs.count - 1
        }
        appendItems(items, toSectionAt: position)
    }

    /// Inserts items just before another item, in that item's section.
    ///
    /// O(k + items after it in its section). Precondition: `target` is in the snapshot; no new
    /// identifier is already there or repeated.
    @inlinable
    public mutating func insertItems(_ items: [Item], beforeItem target: Item.ID) {
        insertItems(items, at: requireLocation(ofItem: target))
    }

    /// Inserts items just after another item, in that item's section.
    ///
    /// O(k + items after it in its section). Precondition: `target` is in the snapshot; no new
    /// identifier is already there or repeated.
    @inlinable
    public mutating func insertItems(_ items: [Item], afterItem target: Item.ID) {
        var location = requireLocation(ofItem: target)
        location.offset += 1
        insertItems(items, at: location)
    }

    /// Removes items. Identifiers not in the snapshot are ignored.
    ///
    /// O(k + items after the first removed one in each affected section).
    @inlinable
    public mutating func deleteItems(_ ids: [Item.ID]) {
        var doomed: [Int: Set<Int>] = [:]
        for id in ids {
            if let location = locations.removeValue(forKey: id) {
                doomed[location.section, default: []].insert(location.offset)
            }
        }
        guard let firstSection = doomed.keys.min() else { return }
        for (section, offsets) in doomed {
            guard let first = offsets.min() else { continue }
            let items = sectionItems[section]
            var kept: [Item] = []
            kept.reserveCapacity(items.count - first - offsets.count)
            for offset in first..<items.count where !offsets.contains(offset) {
                kept.append(items[offset])
            }
            sectionItems[section].replaceSubrange(first..., with: kept)
            reindexLocations(inSection: section, from: first)
        }
        recomputeStarts(from: firstSection)
    }

    /// Removes every item and every section, as UIKit's `deleteAllItems()` does. O(1).
    @inlinable
    public mutating func deleteAllItems() {
        self = Snapshot()
    }

    /// Moves an item to just before another item, possibly into another section.
    ///
    /// Its content is kept. O(items after either position in their sections).
    /// Precondition: both are in the snapshot and differ.
    @inlinable
    public mutating func moveItem(_ id: Item.ID, beforeItem target: Item.ID) {
        moveItem(id, relativeTo: target, after: false)
    }

    /// Moves an item to just after another item, possibly into another section.
    ///
    /// Its content is kept. O(items after either position in their sections).
    /// Precondition: both are in the snapshot and differ.
    @inlinable
    public mutating func moveItem(_ id: Item.ID, afterItem target: Item.ID) {
        moveItem(id, relativeTo: target, after: true)
    }

    /// Replaces the content of items already in the snapshot, matched by identifier, in place.
    ///
    /// O(k). Precondition: every identifier is in the snapshot.
    @inlinable
    public mutating func reconfigureItems(_ items: [Item]) {
        for item in items {
            guard let location = locations[item.id] else {
                fatalError("Snapshot: cannot reconfigure item \(item.id), it is not in the snapshot")
            }
            sectionItems[location.section][location.offset] = item
        }
    }

    /// Same as ``reconfigureItems(_:)``: an item is a value, so there is nothing to reload
    /// beyond its new content; the name is kept for people coming from UIKit. O(k).
    ///
    /// Precondition: every identifier is in the snapshot.
    @inlinable
    public mutating func reloadItems(_ items: [Item]) {
        reconfigureItems(items)
    }

    // MARK: - Internal

    /// Appends items to the section at `position`; stops on a duplicate identifier.
    @inlinable
    mutating func appendItems(_ items: [Item], toSectionAt position: Int) {
        if let duplicate = appendItemsReportingDuplicate(items, toSectionAt: position) { duplicateItem(duplicate) }
    }

    /// Appends sections, stopping at the first identifier already present and returning it.
    ///
    /// The snapshot is left half-updated in that case: callers stop or throw it away.
    @inlinable
    mutating func appendSectionsReportingDuplicate(_ ids: [SectionID]) -> SectionID? {
        for id in ids {
            let position = sectionIDs.count
            if sectionPositions.updateValue(position, forKey: id) != nil { return id }
            sectionIDs.append(id)
            sectionItems.append([])
            starts.append(starts[position])
        }
        return nil
    }

    /// Replaces every section and item with `sections`, keeping the identifier tables' storage
    /// (a builder that fills the same value again does not allocate them afresh). Traps on a
    /// repeated identifier, as ``init(sections:)`` does.
    @inlinable
    mutating func replaceContents(with sections: [(id: SectionID, items: [Item])]) {
        replaceContents(with: sections) { sections[$0].items[$1].id }
    }

    /// ``replaceContents(with:)``, told the identifier of each item by `itemID(section, offset)`
    /// (the section's position in `sections`, the item's in that section) rather than reading
    /// it from the item: for a builder that has the identifiers at hand, where reading one from
    /// an item that holds a large value (a todo row) copies the whole value, retains included.
    @inlinable
    mutating func replaceContents(
        with sections: [(id: SectionID, items: [Item])], itemID: (_ section: Int, _ offset: Int) -> Item.ID
    ) {
        sectionIDs.removeAll(keepingCapacity: true)
        sectionItems.removeAll(keepingCapacity: true)
        sectionPositions.removeAll(keepingCapacity: true)
        locations.removeAll(keepingCapacity: true)
        starts.removeAll(keepingCapacity: true)
        starts.append(0)
        locations.reserveCapacity(sections.reduce(0) { $0 + $1.items.count })
        appendSections(sections.map(\.id))
        for position in sections.indices {
            if let duplicate = appendItemsReportingDuplicate(
                sections[position].items, toSectionAt: position, itemID: { itemID(position, $0) })
            {
                duplicateItem(duplicate)
            }
        }
    }

    /// Appends items to the section at `position`, checking identifiers in the same hash
    /// operation that records them; stops at the first duplicate and returns it.
    ///
    /// The snapshot is left half-updated in that case: callers stop or throw it away.
    @inlinable
    mutating func appendItemsReportingDuplicate(_ items: [Item], toSectionAt position: Int) -> Item.ID? {
        // By index: `for item in items` would copy (retain and release) every item.
        appendItemsReportingDuplicate(items, toSectionAt: position) { items[$0].id }
    }

    /// ``appendItemsReportingDuplicate(_:toSectionAt:)`` with `items[i]`'s identifier given by
    /// `itemID(i)`.
    @inlinable
    mutating func appendItemsReportingDuplicate(
        _ items: [Item], toSectionAt position: Int, itemID: (Int) -> Item.ID
    ) -> Item.ID? {
        var offset = sectionItems[position].count
        locations.reserveCapacity(locations.count + items.count)
        for index in items.indices {
            let id = itemID(index)
            if locations.updateValue(Location(section: position, offset: offset), forKey: id) != nil {
                return id
            }
            offset += 1
        }
        // Sharing the caller's buffer when the section is empty skips a copy of every item.
        if sectionItems[position].isEmpty {
            sectionItems[position] = items
        } else {
            sectionItems[position].append(contentsOf: items)
        }
        recomputeStarts(from: position)
        return nil
    }

    /// Inserts empty sections at a position, then renumbers the sections after them.
    @inlinable
    mutating func insertSections(_ ids: [SectionID], at position: Int) {
        // Placeholders claim the identifiers first, so a duplicate is caught before any change.
        for id in ids where sectionPositions.updateValue(-1, forKey: id) != nil {
            duplicateSection(id)
        }
        sectionIDs.insert(contentsOf: ids, at: position)
        sectionItems.insert(contentsOf: repeatElement([], count: ids.count), at: position)
        reindexSections(from: position)
    }

    /// Inserts items at a location, then renumbers the items after them in that section.
    @inlinable
    mutating func insertItems(_ items: [Item], at location: Location) {
        for item in items where locations.updateValue(location, forKey: item.id) != nil {
            duplicateItem(item.id)
        }
        sectionItems[location.section].insert(contentsOf: items, at: location.offset)
        reindexLocations(inSection: location.section, from: location.offset)
        recomputeStarts(from: location.section)
    }

    @inlinable
    mutating func moveSection(_ id: SectionID, relativeTo target: SectionID, after: Bool) {
        guard id != target else { fatalError("Snapshot: cannot move section \(id) relative to itself") }
        let from = requirePosition(ofSection: id)
        var to = requirePosition(ofSection: target)
        let items = sectionItems.remove(at: from)
        sectionIDs.remove(at: from)
        if to > from { to -= 1 }
        if after { to += 1 }
        sectionIDs.insert(id, at: to)
        sectionItems.insert(items, at: to)
        reindexSections(from: min(from, to))
    }

    @inlinable
    mutating func moveItem(_ id: Item.ID, relativeTo target: Item.ID, after: Bool) {
        guard id != target else { fatalError("Snapshot: cannot move item \(id) relative to itself") }
        let from = requireLocation(ofItem: id)
        _ = requireLocation(ofItem: target)
        let item = sectionItems[from.section].remove(at: from.offset)
        locations[id] = nil
        reindexLocations(inSection: from.section, from: from.offset)
        // The target may have shifted down by one if it followed the item in the same section.
        var to = requireLocation(ofItem: target)
        if after { to.offset += 1 }
        insertItems([item], at: to)
        recomputeStarts(from: min(from.section, to.section))
    }

    /// Renumbers every section from `first` on, and every item in them.
    @inlinable
    mutating func reindexSections(from first: Int) {
        for position in first..<sectionIDs.count {
            sectionPositions[sectionIDs[position]] = position
            reindexLocations(inSection: position, from: 0)
        }
        recomputeStarts(from: first)
    }

    /// Renumbers the items of one section from `first` on; the flat starts are left alone.
    @inlinable
    mutating func reindexLocations(inSection section: Int, from first: Int) {
        let items = sectionItems[section]
        for offset in first..<items.count {
            locations[items[offset].id] = Location(section: section, offset: offset)
        }
    }

    /// Recomputes the flat start of every section after `section`: O(number of sections).
    @inlinable
    mutating func recomputeStarts(from section: Int) {
        starts.removeLast(starts.count - section - 1)
        for position in section..<sectionIDs.count {
            starts.append(starts[position] + sectionItems[position].count)
        }
    }

    @inlinable
    func duplicateItem(_ id: Item.ID) -> Never {
        fatalError("Snapshot: duplicate item identifier \(id)")
    }

    @inlinable
    func duplicateSection(_ id: SectionID) -> Never {
        fatalError("Snapshot: duplicate section identifier \(id)")
    }
}
