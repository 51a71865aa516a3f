/// The changes that turn one ``Snapshot`` into another, in UIKit batch-update terms.
///
/// Made by ``Snapshot/difference(from:)`` and applied by ``Snapshot/applying(_:)``.
///
/// Indexes: every `from` is a position in the old snapshot, every `to` a position in the new
/// one. Applying runs in this order, which is also what a table view's batch update does:
///
/// 1. remove every item delete and item move source, at its `from` (highest first);
/// 2. remove every section delete and section move source, at its `from` (highest first);
/// 3. insert every section insert (empty) and section move target (with the items it still
///    holds), at its `to` (lowest first);
/// 4. insert every item insert and item move target, at its `to` (lowest first);
/// 5. replace the item at every update's `to` with the update's content.
///
/// Sections are containers only: every item change is reported per item. The items of a
/// deleted section are each reported as a delete (or, if they live on elsewhere, a move), so
/// the section is empty when step 2 removes it; the items of an inserted section are each
/// reported as an insert or a move. An item that stays in a moved section, in the same relative
/// order, is not mentioned: it travels with its section.
///
/// Guarantees: no identifier appears twice across the item changes, nor across the section
/// changes; no `from` appears twice among item deletes and move sources, nor any `to` among item
/// inserts and move targets. A move carries the item's new content, so a moved item is never
/// also an update.
///
/// Minimal: an item that changes section is one move; among the items that stay in the same
/// section, the ones kept in place are the increasing run (in old order) that leaves the fewest
/// moves plus updates: the one with the most unchanged items (each one left out costs a move,
/// while a changed item costs one change either way), then, on a tie, the most changed items (so
/// an edit in place is an update, not a move). A deadline change that reorders one todo is one
/// move carrying its new content. Section moves are minimal: the longest run of sections in
/// unchanged relative order stays put.
///
/// Each array is sorted by its index: deletes by `from`, the others by `to`.
public struct SnapshotDifference<SectionID: Hashable & Sendable, Item: Identifiable & Equatable & Sendable>: Sendable,
    Equatable
where Item.ID: Sendable {
    /// A section that is gone; `from` is its index in the old snapshot.
    public struct SectionDelete: Hashable, Sendable {
        /// The section's identifier.
        public var id: SectionID
        /// Its index in the old snapshot.
        public var from: Int

        /// Creates the change from its fields.
        @inlinable
        public init(id: SectionID, from: Int) {
            self.id = id
            self.from = from
        }
    }

    /// A section that is new; `to` is its index in the new snapshot.
    public struct SectionInsert: Hashable, Sendable {
        /// The section's identifier.
        public var id: SectionID
        /// Its index in the new snapshot.
        public var to: Int

        /// Creates the change from its fields.
        @inlinable
        public init(id: SectionID, to: Int) {
            self.id = id
            self.to = to
        }
    }

    /// A section that changed place relative to the others kept.
    public struct SectionMove: Hashable, Sendable {
        /// The section's identifier.
        public var id: SectionID
        /// Its index in the old snapshot.
        public var from: Int
        /// Its index in the new snapshot.
        public var to: Int

        /// Creates the change from its fields.
        @inlinable
        public init(id: SectionID, from: Int, to: Int) {
            self.id = id
            self.from = from
            self.to = to
        }
    }

    /// An item that is gone, by old index path.
    public typealias ItemDelete = DeletedItem<Item, SnapshotIndexPath>
    /// An item that is new, by new index path.
    public typealias ItemInsert = InsertedItem<Item, SnapshotIndexPath>
    /// An item that changed place (or section), carrying its new content.
    public typealias ItemMove = ChangedItem<Item, SnapshotIndexPath>
    /// An item whose content changed while it kept its place relative to the others.
    public typealias ItemUpdate = ChangedItem<Item, SnapshotIndexPath>

    /// Sections removed, by old index.
    public var sectionDeletes: [SectionDelete] = []
    /// Sections added, by new index.
    public var sectionInserts: [SectionInsert] = []
    /// Sections moved, by new index.
    public var sectionMoves: [SectionMove] = []
    /// Items removed, by old position.
    public var itemDeletes: [ItemDelete] = []
    /// Items added, by new position.
    public var itemInserts: [ItemInsert] = []
    /// Items moved, by new position.
    public var itemMoves: [ItemMove] = []
    /// Items changed in place, by new position.
    public var itemUpdates: [ItemUpdate] = []

    /// An empty difference: nothing changes.
    @inlinable
    public init() {}

    /// Whether nothing changes. O(1).
    @inlinable
    public var isEmpty: Bool { count == 0 }

    /// The identifiers of every item the difference names (deleted, inserted, moved or
    /// updated), each once: what a view re-renders or re-places. O(item changes).
    @inlinable
    public var itemIDs: [Item.ID] {
        itemDeletes.map(\.id) + itemInserts.map(\.item.id) + itemMoves.map(\.item.id) + itemUpdates.map(\.item.id)
    }

    /// The number of changes of every kind. O(1).
    @inlinable
    public var count: Int {
        sectionDeletes.count + sectionInserts.count + sectionMoves.count
            + itemDeletes.count + itemInserts.count + itemMoves.count + itemUpdates.count
    }
}
