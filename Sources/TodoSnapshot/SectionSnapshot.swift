/// A forest of item identifiers with expansion state: the rows of one outline section.
///
/// Like `NSDiffableDataSourceSectionSnapshot`. Each identifier appears once; items are ordered
/// depth-first (a parent, then its children, then its next sibling). An item added is
/// collapsed, as in UIKit. Expansion state is plain data (``expandedItems``), so a rebuilt
/// snapshot can take it over from the previous one with ``copyExpansionState(from:)``.
///
/// Lookups by identifier are O(1) amortised; inserting or deleting among siblings costs
/// O(number of siblings); the flattened lists cost O(n).
public struct SectionSnapshot<ItemID: Hashable & Sendable>: Sendable, Equatable {
    /// One item's place in the forest.
    @usableFromInline
    struct Node: Sendable, Equatable {
        @usableFromInline var parent: ItemID?
        @usableFromInline var children: [ItemID]

        @inlinable
        init(parent: ItemID?, children: [ItemID] = []) {
            self.parent = parent
            self.children = children
        }
    }

    /// The top-level items, in order.
    @usableFromInline
    var roots: [ItemID] = []
    /// Every item's parent and children.
    @usableFromInline
    var nodes: [ItemID: Node] = [:]
    /// The expanded items; always a subset of the items present.
    @usableFromInline
    var expanded: Set<ItemID> = []

    /// Creates an empty section snapshot.
    @inlinable
    public init() {}

    // MARK: - Editing

    /// Appends items after the last child of `parent`, or at the top level when it is nil.
    ///
    /// O(k). Precondition: `parent`, if given, is present; no new identifier is present already
    /// or repeated in `items`.
    @inlinable
    public mutating func append(_ items: [ItemID], to parent: ItemID? = nil) {
        if let parent { _ = requireNode(parent) }
        claim(items, parent: parent)
        if let parent {
            nodes[parent]?.children.append(contentsOf: items)
        } else {
            roots.append(contentsOf: items)
        }
    }

    /// Appends a forest of items after the last child of `parent` (at the top level when it is
    /// nil): `parents[i]` is the position in `items` of the item `items[i]` is under (an earlier
    /// one), nil for an item right under `parent`. Items are depth first or in any order that
    /// keeps each item's children in order.
    ///
    /// O(k): each item is hashed once, as ``append(_:to:)`` hashes it. Precondition: `parent`,
    /// if given, is present; no new identifier is present already or repeated; each position in
    /// `parents` is in `items`.
    @inlinable
    public mutating func append(_ items: [ItemID], parents: [Int?], to parent: ItemID? = nil) {
        if let parent { _ = requireNode(parent) }
        var children = [[ItemID]](repeating: [], count: items.count)
        var top: [ItemID] = []
        for (position, above) in parents.enumerated() {
            if let above { children[above].append(items[position]) } else { top.append(items[position]) }
        }
        nodes.reserveCapacity(nodes.count + items.count)
        for (position, item) in items.enumerated() {
            let node = Node(parent: parents[position].map { items[$0] } ?? parent, children: children[position])
            guard nodes.updateValue(node, forKey: item) == nil else {
                fatalError("SectionSnapshot: duplicate item identifier \(item)")
            }
        }
        if let parent {
            nodes[parent]?.children.append(contentsOf: top)
        } else {
            roots.append(contentsOf: top)
        }
    }

    /// Inserts items just before `sibling`, under the same parent.
    ///
    /// O(k + siblings). Precondition: `sibling` is present; no new identifier is present already
    /// or repeated.
    @inlinable
    public mutating func insert(_ items: [ItemID], before sibling: ItemID) {
        insert(items, nextTo: sibling, after: false)
    }

    /// Inserts items just after `sibling`, under the same parent.
    ///
    /// O(k + siblings). Precondition: `sibling` is present; no new identifier is present already
    /// or repeated.
    @inlinable
    public mutating func insert(_ items: [ItemID], after sibling: ItemID) {
        insert(items, nextTo: sibling, after: true)
    }

    /// Removes items together with all their descendants. Absent identifiers are ignored.
    ///
    /// O(removed items + siblings of the removed items).
    @inlinable
    public mutating func delete(_ items: [ItemID]) {
        var removed = Set<ItemID>()
        var affectedParents = Set<ItemID>()
        var affectsRoots = false
        for item in items where !removed.contains(item) {
            guard let node = nodes[item] else { continue }
            if let parent = node.parent { affectedParents.insert(parent) } else { affectsRoots = true }
            var stack = [item]
            while let next = stack.popLast() {
                guard removed.insert(next).inserted, let removedNode = nodes.removeValue(forKey: next) else {
                    continue
                }
                expanded.remove(next)
                stack.append(contentsOf: removedNode.children)
            }
        }
        guard !removed.isEmpty else { return }
        if affectsRoots { roots.removeAll { removed.contains($0) } }
        // A parent that went too needs no tidying.
        for parent in affectedParents where nodes[parent] != nil {
            nodes[parent]?.children.removeAll { removed.contains($0) }
        }
    }

    /// Makes room for `count` items in total, so building a large outline never rehashes.
    /// O(count) when it grows the storage.
    @inlinable
    public mutating func reserveCapacity(_ count: Int) {
        nodes.reserveCapacity(count)
    }

    /// Removes every item and its expansion state, keeping the storage for the items to come
    /// (a builder that fills the same value again).
    @inlinable
    mutating func removeAllKeepingCapacity() {
        roots.removeAll(keepingCapacity: true)
        nodes.removeAll(keepingCapacity: true)
        expanded.removeAll(keepingCapacity: true)
    }

    // MARK: - Expansion

    /// Expands items, so their children count as visible when they themselves are. O(k).
    ///
    /// Precondition: every item is present.
    @inlinable
    public mutating func expand(_ items: [ItemID]) {
        for item in items {
            _ = requireNode(item)
            expanded.insert(item)
        }
    }

    /// Collapses items, hiding their descendants from ``visibleItems``. O(k).
    ///
    /// Precondition: every item is present.
    @inlinable
    public mutating func collapse(_ items: [ItemID]) {
        for item in items {
            _ = requireNode(item)
            expanded.remove(item)
        }
    }

    /// Whether the item is expanded; false when it is absent. O(1).
    @inlinable
    public func isExpanded(_ item: ItemID) -> Bool { expanded.contains(item) }

    /// The expanded items. Setting it drops identifiers that are not present, so the state of
    /// an older snapshot can be assigned as is. O(k).
    @inlinable
    public var expandedItems: Set<ItemID> {
        get { expanded }
        set { expanded = newValue.filter { nodes[$0] != nil } }
    }

    /// Takes over the expansion state of an older snapshot for the items both share; items that
    /// are new here keep their own state.
    ///
    /// O(expanded items of both), not O(n): only expanded items can change state.
    @inlinable
    public mutating func copyExpansionState(from other: SectionSnapshot) {
        for item in expanded where other.nodes[item] != nil && !other.expanded.contains(item) {
            expanded.remove(item)
        }
        for item in other.expanded where nodes[item] != nil {
            expanded.insert(item)
        }
    }

    // MARK: - Reading

    /// The number of items, at every level. O(1).
    @inlinable
    public var count: Int { nodes.count }

    /// Whether the item is present, at any level. O(1) amortised.
    @inlinable
    public func contains(_ item: ItemID) -> Bool { nodes[item] != nil }

    /// The top-level items, in order. O(1).
    @inlinable
    public var rootItems: [ItemID] { roots }

    /// Every item, depth-first: each parent followed by its descendants. O(n).
    @inlinable
    public var items: [ItemID] { flattened(onlyVisible: false) }

    /// The items a list shows: like ``items``, minus the descendants of collapsed items. O(n).
    @inlinable
    public var visibleItems: [ItemID] { flattened(onlyVisible: true) }

    /// Whether the item is present and every ancestor of it is expanded. O(depth).
    @inlinable
    public func isVisible(_ item: ItemID) -> Bool {
        guard var node = nodes[item] else { return false }
        while let parent = node.parent {
            guard expanded.contains(parent), let parentNode = nodes[parent] else { return false }
            node = parentNode
        }
        return true
    }

    /// The item's depth: 0 for a top-level item. O(depth).
    ///
    /// Precondition: the item is present.
    @inlinable
    public func level(of item: ItemID) -> Int {
        var level = 0
        var node = requireNode(item)
        while let parent = node.parent {
            level += 1
            node = requireNode(parent)
        }
        return level
    }

    /// The item's parent, or nil for a top-level item. O(1) amortised.
    ///
    /// Precondition: the item is present.
    @inlinable
    public func parent(of item: ItemID) -> ItemID? { requireNode(item).parent }

    /// The item's direct children, in order. O(1) amortised.
    ///
    /// Precondition: the item is present.
    @inlinable
    public func children(of item: ItemID) -> [ItemID] { requireNode(item).children }

    /// A section snapshot of the item's descendants: its children become the top level, or,
    /// with `includingParent`, the item itself is the single root.
    ///
    /// Expansion state comes along. O(size of the subtree). Precondition: the item is present.
    @inlinable
    public func snapshot(of parent: ItemID, includingParent: Bool = false) -> SectionSnapshot {
        var result = SectionSnapshot()
        let node = requireNode(parent)
        if includingParent {
            result.roots = [parent]
            result.nodes[parent] = Node(parent: nil, children: node.children)
            if expanded.contains(parent) { result.expanded.insert(parent) }
        } else {
            result.roots = node.children
        }
        var stack = node.children
        while let item = stack.popLast() {
            let original = requireNode(item)
            let newParent = original.parent == parent && !includingParent ? nil : original.parent
            result.nodes[item] = Node(parent: newParent, children: original.children)
            if expanded.contains(item) { result.expanded.insert(item) }
            stack.append(contentsOf: original.children)
        }
        return result
    }

    // MARK: - Internal

    @inlinable
    func requireNode(_ item: ItemID) -> Node {
        guard let node = nodes[item] else {
            fatalError("SectionSnapshot: no item \(item)")
        }
        return node
    }

    /// Registers new items under `parent`, stopping on the first duplicate before it is linked.
    @inlinable
    mutating func claim(_ items: [ItemID], parent: ItemID?) {
        nodes.reserveCapacity(nodes.count + items.count)
        for item in items where nodes.updateValue(Node(parent: parent), forKey: item) != nil {
            fatalError("SectionSnapshot: duplicate item identifier \(item)")
        }
    }

    @inlinable
    mutating func insert(_ items: [ItemID], nextTo sibling: ItemID, after: Bool) {
        let parent = requireNode(sibling).parent
        claim(items, parent: parent)
        if let parent {
            guard let index = nodes[parent]?.children.firstIndex(of: sibling) else { return }
            nodes[parent]?.children.insert(contentsOf: items, at: after ? index + 1 : index)
        } else if let index = roots.firstIndex(of: sibling) {
            roots.insert(contentsOf: items, at: after ? index + 1 : index)
        }
    }

    @inlinable
    func flattened(onlyVisible: Bool) -> [ItemID] {
        var result: [ItemID] = []
        result.reserveCapacity(nodes.count)
        var stack = Array(roots.reversed())
        while let item = stack.popLast() {
            result.append(item)
            guard !onlyVisible || expanded.contains(item), let node = nodes[item] else { continue }
            stack.append(contentsOf: node.children.reversed())
        }
        return result
    }
}
