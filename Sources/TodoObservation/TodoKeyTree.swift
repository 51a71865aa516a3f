import TodoSnapshot
import TodoStore

/// A controller's ``TodoKeyResults`` as a tree (the tree rule, `TodoOutline`), depth first,
/// siblings in the request's order: the ids in tree order and each one's depth, about 10 bytes a
/// todo. A row's parent is the todo's stored parent when its depth is above 0; its path from the
/// top is read through the results. Like ``TodoTreeSnapshot``, a change moves the rows of the
/// changed todos and of those under them by binary search.
public struct TodoKeyTree: Sendable {
    /// The ids in tree order.
    public private(set) var ids: ChunkedList<Int64>
    private var depths: TodoIDTable<UInt16>

    private init() {
        ids = ChunkedList()
        depths = TodoIDTable(absent: 0)
    }

    /// The number of rows.
    public var count: Int { ids.count }

    /// How deep todo `id` is (0 at the top, and for a todo not in the tree).
    public func depth(of id: Int64) -> Int { Int(depths[id]) }

    /// The todos above `id`, the top one first, read through `results` (the results this tree
    /// is of).
    public func ancestors(of id: Int64, in results: TodoKeyResults) -> [Int64] {
        var above: [Int64] = []
        var current = id
        for _ in 0..<depth(of: id) {
            guard let parent = results.parentID(of: current) else { break }
            above.append(parent)
            current = parent
        }
        return above.reversed()
    }

    /// The tree of `results`, built whole by the tree rule. O(n).
    static func tree(of results: TodoKeyResults) -> TodoKeyTree {
        var nodes: [TodoOutline.Node] = []
        nodes.reserveCapacity(results.count)
        for id in results.ids {
            nodes.append(
                TodoOutline.Node(
                    id: id, parentID: results.parentID(of: id), listID: results.listID(of: id) ?? TodoList.firstID))
        }
        var tree = TodoKeyTree()
        let places = TodoOutline.places(nodes)
        nodes = []
        for place in places {
            tree.ids.append(place.id)
            tree.depths[place.id] = UInt16(clamping: place.depth)
        }
        return tree
    }

    /// Whether row `a` comes before row `b` in tree order, their paths read through `results`:
    /// the first todos that differ decide, by the request's order; an ancestor comes first.
    private func comesBefore(_ a: Int64, _ b: Int64, in results: TodoKeyResults) -> Bool {
        let pathA = ancestors(of: a, in: results) + [a]
        let pathB = ancestors(of: b, in: results) + [b]
        for level in 0..<min(pathA.count, pathB.count) where pathA[level] != pathB[level] {
            guard let x = results.todo(withID: pathA[level]), let y = results.todo(withID: pathB[level]) else {
                return pathA[level] < pathB[level]
            }
            return results.order.areInIncreasingOrder(x, y)
        }
        return pathA.count < pathB.count
    }

    /// The depth of todo `id` in `results` by the tree rule, walking up its parents; nil when
    /// the walk meets a todo twice (a loop).
    private static func depth(of id: Int64, in results: TodoKeyResults) -> Int? {
        var depth = 0
        var current = id
        var met: Set<Int64> = [id]
        while let parent = results.parentID(of: current), results.contains(parent),
            results.listID(of: parent) == results.listID(of: current), parent != current
        {
            guard met.insert(parent).inserted else { return nil }
            depth += 1
            current = parent
        }
        return depth
    }

    /// This tree (of `old`) following the results to `new`, where the todos `changed` changed
    /// and `children` are the todos whose stored parent is one of them; nil when it cannot be
    /// patched (a loop, rows out of order) and is built whole instead. O((k + s) (d + log n))
    /// for s todos under the changed ones and trees d deep.
    func patched(from old: TodoKeyResults, to new: TodoKeyResults, changed: [Int64], children: [Int64])
        -> TodoKeyTree?
    {
        guard old.isOrdered, new.isOrdered else { return nil }
        // The changed todos, those under them (the rows after each that are deeper), and the
        // todos that may come under them (with those under these), each once.
        var affected: [Int64] = []
        var seen = Set<Int64>()
        for id in changed + children where seen.insert(id).inserted {
            affected.append(id)
            guard let offset = index(of: id, in: old) else { continue }
            let depth = self.depth(of: id)
            var next = offset + 1
            while next < ids.count, self.depth(of: ids[next]) > depth {
                if seen.insert(ids[next]).inserted { affected.append(ids[next]) }
                next += 1
            }
        }
        var tree = self
        for id in affected where old.contains(id) {
            guard let offset = tree.index(of: id, in: old) else { return nil }
            tree.ids.remove(at: offset)
        }
        // Depths first (a row's path reads its ancestors' depths), then the rows go in.
        var placed: [Int64] = []
        for id in affected {
            guard new.contains(id) else {
                tree.depths[id] = 0
                continue
            }
            guard let depth = Self.depth(of: id, in: new) else { return nil }
            tree.depths[id] = UInt16(clamping: depth)
            placed.append(id)
        }
        for id in placed {
            let offset = tree.ids.lowerBound { tree.comesBefore($0, id, in: new) }
            if offset < tree.ids.count, tree.ids[offset] == id { return nil }
            tree.ids.insert(id, at: offset)
        }
        return tree
    }

    /// Where row `id` is, nil when absent: binary search by its path in `results` (the results
    /// this tree is of), checked.
    public func index(of id: Int64, in results: TodoKeyResults) -> Int? {
        guard results.contains(id) else { return nil }
        let offset = ids.lowerBound { comesBefore($0, id, in: results) }
        if offset < ids.count, ids[offset] == id { return offset }
        return ids.firstIndex(of: id)
    }
}

/// What a controller in keys mode keeps of the tree: the number of todos of its results that
/// store a parent, and the tree while there are some (as `TodoTreeState` does for whole todos).
struct TodoKeyTreeState {
    private(set) var tree: TodoKeyTree?
    private var links = 0

    mutating func reset(to results: TodoKeyResults) {
        links = 0
        for id in results.ids where results.parentID(of: id) != nil { links += 1 }
        tree = links == 0 ? nil : .tree(of: results)
    }

    /// Follows the results from `old` to `new`, which differ at most in `changed` (nil:
    /// unknown); `children` reads the ids of the todos whose stored parent is one of some ids.
    mutating func update(
        from old: TodoKeyResults, to new: TodoKeyResults, changed: [Int64]?,
        children: ([Int64]) throws(TodoStoreError) -> [Int64]
    ) throws(TodoStoreError) -> (previous: TodoKeyTree?, tree: TodoKeyTree?)? {
        let previous = tree
        guard let changed else {
            reset(to: new)
            return previous == nil && tree == nil ? nil : (previous, tree)
        }
        for id in changed {
            if old.parentID(of: id) != nil { links -= 1 }
            if new.parentID(of: id) != nil { links += 1 }
        }
        guard links > 0 else {
            tree = nil
            return previous == nil ? nil : (previous, nil)
        }
        guard let current = previous else {
            tree = .tree(of: new)
            return (nil, tree)
        }
        if let patched = current.patched(from: old, to: new, changed: changed, children: try children(changed)) {
            tree = patched
        } else {
            tree = .tree(of: new)
        }
        return (previous, tree)
    }
}
