/// The changes that turn one flat list of items into another, with integer indexes.
///
/// The single-list form of ``SnapshotDifference``, shaped for `todo watch --json`: deletes with
/// `from`, inserts with `to`, moves with `from` and `to`, updates with `from` and `to`. Same
/// semantics: removing every delete and move source from the old list (highest `from` first),
/// then inserting every insert and move target (lowest `to` first), then replacing the item at
/// each update's `to`, yields the new list exactly (see `Array.applying(_:)`).
///
/// An update keeps its place relative to the other kept items; its `from` and `to` differ when
/// items before it were inserted or deleted. A move carries the new content, so an item is
/// never both. No identifier is reported twice, nor any index among deletes and move sources,
/// nor among inserts and move targets.
///
/// Minimal: moves plus updates are as few as possible. An unchanged item costs a move only when
/// it leaves its place, a changed one costs one change (update or move) either way, so the items
/// kept in place are an increasing run (in old order) with the most unchanged items; ties go to
/// the run with the most changed items, so an edit in place is an update, not a move. A
/// deadline change that reorders one todo is one move. Each array is sorted by its index:
/// deletes by `from`, the others by `to`.
public struct ListDifference<Item: Identifiable & Equatable & Sendable>: Sendable, Equatable
where Item.ID: Sendable {
    /// An item that is gone, by old index.
    public typealias Delete = DeletedItem<Item, Int>
    /// An item that is new, by new index.
    public typealias Insert = InsertedItem<Item, Int>
    /// An item that changed place, possibly with new content.
    public typealias Move = ChangedItem<Item, Int>
    /// An item whose content changed while it kept its place relative to the others.
    public typealias Update = ChangedItem<Item, Int>

    /// One change of any kind, for consumers that print them as one stream.
    public enum Change: Equatable, Sendable {
        /// See ``ListDifference/Delete``.
        case delete(Delete)
        /// See ``ListDifference/Insert``.
        case insert(Insert)
        /// See ``ListDifference/Move``.
        case move(Move)
        /// See ``ListDifference/Update``.
        case update(Update)

        /// The identifier of the item concerned.
        @inlinable
        public var id: Item.ID {
            switch self {
            case .delete(let change): change.id
            case .insert(let change): change.id
            case .move(let change): change.id
            case .update(let change): change.id
            }
        }
    }

    /// Items removed, by old index.
    public var deletes: [Delete] = []
    /// Items added, by new index.
    public var inserts: [Insert] = []
    /// Items moved, by new index.
    public var moves: [Move] = []
    /// Items changed in place, by new index.
    public var updates: [Update] = []

    /// An empty difference: nothing changes.
    @inlinable
    public init() {}

    /// The changes that turn `old` into `new`, matched by identifier.
    ///
    /// O(n) time when the items both lists share are in the same order, else O(n + b log n),
    /// b being the blocks of them adjacent in both lists (few when few items move), at worst
    /// O(n log n); O(n) memory, including a table from identifier to old index. When a
    /// ``Snapshot`` is at hand, ``Snapshot/listDifference(from:inSection:)`` reuses its index.
    /// Precondition: identifiers are unique within each list.
    @inlinable
    public init(from old: [Item], to new: [Item]) {
        var oldIndex = [Item.ID: Int](minimumCapacity: old.count)
        for offset in old.indices where oldIndex.updateValue(offset, forKey: old[offset].id) != nil {
            fatalError("ListDifference: duplicate item identifier \(old[offset].id) in the old list")
        }
        self.init(old: old, new: new) { oldIndex[$0] }
    }

    /// The shared core: `oldOffset` finds an identifier's index in `old`, or nil.
    @inlinable
    init(old: [Item], new: [Item], oldOffset: (Item.ID) -> Int?) {
        var newToOld = [Int](repeating: -1, count: new.count)
        var oldMatched = [Bool](repeating: false, count: old.count)
        var keptCandidates: [Int] = []
        var keptUnchanged: [Bool] = []
        keptCandidates.reserveCapacity(min(old.count, new.count))
        keptUnchanged.reserveCapacity(min(old.count, new.count))
        // Only unmatched identifiers need a set: a repeated matched one trips `oldMatched`.
        var insertedIDs = Set<Item.ID>()
        // Loops go by index: `for item in new` would copy (retain and release) every item.
        for offset in new.indices {
            let id = new[offset].id
            if let from = oldOffset(id) {
                if oldMatched[from] { duplicateInNewList(id) }
                oldMatched[from] = true
                newToOld[offset] = from
                keptCandidates.append(from)
                keptUnchanged.append(old[from] == new[offset])
            } else if !insertedIDs.insert(id).inserted {
                duplicateInNewList(id)
            }
        }
        let stays = keptInPlaceMask(offsets: keptCandidates, unchanged: keptUnchanged)
        var candidate = 0
        for to in new.indices {
            let from = newToOld[to]
            if from < 0 {
                inserts.append(Insert(item: new[to], to: to))
                continue
            }
            if stays[candidate] {
                if !keptUnchanged[candidate] { updates.append(Update(item: new[to], from: from, to: to)) }
            } else {
                moves.append(Move(item: new[to], from: from, to: to))
            }
            candidate += 1
        }
        for (from, matched) in oldMatched.enumerated() where !matched {
            deletes.append(Delete(id: old[from].id, from: from))
        }
    }

    /// Whether nothing changes. O(1).
    @inlinable
    public var isEmpty: Bool { deletes.isEmpty && inserts.isEmpty && moves.isEmpty && updates.isEmpty }

    /// The number of changes. O(1).
    @inlinable
    public var count: Int { deletes.count + inserts.count + moves.count + updates.count }

    /// Every change in one array: deletes, then inserts, moves and updates. O(count).
    @inlinable
    public var changes: [Change] {
        deletes.map(Change.delete) + inserts.map(Change.insert) + moves.map(Change.move)
            + updates.map(Change.update)
    }

    @inlinable
    func duplicateInNewList(_ id: Item.ID) -> Never {
        fatalError("ListDifference: duplicate item identifier \(id) in the new list")
    }
}

extension Array where Element: Identifiable & Equatable & Sendable, Element.ID: Sendable {
    /// The list that results from applying a difference with batch-update semantics.
    ///
    /// Removes every delete and move source (highest `from` first), inserts every insert and
    /// move target (lowest `to` first), then replaces the item at each update's `to`. O(n + k log k).
    /// Precondition: the difference fits this list: every `from` names the identifier it
    /// claims, and no index is reported twice or out of bounds.
    @inlinable
    public func applying(_ difference: ListDifference<Element>) -> [Element] {
        do {
            return try checkedApplying(difference)
        } catch {
            fatalError(error.description)
        }
    }

    /// ``applying(_:)``, throwing instead of stopping when the difference does not fit.
    @inlinable
    func checkedApplying(_ difference: ListDifference<Element>) throws(BatchUpdateMismatch) -> [Element] {
        let context = "ListDifference.applying"
        for delete in difference.deletes { try requireIdentifier(delete.id, at: delete.from, context) }
        for move in difference.moves { try requireIdentifier(move.id, at: move.from, context) }
        for update in difference.updates { try requireIdentifier(update.id, at: update.from, context) }
        let removals = difference.deletes.map(\.from) + difference.moves.map(\.from)
        let insertions = difference.inserts.map { (index: $0.to, element: $0.item) }
            + difference.moves.map { (index: $0.to, element: $0.item) }
        var result = try insertingElements(
            insertions, into: try removingElements(of: self, at: removals, context: context), context: context)
        for update in difference.updates {
            guard result.indices.contains(update.to) && result[update.to].id == update.id else {
                throw BatchUpdateMismatch("\(context): update of \(update.id) does not find it at \(update.to)")
            }
            result[update.to] = update.item
        }
        return result
    }

    @inlinable
    func requireIdentifier(_ id: Element.ID, at index: Int, _ context: String) throws(BatchUpdateMismatch) {
        guard indices.contains(index) && self[index].id == id else {
            throw BatchUpdateMismatch("\(context): item \(id) is not at old index \(index)")
        }
    }
}
