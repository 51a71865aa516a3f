/// Todos as a tree: each subtask right after its parent, indented one level deeper, siblings in
/// the order they were fetched in. The one rule of what is a subtask, for every reader: a todo is
/// under its parent (``Todo/parentID``) when that parent is among the todos shown and in the
/// same list; otherwise it is at the top level (its parent is gone, in another list, or not on
/// this device yet). A loop, which the store refuses but a damaged file could hold, is cut where
/// it closes: no reader ever walks it forever.
public struct TodoOutline: Sendable, Equatable {
    /// One row of the tree.
    public struct Row: Sendable, Equatable {
        public var todo: Todo
        /// 0 at the top level, 1 for a subtask, and so on.
        public var depth: Int
        /// Whether the todo is shown only as the parent of a todo the filter chose (a search that
        /// finds "Oat milk" shows "Weekend groceries" above it, dimmed).
        public var isContext: Bool

        public init(todo: Todo, depth: Int, isContext: Bool = false) {
            self.todo = todo
            self.depth = depth
            self.isContext = isContext
        }
    }

    /// What the rule needs of a todo: its id, its parent's and its list's.
    public struct Node: Sendable, Equatable {
        public var id: Int64
        public var parentID: Int64?
        public var listID: Int64

        public init(id: Int64, parentID: Int64?, listID: Int64) {
            self.id = id
            self.parentID = parentID
            self.listID = listID
        }

        public init(_ todo: Todo) { self.init(id: todo.id, parentID: todo.parentID, listID: todo.listID) }
    }

    /// A todo's place in the tree's order.
    public struct Place: Sendable, Equatable {
        public var id: Int64
        public var depth: Int
        public var isContext: Bool
    }

    /// The rows, depth first.
    public var rows: [Row]

    /// The tree of `todos`, siblings in the order of `todos`, with `context` (ancestors of some
    /// of them that were not chosen themselves) each placed where its first chosen descendant is.
    public init(_ todos: [Todo], context: [Todo] = []) {
        var byID: [Int64: Todo] = [:]
        byID.reserveCapacity(todos.count + context.count)
        for todo in context + todos { byID[todo.id] = todo }
        rows = Self.places(todos.map(Node.init), context: context.map(Node.init)).compactMap { place in
            byID[place.id].map { Row(todo: $0, depth: place.depth, isContext: place.isContext) }
        }
    }

    /// The places of `nodes` (chosen, in their order) and `context` (their ancestors not chosen),
    /// depth first: the rule itself, on ids alone, so that a list of a million todos orders its
    /// tree without holding its rows.
    ///
    /// O(n): each parent chain is walked once; arrays indexed by position, one dictionary of ids.
    public static func places(_ nodes: [Node], context: [Node] = []) -> [Place] {
        let all = nodes + context
        let chosen = nodes.count
        var index: [Int64: Int32] = [:]
        index.reserveCapacity(all.count)
        for (offset, node) in all.enumerated() where index[node.id] == nil { index[node.id] = Int32(offset) }
        // Each todo's parent by the rule (-1: the top level).
        var parent = [Int32](repeating: -1, count: all.count)
        for (offset, node) in all.enumerated() {
            if let id = node.parentID, id != node.id, let above = index[id], all[Int(above)].listID == node.listID {
                parent[offset] = above
            }
        }
        // The links that close a loop are cut, in the order given, so that the same todos always
        // cut a loop at the same place. 0: not walked, 1: on the walk under way, 2: walked.
        var state = [UInt8](repeating: 0, count: all.count)
        var path: [Int32] = []
        for start in all.indices where state[start] == 0 {
            path.removeAll(keepingCapacity: true)
            var current = Int32(start)
            while state[Int(current)] == 0 {
                state[Int(current)] = 1
                path.append(current)
                let up = parent[Int(current)]
                if up < 0 { break }
                if state[Int(up)] == 1 {
                    parent[Int(current)] = -1
                    break
                }
                current = up
            }
            for offset in path { state[Int(offset)] = 2 }
        }
        // Siblings in the order given: a context todo is placed just before its first chosen
        // descendant, so that it takes that one's place. Children as linked lists of positions.
        var roots: [Int32] = []
        var firstChild = [Int32](repeating: -1, count: all.count)
        var lastChild = [Int32](repeating: -1, count: all.count)
        var nextSibling = [Int32](repeating: -1, count: all.count)
        var placed = [Bool](repeating: false, count: all.count)
        func attach(_ offset: Int32) {
            let up = parent[Int(offset)]
            if up < 0 {
                roots.append(offset)
            } else {
                if lastChild[Int(up)] < 0 {
                    firstChild[Int(up)] = offset
                } else {
                    nextSibling[Int(lastChild[Int(up)])] = offset
                }
                lastChild[Int(up)] = offset
            }
        }
        var chain: [Int32] = []
        for offset in 0..<chosen where !placed[offset] {
            placed[offset] = true
            chain.removeAll(keepingCapacity: true)
            chain.append(Int32(offset))
            var current = Int32(offset)
            while case let up = parent[Int(current)], up >= chosen, !placed[Int(up)] {
                placed[Int(up)] = true
                chain.append(up)
                current = up
            }
            for link in chain.reversed() { attach(link) }
        }
        // Depth first without recursion: a deep tree must not overflow the stack.
        var places: [Place] = []
        places.reserveCapacity(all.count)
        var stack: [(offset: Int32, depth: Int)] = roots.reversed().map { ($0, 0) }
        var children: [Int32] = []
        while let (offset, depth) = stack.popLast() {
            places.append(Place(id: all[Int(offset)].id, depth: depth, isContext: Int(offset) >= chosen))
            children.removeAll(keepingCapacity: true)
            var child = firstChild[Int(offset)]
            while child >= 0 {
                children.append(child)
                child = nextSibling[Int(child)]
            }
            for child in children.reversed() { stack.append((child, depth + 1)) }
        }
        return places
    }
}
