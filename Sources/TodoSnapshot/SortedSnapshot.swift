/// A snapshot whose sections each keep their items sorted by one rule, and which is changed in
/// place: the form of live fetched results, where a commit that changes k items costs
/// O(k log n) to apply and to describe, not O(n).
///
/// The layout fixes everything that decides where an item goes: the sections there can be, in
/// order; which section an item belongs to; the order inside a section (a strict total order,
/// as an `ORDER BY` ending with a unique column is); and whether empty sections are shown.
/// Given the changed items, ``applying(_:)`` moves them by binary search, and
/// ``difference(from:changed:)`` derives the same minimal batch-update difference that
/// ``Snapshot/difference(from:)`` finds by comparing every item, from those items alone.
///
/// Storage: each section is a ``ChunkedList`` and the identifier index a ``ShardedDictionary``,
/// so a copy shares storage and a change copies only what it touches: the results before a
/// change and after it both stay valid at little cost.
///
/// Items read from a database are normally in the layout's order. When they are not (another
/// program wrote a value that sorts differently in SQL than in the layout's rule), the
/// snapshot still answers every read exactly, by scanning where it would search; only
/// ``applying(_:)`` and ``difference(from:changed:)`` refuse (return nil), and the caller
/// builds a new snapshot instead.
public struct SortedSnapshot<SectionID: Hashable & Sendable, Item: Identifiable & Equatable & Sendable>: Sendable
where Item.ID: Sendable {
    /// Where items go.
    public struct Layout: Sendable {
        /// Every section there can be, in display order.
        public let sections: [SectionID]
        /// Whether a section with no items is shown (as `NSFetchedResultsController` shows its
        /// one unnamed section) or left out (as a section name key path's sections are).
        public let keepsEmptySections: Bool
        /// The position in ``sections`` of the section an item belongs to.
        public let section: @Sendable (Item) -> Int
        /// Whether the first item comes before the second inside a section: a strict total
        /// order (never true both ways, and true one way for any two distinct items).
        public let areInIncreasingOrder: @Sendable (Item, Item) -> Bool

        /// A layout from its parts.
        @inlinable
        public init(
            sections: [SectionID], keepsEmptySections: Bool, section: @escaping @Sendable (Item) -> Int,
            areInIncreasingOrder: @escaping @Sendable (Item, Item) -> Bool
        ) {
            guard !sections.isEmpty else { fatalError("SortedSnapshot.Layout: no sections") }
            self.sections = sections
            self.keepsEmptySections = keepsEmptySections
            self.section = section
            self.areInIncreasingOrder = areInIncreasingOrder
        }

        /// One section that is always shown, holding every item.
        @inlinable
        public static func single(_ section: SectionID, areInIncreasingOrder: @escaping @Sendable (Item, Item) -> Bool)
            -> Layout
        {
            Layout(
                sections: [section], keepsEmptySections: true, section: { _ in 0 },
                areInIncreasingOrder: areInIncreasingOrder)
        }

        /// The section position of `item`, checked.
        @inlinable
        func sectionPosition(of item: Item) -> Int {
            let position = section(item)
            guard sections.indices.contains(position) else {
                fatalError("SortedSnapshot.Layout: section \(position) does not exist")
            }
            return position
        }
    }

    /// Where items go.
    public let layout: Layout
    /// One list per layout section, shown or not.
    @usableFromInline var lists: [ChunkedList<Item>]
    /// Every item by identifier.
    @usableFromInline var index: ShardedDictionary<Item.ID, Item>
    /// Whether every list is in the layout's order. See the type's discussion.
    public var isOrdered: Bool { ordered }
    @usableFromInline var ordered = true

    /// An empty snapshot.
    @inlinable
    public init(layout: Layout) {
        self.layout = layout
        lists = layout.sections.map { _ in ChunkedList() }
        index = ShardedDictionary()
    }

    /// The snapshot of `items`, given in the layout's order (each section keeps the order it
    /// receives them in). O(n). Precondition: identifiers are unique.
    @inlinable
    public init(layout: Layout, items: some Collection<Item>) {
        self.init(layout: layout)
        index = ShardedDictionary(minimumCapacity: items.count)
        append(contentsOf: items)
    }

    /// Adds `items` after the ones already in their sections, as the next slice of a fetch in
    /// the layout's order. O(k + chunks). Precondition: identifiers are unique.
    @inlinable
    public mutating func append(contentsOf items: some Sequence<Item>) {
        // One section (a plain fetch's results): straight into its list, no slices to copy.
        if lists.count == 1 {
            var previous = lists[0].last
            for item in items {
                if let previous, ordered, !layout.areInIncreasingOrder(previous, item) { ordered = false }
                guard index.updateValue(item, forKey: item.id) == nil else {
                    fatalError("SortedSnapshot: duplicate item identifier \(item.id)")
                }
                lists[0].append(item)
                previous = item
            }
            return
        }
        var slices = [[Item]](repeating: [], count: lists.count)
        for item in items {
            let section = layout.sectionPosition(of: item)
            let previous = slices[section].last ?? lists[section].last
            if let previous, ordered, !layout.areInIncreasingOrder(previous, item) { ordered = false }
            guard index.updateValue(item, forKey: item.id) == nil else {
                fatalError("SortedSnapshot: duplicate item identifier \(item.id)")
            }
            slices[section].append(item)
        }
        for section in lists.indices where !slices[section].isEmpty {
            lists[section].append(contentsOf: slices[section])
        }
    }

    // MARK: - Sections

    /// Whether the layout section at `position` is shown.
    @inlinable
    func isShown(_ position: Int) -> Bool { layout.keepsEmptySections || !lists[position].isEmpty }

    /// For each layout section, its index among the shown ones, or nil when hidden.
    @inlinable
    func shownIndexes() -> [Int?] {
        var next = 0
        return lists.indices.map { position in
            guard isShown(position) else { return nil }
            defer { next += 1 }
            return next
        }
    }

    /// The layout position of the shown section at `index`.
    @inlinable
    func layoutPosition(ofShownSection index: Int) -> Int? {
        var shown = 0
        for position in lists.indices where isShown(position) {
            if shown == index { return position }
            shown += 1
        }
        return nil
    }

    /// The number of sections shown. O(sections).
    @inlinable
    public var numberOfSections: Int { lists.indices.filter(isShown).count }

    /// The identifiers of the sections shown, in order. O(sections).
    @inlinable
    public var sectionIdentifiers: [SectionID] { lists.indices.filter(isShown).map { layout.sections[$0] } }

    /// The items of the shown section at `index`, as a list to read windows from. O(1).
    /// Precondition: `index` is below ``numberOfSections``.
    @inlinable
    public func list(inSection index: Int) -> ChunkedList<Item> {
        guard let position = layoutPosition(ofShownSection: index) else {
            fatalError("SortedSnapshot: no section at index \(index)")
        }
        return lists[position]
    }

    /// The items of a section, in order; empty for a hidden or unknown section. O(items in it).
    @inlinable
    public func items(inSection section: SectionID) -> [Item] {
        guard let position = layout.sections.firstIndex(of: section) else { return [] }
        return lists[position].array
    }

    /// The sections shown, with their items. O(n).
    @inlinable
    public var sections: [(id: SectionID, items: [Item])] {
        lists.indices.filter(isShown).map { (id: layout.sections[$0], items: lists[$0].array) }
    }

    // MARK: - Items

    /// The number of items. O(1).
    @inlinable
    public var numberOfItems: Int { index.count }

    /// Every item, section after section. O(n).
    @inlinable
    public var items: [Item] {
        var result: [Item] = []
        result.reserveCapacity(numberOfItems)
        for list in lists { result.append(contentsOf: list) }
        return result
    }

    /// The item with this identifier, or nil. O(1) amortised.
    @inlinable
    public func item(withID id: Item.ID) -> Item? { index[id] }

    /// Whether an item with this identifier is in the snapshot. O(1) amortised.
    @inlinable
    public func contains(itemWithID id: Item.ID) -> Bool { index[id] != nil }

    /// The item at an index path. O(log n). Precondition: the index path is inside the snapshot.
    @inlinable
    public func item(at indexPath: SnapshotIndexPath) -> Item {
        guard let position = layoutPosition(ofShownSection: indexPath.section),
            lists[position].indices.contains(indexPath.item)
        else { fatalError("SortedSnapshot: index path \(indexPath) is out of bounds") }
        return lists[position][indexPath.item]
    }

    /// Where the item is, or nil when absent. O(log n) (O(n) when not ``isOrdered``).
    @inlinable
    public func indexPath(ofItem id: Item.ID) -> SnapshotIndexPath? {
        guard let item = index[id] else { return nil }
        let position = layout.sectionPosition(of: item)
        guard let offset = offset(of: item, inList: position), let section = shownIndexes()[position] else {
            return nil
        }
        return SnapshotIndexPath(section: section, item: offset)
    }

    /// The item's index in the flat list of all items (section after section), or nil.
    /// O(log n) (O(n) when not ``isOrdered``).
    @inlinable
    public func index(ofItem id: Item.ID) -> Int? {
        guard let item = index[id] else { return nil }
        let position = layout.sectionPosition(of: item)
        guard let offset = offset(of: item, inList: position) else { return nil }
        return lists[..<position].reduce(offset) { $0 + $1.count }
    }

    /// The offset of `item` (by identifier) in the layout section's list: a binary search by
    /// its content, or a scan when the list is not in order.
    @inlinable
    func offset(of item: Item, inList position: Int) -> Int? {
        let list = lists[position]
        if isOrdered {
            let offset = list.lowerBound(of: item, by: layout.areInIncreasingOrder)
            return offset < list.count && list[offset].id == item.id ? offset : nil
        }
        return list.firstIndex { $0.id == item.id }
    }

    /// The same sections and items as a plain ``Snapshot``. O(n): for diffing whole snapshots
    /// (the reference the derived difference is tested against) and applying differences.
    @inlinable
    public var snapshot: Snapshot<SectionID, Item> { Snapshot(sections: sections) }

    // MARK: - Changing

    /// This snapshot with the given items changed: each identifier's item replaced by the new
    /// one, or removed when it has none (deleted, or no longer in the results), or added when
    /// it was absent. O(k (log n + ``ChunkedList/chunkCapacity``) + chunks); a copy of this
    /// snapshot keeps its own contents.
    ///
    /// Returns nil when the snapshot is not ``isOrdered`` or an item is not where its content
    /// says (the caller then rebuilds it from a fetch). Precondition: each identifier appears
    /// once, and a new item has that identifier.
    @inlinable
    public func applying(_ changes: [Item.ID: Item?]) -> SortedSnapshot? {
        guard isOrdered else { return nil }
        var result = self
        for id in changes.keys {
            guard let old = result.index[id] else { continue }
            let position = layout.sectionPosition(of: old)
            guard let offset = result.offset(of: old, inList: position) else { return nil }
            result.lists[position].remove(at: offset)
            result.index[id] = nil
        }
        for (id, new) in changes {
            guard let new else { continue }
            guard new.id == id else { fatalError("SortedSnapshot.applying: item \(new.id) given for identifier \(id)") }
            let position = layout.sectionPosition(of: new)
            let offset = result.lists[position].lowerBound(of: new, by: layout.areInIncreasingOrder)
            if offset < result.lists[position].count, result.lists[position][offset].id == id { return nil }
            result.lists[position].insert(new, at: offset)
            result.index[id] = new
        }
        return result
    }

    /// The identifiers of the items that differ between `old` and this snapshot (in content,
    /// section, or presence), found by merging each section's two sorted lists: O(n)
    /// comparisons, no hashing of the items that did not change. For a refetch, whose changes
    /// are unknown, before ``difference(from:changed:)``. Nil unless both are ``isOrdered``.
    @inlinable
    public func changedIdentifiers(from old: SortedSnapshot) -> [Item.ID]? {
        guard isOrdered, old.isOrdered, lists.count == old.lists.count else { return nil }
        var changed: [Item.ID] = []
        for position in lists.indices {
            var before = old.lists[position].makeIterator()
            var after = lists[position].makeIterator()
            var left = before.next()
            var right = after.next()
            merging: while true {
                switch (left, right) {
                case (nil, nil):
                    break merging
                case (let item?, nil):
                    changed.append(item.id)
                    left = before.next()
                case (nil, let item?):
                    changed.append(item.id)
                    right = after.next()
                case (let a?, let b?):
                    if a == b {
                        left = before.next()
                        right = after.next()
                    } else if a.id == b.id {
                        changed.append(a.id)
                        left = before.next()
                        right = after.next()
                    } else if layout.areInIncreasingOrder(a, b) {
                        changed.append(a.id)
                        left = before.next()
                    } else {
                        changed.append(b.id)
                        right = after.next()
                    }
                }
            }
        }
        return changed
    }
}

extension SortedSnapshot: Equatable {
    /// Equal when the same sections are shown with the same items in the same order (layouts
    /// are not compared: closures cannot be). O(n).
    @inlinable
    public static func == (lhs: SortedSnapshot, rhs: SortedSnapshot) -> Bool {
        lhs.lists.count == rhs.lists.count && lhs.sectionIdentifiers == rhs.sectionIdentifiers
            && lhs.lists.indices.allSatisfy { position in
                !lhs.isShown(position) || lhs.lists[position] == rhs.lists[position]
            }
    }
}
