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
        /// The id of the todo this one is under in the tree (the row above it at `depth - 1`),
        /// nil at the top level: its ``Todo/parentID`` by the rule, or nil where the rule (or a
        /// loop cut) put it at the top.
        public var parentID: Int64?

        public init(todo: Todo, depth: Int, isContext: Bool = false, parentID: Int64? = nil) {
            self.todo = todo
            self.depth = depth
            self.isContext = isContext
            self.parentID = parentID
        }
    }

    /// The rule itself, for readers that place todos one at a time (the fetched-results
    /// controller, patching a commit's todos into its tree): the todo `todo` is under, found by
    /// `shown` among the todos shown (nil: not shown), or nil when it is at the top level. It
    /// says nothing of loops: a reader that walks up must stop where it meets a todo twice, and
    /// take the tree whole from ``init(_:context:)`` then, which cuts the loop.
    @inlinable
    public static func parent(of todo: Todo, among shown: (Int64) -> Todo?) -> Todo? {
        guard let id = todo.parentID, let parent = shown(id), isUnder(Node(todo), Node(parent)) else { return nil }
        return parent
    }

    /// The rule on what it needs: whether `node` is under `parent` (a todo shown, whose id is
    /// `node`'s parent id): not itself, and in the same list.
    @inlinable
    static func isUnder(_ node: Node, _ parent: Node) -> Bool {
        node.parentID == parent.id && parent.id != node.id && parent.listID == node.listID
    }

    /// What the rule needs of a todo: its id, its parent's and its list's.
    public struct Node: Sendable, Equatable {
        public var id: Int64
        public var parentID: Int64?
        public var listID: Int64

        @inlinable
        public init(id: Int64, parentID: Int64?, listID: Int64) {
            self.id = id
            self.parentID = parentID
            self.listID = listID
        }

        @inlinable
        public init(_ todo: Todo) { self.init(id: todo.id, parentID: todo.parentID, listID: todo.listID) }
    }

    /// A todo's place in the tree's order (``places(_:context:)``).
    public struct Place: Sendable, Equatable {
        public var id: Int64
        public var depth: Int
        public var isContext: Bool
    }

    /// The places of `nodes` (chosen, in their order) and `context` (their ancestors not chosen),
    /// depth first: the rule on ids alone, so that a list of a million todos orders its tree
    /// without holding its rows (``TodoRepository/forEachInOutline(_:withContext:_:)``). O(n).
    public static func places(_ nodes: [Node], context: [Node] = []) -> [Place] {
        let count = nodes.count + context.count
        func node(_ position: Int) -> Node {
            position < nodes.count ? nodes[position] : context[position - nodes.count]
        }
        return arrange(count: count, chosen: nodes.count, node).map { entry in
            Place(id: node(entry.position).id, depth: entry.depth, isContext: entry.position >= nodes.count)
        }
    }

    /// The rows, depth first.
    public var rows: [Row]

    /// The tree of `todos`, siblings in the order of `todos`, with `context` (ancestors of some
    /// of them that were not chosen themselves) each placed where its first chosen descendant is.
    ///
    /// O(n): each parent chain is walked once.
    public init(_ todos: [Todo], context: [Todo] = []) {
        // No todo under another (most lists): the todos as they are, without a table of them.
        guard !context.isEmpty || todos.contains(where: { $0.parentID != nil }) else {
            rows = todos.map { Row(todo: $0, depth: 0) }
            return
        }
        // Positions past the chosen todos are the context's.
        func todo(_ position: Int) -> Todo {
            position < todos.count ? todos[position] : context[position - todos.count]
        }
        rows = Self.arrange(count: todos.count + context.count, chosen: todos.count, { Node(todo($0)) }).map { entry in
            Row(
                todo: todo(entry.position), depth: entry.depth, isContext: entry.position >= todos.count,
                parentID: entry.parent.map { todo($0).id })
        }
    }

    /// The tree of `count` todos, `members` (0 ..< count) by position: the chosen ones first
    /// (`0 ..< chosen`, siblings in that order), then context ones. A position that repeats an
    /// earlier one's id is left out. Depth first, each entry with its position, its depth and
    /// the position of the todo it is under.
    ///
    /// The rule's whole work on positions: one table from id to position, the rest arrays, so
    /// that arranging a million todos costs a pass or two over them and no table per todo.
    /// O(n).
    @usableFromInline
    static func arrange(count: Int, chosen: Int, _ node: (Int) -> Node) -> [(
        position: Int, depth: Int, parent: Int?
    )] {
        var positions: [Int64: Int] = [:]
        positions.reserveCapacity(count)
        var present = [Bool](repeating: true, count: count)
        // Backwards, so that the position kept for a repeated id is its first: one look-up each.
        for position in (0..<count).reversed() {
            if let later = positions.updateValue(position, forKey: node(position).id) { present[later] = false }
        }
        // Each todo's parent by the rule; then the links that close a loop are cut.
        var parents = [Int](repeating: -1, count: count)
        for position in 0..<count where present[position] {
            let below = node(position)
            if let id = below.parentID, let at = positions[id], isUnder(below, node(at)) { parents[position] = at }
        }
        // 0: not walked, 1: on the walk under way, 2: walked. In the order given, so that the
        // same todos always cut a loop at the same place: the todo where it closes stays at the top.
        var state = [UInt8](repeating: 0, count: count)
        for start in 0..<count where present[start] && state[start] == 0 {
            var current = start
            while state[current] != 2 {
                state[current] = 1
                let up = parents[current]
                guard up >= 0 else { break }
                if state[up] == 1 {
                    parents[current] = -1
                    break
                }
                current = up
            }
            // The walk again, now without its loop, marking it walked.
            current = start
            while state[current] == 1 {
                state[current] = 2
                guard parents[current] >= 0 else { break }
                current = parents[current]
            }
        }
        // Siblings in the order of the chosen todos: a context todo is placed just before its
        // first chosen descendant, so that it takes that one's place. Children as linked lists
        // by position (first, next), so that no parent needs an array of its own.
        var roots: [Int] = []
        var firstChild = [Int](repeating: -1, count: count)
        var lastChild = [Int](repeating: -1, count: count)
        var nextSibling = [Int](repeating: -1, count: count)
        var placed = [Bool](repeating: false, count: count)
        for position in 0..<min(chosen, count) where present[position] && !placed[position] {
            placed[position] = true
            // Up through the context todos not placed yet, each linked under its parent on the
            // way: each of those parents but the last is placed just now, with no other child,
            // so the order of the links changes nothing.
            var node = position
            while true {
                let parent = parents[node]
                guard parent >= 0 else {
                    roots.append(node)
                    break
                }
                if lastChild[parent] >= 0 { nextSibling[lastChild[parent]] = node } else { firstChild[parent] = node }
                lastChild[parent] = node
                guard parent >= chosen, !placed[parent] else { break }
                placed[parent] = true
                node = parent
            }
        }
        var tree: [(position: Int, depth: Int, parent: Int?)] = []
        tree.reserveCapacity(count)
        // Depth first without recursion: a deep tree must not overflow the stack.
        var stack: [(position: Int, depth: Int)] = roots.reversed().map { ($0, 0) }
        while let (position, depth) = stack.popLast() {
            let parent = parents[position]
            tree.append((position, depth, parent >= 0 ? parent : nil))
            // The children pushed last first, so that the first pops first.
            let pushed = stack.count
            var child = firstChild[position]
            while child >= 0 {
                stack.append((child, depth + 1))
                child = nextSibling[child]
            }
            var (low, high) = (pushed, stack.count - 1)
            while low < high {
                stack.swapAt(low, high)
                (low, high) = (low + 1, high - 1)
            }
        }
        return tree
    }

    /// The tree of `count` todos (`todo(i)` for i in 0 ..< count, siblings in that order), as
    /// each one's offset among them and the offset of the todo it is under, depth first; nil
    /// when none of them has a parent. What a view that groups todos arranges each group with,
    /// without copying the todos: inlinable, so that a caller's `todo` (an element of its array)
    /// is read for the three fields the rule needs (`Node`), once each, not copied whole (a copy
    /// of a todo retains and releases each of its strings). O(n).
    @inlinable
    public static func arranged(count: Int, _ todo: (Int) -> Todo) -> [(offset: Int, parent: Int?)]? {
        arranged(count: count, nodes: { Node(todo($0)) })
    }

    /// ``arranged(count:_:)`` told what the rule needs of each todo (`node(i)`), for a caller
    /// that reads the three fields where its todos are, which copies nothing (a todo returned by
    /// a closure may be copied whole on the way). O(n).
    @inlinable
    public static func arranged(count: Int, nodes node: (Int) -> Node) -> [(offset: Int, parent: Int?)]? {
        var nodes: [Node] = []
        nodes.reserveCapacity(count)
        var nests = false
        for offset in 0..<count {
            let node = node(offset)
            nests = nests || node.parentID != nil
            nodes.append(node)
        }
        guard nests else { return nil }
        return arrange(count: count, chosen: count, { nodes[$0] }).map { ($0.position, $0.parent) }
    }
}
