// The four kinds of item change that a ``SnapshotDifference`` reports, generic over the
// position (a ``SnapshotIndexPath`` there).

/// An item that is gone: its identifier and where it was.
public struct DeletedItem<Item: Identifiable & Equatable & Sendable, Position: Hashable & Sendable>: Equatable, Sendable
where Item.ID: Sendable {
    /// The item's identifier.
    public var id: Item.ID
    /// Its position in the old list or snapshot.
    public var from: Position

    /// Creates the change from its fields.
    @inlinable
    public init(id: Item.ID, from: Position) {
        self.id = id
        self.from = from
    }
}

/// An item that is new: the item and where it now is.
public struct InsertedItem<Item: Identifiable & Equatable & Sendable, Position: Hashable & Sendable>: Equatable,
    Sendable
where Item.ID: Sendable {
    /// The new item.
    public var item: Item
    /// Its position in the new list or snapshot.
    public var to: Position

    /// Creates the change from its fields.
    @inlinable
    public init(item: Item, to: Position) {
        self.item = item
        self.to = to
    }

    /// The item's identifier.
    @inlinable
    public var id: Item.ID { item.id }
}

/// An item present on both sides, with its new content and both positions: a move (it changed
/// place; its content may have changed too) or an update (same place relative to the others,
/// new content; `from` and `to` differ when other items came or went before it). One type
/// serves both because they carry the same facts; the diff's arrays say which it is.
public struct ChangedItem<Item: Identifiable & Equatable & Sendable, Position: Hashable & Sendable>: Equatable, Sendable
where Item.ID: Sendable {
    /// The item with its new content.
    public var item: Item
    /// Its position in the old list or snapshot.
    public var from: Position
    /// Its position in the new list or snapshot.
    public var to: Position

    /// Creates the change from its fields.
    @inlinable
    public init(item: Item, from: Position, to: Position) {
        self.item = item
        self.from = from
        self.to = to
    }

    /// The item's identifier.
    @inlinable
    public var id: Item.ID { item.id }
}
