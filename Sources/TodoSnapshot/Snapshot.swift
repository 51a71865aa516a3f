/// An ordered list of sections, each holding an ordered list of items: the state of a list view.
///
/// Like `NSDiffableDataSourceSnapshot`, with one difference that matters: an item is a value
/// that carries its content and is identified by `Item.ID`, not by itself. Two snapshots can
/// therefore hold the same item with different content, and ``difference(from:)`` reports that
/// as an update instead of replacing the row or missing the change.
///
/// Identifiers are unique snapshot-wide: a section identifier appears once, and an item
/// identifier appears once across all sections. Adding a duplicate is a programming error and
/// stops the program with a message naming the identifier.
///
/// The snapshot keeps an index from each identifier to its position, so lookups by identifier
/// are O(1) amortised, and appending k items to a section costs O(k) plus O(number of sections
/// after it). Mutations in the middle of a section cost O(items after the edit point), like an
/// array's.
public struct Snapshot<SectionID: Hashable & Sendable, Item: Identifiable & Equatable & Sendable>: Sendable
where Item.ID: Sendable {
    /// Where an item lives: its section's position and its offset inside that section.
    @usableFromInline
    struct Location: Sendable, Equatable {
        @usableFromInline var section: Int
        @usableFromInline var offset: Int

        @inlinable
        init(section: Int, offset: Int) {
            self.section = section
            self.offset = offset
        }
    }

    /// Section identifiers in order.
    @usableFromInline
    var sectionIDs: [SectionID] = []
    /// The items of each section, parallel to `sectionIDs`.
    @usableFromInline
    var sectionItems: [[Item]] = []
    /// The position of each section in `sectionIDs`.
    @usableFromInline
    var sectionPositions: [SectionID: Int] = [:]
    /// The location of each item.
    @usableFromInline
    var locations: [Item.ID: Location] = [:]
    /// `starts[s]` is the flat index of section `s`'s first item; one entry more than there are
    /// sections, the last being the total, so the flat index of any item is O(1).
    @usableFromInline
    var starts: [Int] = [0]

    /// Creates an empty snapshot: no sections, no items.
    @inlinable
    public init() {}

    /// Creates a snapshot holding the given sections and their items, in order.
    ///
    /// O(total items). Precondition: section identifiers are unique, and item identifiers are
    /// unique across all sections.
    @inlinable
    public init(sections: [(id: SectionID, items: [Item])]) {
        // One path with the builders that fill a snapshot again: the tables sized once, never rehashed.
        replaceContents(with: sections)
    }

    // MARK: - Counts and identifiers

    /// The number of sections. O(1).
    @inlinable
    public var numberOfSections: Int { sectionIDs.count }

    /// The number of items across all sections. O(1).
    @inlinable
    public var numberOfItems: Int { starts[sectionIDs.count] }

    /// The section identifiers, in order. O(1).
    @inlinable
    public var sectionIdentifiers: [SectionID] { sectionIDs }

    /// The identifiers of all items, section after section. O(n).
    @inlinable
    public var itemIdentifiers: [Item.ID] {
        var ids: [Item.ID] = []
        ids.reserveCapacity(numberOfItems)
        for items in sectionItems {
            for item in items { ids.append(item.id) }
        }
        return ids
    }

    /// All items, section after section. O(n).
    @inlinable
    public var items: [Item] { Array(sectionItems.joined()) }

    /// The sections with their items, in order: the inverse of ``init(sections:)``. O(sections).
    @inlinable
    public var sections: [(id: SectionID, items: [Item])] {
        zip(sectionIDs, sectionItems).map { (id: $0, items: $1) }
    }

    /// The number of items in a section. O(1).
    ///
    /// Precondition: the section is in the snapshot.
    @inlinable
    public func numberOfItems(inSection section: SectionID) -> Int {
        sectionItems[requirePosition(ofSection: section)].count
    }

    /// The identifiers of the items in a section, in order. O(items in the section).
    ///
    /// Precondition: the section is in the snapshot.
    @inlinable
    public func itemIdentifiers(inSection section: SectionID) -> [Item.ID] {
        sectionItems[requirePosition(ofSection: section)].map(\.id)
    }

    /// The items of a section, in order. O(1): the array is shared until either side changes.
    ///
    /// Precondition: the section is in the snapshot.
    @inlinable
    public func items(inSection section: SectionID) -> [Item] {
        sectionItems[requirePosition(ofSection: section)]
    }

    // MARK: - Lookups by identifier

    /// The item with this identifier, or nil if the snapshot has none. O(1) amortised.
    @inlinable
    public func item(withID id: Item.ID) -> Item? {
        guard let location = locations[id] else { return nil }
        return sectionItems[location.section][location.offset]
    }

    /// The item at an index path. O(1).
    ///
    /// Precondition: the index path is inside the snapshot.
    @inlinable
    public func item(at indexPath: SnapshotIndexPath) -> Item {
        guard sectionItems.indices.contains(indexPath.section),
            sectionItems[indexPath.section].indices.contains(indexPath.item)
        else { fatalError("Snapshot: index path \(indexPath) is out of bounds") }
        return sectionItems[indexPath.section][indexPath.item]
    }

    /// Whether an item with this identifier is in the snapshot. O(1) amortised.
    @inlinable
    public func contains(itemWithID id: Item.ID) -> Bool { locations[id] != nil }

    /// Whether the section is in the snapshot. O(1) amortised.
    @inlinable
    public func contains(section: SectionID) -> Bool { sectionPositions[section] != nil }

    /// The item's index in the flat list of all items (section after section), or nil if
    /// absent. O(1) amortised.
    @inlinable
    public func index(ofItem id: Item.ID) -> Int? {
        guard let location = locations[id] else { return nil }
        return starts[location.section] + location.offset
    }

    /// The section's index, or nil if absent. O(1) amortised.
    @inlinable
    public func index(ofSection section: SectionID) -> Int? { sectionPositions[section] }

    /// The item's section index and index inside that section, or nil if absent. O(1) amortised.
    @inlinable
    public func indexPath(ofItem id: Item.ID) -> SnapshotIndexPath? {
        guard let location = locations[id] else { return nil }
        return SnapshotIndexPath(section: location.section, item: location.offset)
    }

    /// The identifier of the section holding the item, or nil if absent. O(1) amortised.
    @inlinable
    public func sectionIdentifier(containingItem id: Item.ID) -> SectionID? {
        guard let location = locations[id] else { return nil }
        return sectionIDs[location.section]
    }

    /// A snapshot holding only this section and its items: the flat list of one section.
    ///
    /// O(items in the section). Precondition: the section is in the snapshot.
    @inlinable
    public func snapshot(ofSection section: SectionID) -> Snapshot {
        Snapshot(sections: [(id: section, items: items(inSection: section))])
    }

    // MARK: - Internal helpers

    /// The position of a section that must exist; stops with a clear message otherwise.
    @inlinable
    func requirePosition(ofSection section: SectionID) -> Int {
        guard let position = sectionPositions[section] else {
            fatalError("Snapshot: no section \(section)")
        }
        return position
    }

    /// The location of an item that must exist; stops with a clear message otherwise.
    @inlinable
    func requireLocation(ofItem id: Item.ID) -> Location {
        guard let location = locations[id] else {
            fatalError("Snapshot: no item with identifier \(id)")
        }
        return location
    }
}

extension Snapshot: Equatable {
    /// Two snapshots are equal when they hold the same sections in the same order, each with
    /// the same items (content included) in the same order. O(n).
    @inlinable
    public static func == (lhs: Snapshot, rhs: Snapshot) -> Bool {
        lhs.sectionIDs == rhs.sectionIDs && lhs.sectionItems == rhs.sectionItems
    }
}

extension Snapshot: CustomStringConvertible {
    /// Each section with its item identifiers, for test failures and debugging.
    @inlinable
    public var description: String {
        let body = zip(sectionIDs, sectionItems)
            .map { "\($0.0): \($0.1.map { "\($0.id)" })" }
            .joined(separator: ", ")
        return "Snapshot(\(body))"
    }
}
