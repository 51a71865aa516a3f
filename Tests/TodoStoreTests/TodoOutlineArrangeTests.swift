import TestSupport
import Testing

@testable import TodoStore

/// The tree rule's walk, made cheaper for the snapshot build (issue 38), against the walk as it
/// was: the same tree, loop cuts, context placing and repeated ids left out, on random forests.
@Suite(.timed) struct TodoOutlineArrangeTests {
    /// The walk as it was before issue 38's snapshot build work, kept as the oracle.
    static func referenceArrange(count: Int, chosen: Int, _ node: (Int) -> TodoOutline.Node) -> [(
        position: Int, depth: Int, parent: Int?
    )] {
        var positions: [Int64: Int] = [:]
        var present = [Bool](repeating: false, count: count)
        for position in 0..<count where positions[node(position).id] == nil {
            positions[node(position).id] = position
            present[position] = true
        }
        var parents = [Int](repeating: -1, count: count)
        for position in 0..<count where present[position] {
            let below = node(position)
            if let id = below.parentID, let at = positions[id], TodoOutline.isUnder(below, node(at)) {
                parents[position] = at
            }
        }
        var state = [UInt8](repeating: 0, count: count)
        var path: [Int] = []
        for start in 0..<count where present[start] && state[start] == 0 {
            path.removeAll()
            var current = start
            while state[current] != 2 {
                state[current] = 1
                path.append(current)
                let up = parents[current]
                guard up >= 0 else { break }
                if state[up] == 1 {
                    parents[current] = -1
                    break
                }
                current = up
            }
            for position in path { state[position] = 2 }
        }
        var roots: [Int] = []
        var firstChild = [Int](repeating: -1, count: count)
        var lastChild = [Int](repeating: -1, count: count)
        var nextSibling = [Int](repeating: -1, count: count)
        var placed = [Bool](repeating: false, count: count)
        for position in 0..<min(chosen, count) where present[position] && !placed[position] {
            placed[position] = true
            var chain = [position]
            var current = position
            while parents[current] >= 0, parents[current] >= chosen, !placed[parents[current]] {
                current = parents[current]
                placed[current] = true
                chain.append(current)
            }
            for node in chain.reversed() {
                let parent = parents[node]
                guard parent >= 0 else {
                    roots.append(node)
                    continue
                }
                if lastChild[parent] >= 0 { nextSibling[lastChild[parent]] = node } else { firstChild[parent] = node }
                lastChild[parent] = node
            }
        }
        var tree: [(position: Int, depth: Int, parent: Int?)] = []
        var stack: [(position: Int, depth: Int)] = roots.reversed().map { ($0, 0) }
        while let (position, depth) = stack.popLast() {
            let parent = parents[position]
            tree.append((position, depth, parent >= 0 ? parent : nil))
            var children: [Int] = []
            var child = firstChild[position]
            while child >= 0 {
                children.append(child)
                child = nextSibling[child]
            }
            for child in children.reversed() { stack.append((child, depth + 1)) }
        }
        return tree
    }

    /// A random forest of `count` nodes over few ids (so some repeat), few lists, parents that
    /// are often in the forest, sometimes missing, sometimes making loops.
    static func forest(_ count: Int, using random: inout SeededGenerator) -> [TodoOutline.Node] {
        let ids = Int64(max(1, count * 9 / 10))
        return (0..<count).map { _ in
            let id = Int64.random(in: 1...ids, using: &random)
            let parent: Int64? =
                Int.random(in: 0..<3, using: &random) == 0 ? nil : Int64.random(in: 1...ids + 2, using: &random)
            return TodoOutline.Node(id: id, parentID: parent, listID: Int64.random(in: 1...2, using: &random))
        }
    }

    @Test func theWalkIsTheOneItWas() {
        let seed = TestSeed.make("TodoOutlineArrangeTests")
        var random = SeededGenerator(seed: seed)
        for _ in 0..<400 {
            let nodes = Self.forest(Int.random(in: 0...60, using: &random), using: &random)
            let chosen = Int.random(in: 0...nodes.count, using: &random)
            let ours = TodoOutline.arrange(count: nodes.count, chosen: chosen) { nodes[$0] }
            let theirs = Self.referenceArrange(count: nodes.count, chosen: chosen) { nodes[$0] }
            #expect(ours.map(\.position) == theirs.map(\.position), "seed \(seed), nodes \(nodes), chosen \(chosen)")
            #expect(ours.map(\.depth) == theirs.map(\.depth), "seed \(seed), nodes \(nodes), chosen \(chosen)")
            #expect(ours.map(\.parent) == theirs.map(\.parent), "seed \(seed), nodes \(nodes), chosen \(chosen)")
        }
    }

    /// `arranged(count:nodes:)`, what the snapshot build's nesting calls, is `arranged(count:_:)`
    /// told the nodes rather than the todos.
    @Test func arrangedOnNodesIsArrangedOnTodos() {
        let seed = TestSeed.make("TodoOutlineArrangeTests.nodes")
        var random = SeededGenerator(seed: seed)
        for _ in 0..<200 {
            let nodes = Self.forest(Int.random(in: 0...40, using: &random), using: &random)
            let todos = nodes.map {
                Todo(id: $0.id, TodoFields(name: "\($0.id)"), listID: $0.listID, parentID: $0.parentID)
            }
            let onNodes = TodoOutline.arranged(count: nodes.count, nodes: { nodes[$0] })
            let onTodos = TodoOutline.arranged(count: todos.count) { todos[$0] }
            #expect(onNodes?.map(\.offset) == onTodos?.map(\.offset), "seed \(seed)")
            #expect(onNodes?.map(\.parent) == onTodos?.map(\.parent), "seed \(seed)")
            #expect((onNodes == nil) == !nodes.contains { $0.parentID != nil }, "seed \(seed)")
        }
    }
}
