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
        guard let id = todo.parentID, id != todo.id, let parent = shown(id), parent.listID == todo.listID else {
            return nil
        }
        return parent
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
        var nodes: [Int64: (todo: Todo, isContext: Bool)] = [:]
        nodes.reserveCapacity(todos.count + context.count)
        for todo in context { nodes[todo.id] = (todo, true) }
        for todo in todos { nodes[todo.id] = (todo, false) }
        // Each todo's parent by the rule above; then the links that close a loop are cut.
        var parents: [Int64: Int64] = [:]
        for (id, node) in nodes {
            if let parent = Self.parent(of: node.todo, among: { nodes[$0]?.todo }) { parents[id] = parent.id }
        }
        var walked = Set<Int64>()
        walked.reserveCapacity(nodes.count)
        // In the order given, so that the same todos always cut a loop at the same place.
        for id in todos.map(\.id) + context.map(\.id) where !walked.contains(id) {
            var path: [Int64] = []
            var onPath = Set<Int64>()
            var current = id
            while !walked.contains(current) {
                path.append(current)
                onPath.insert(current)
                guard let up = parents[current] else { break }
                if onPath.contains(up) {
                    // A loop: the todo where it closes stays at the top.
                    parents[current] = nil
                    break
                }
                current = up
            }
            walked.formUnion(path)
        }
        // Siblings in the order of `todos`: a context todo is placed just before its first
        // chosen descendant, so that it takes that one's place.
        var roots: [Int64] = []
        var children: [Int64: [Int64]] = [:]
        var placed = Set<Int64>()
        placed.reserveCapacity(nodes.count)
        for todo in todos where placed.insert(todo.id).inserted {
            var chain = [todo.id]
            var current = todo.id
            while let up = parents[current], nodes[up]?.isContext == true, placed.insert(up).inserted {
                chain.append(up)
                current = up
            }
            for id in chain.reversed() {
                if let parent = parents[id] { children[parent, default: []].append(id) } else { roots.append(id) }
            }
        }
        var rows: [Row] = []
        rows.reserveCapacity(placed.count)
        // Depth first without recursion: a deep tree must not overflow the stack.
        var stack: [(id: Int64, depth: Int, parent: Int64?)] = roots.reversed().map { ($0, 0, nil) }
        while let (id, depth, parent) = stack.popLast() {
            guard let node = nodes[id] else { continue }
            rows.append(Row(todo: node.todo, depth: depth, isContext: node.isContext, parentID: parent))
            for child in (children[id] ?? []).reversed() { stack.append((child, depth + 1, id)) }
        }
        self.rows = rows
    }
}
