// Benchmarks of the snapshot layer: the diff against the standard library's, and the build of
// the two-section todo list. Fixed seeds, so every run measures the same work.
import TodoObservation
import TodoSnapshot
import TodoStore

/// A todo as the benchmarks build it: the fields a row shows.
struct BenchTodo: Identifiable, Equatable, Sendable {
    var id: Int64
    var name: String
    var deadline: Int32?
    var done: Bool
}

/// SplitMix64: a small, fast generator whose output depends only on the seed.
private struct SnapshotBenchRandom: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The items of each list the snapshot benchmarks diff or build, unless told another number.
let snapshotBenchCount = 100_000

private func snapshotBenchTodos(count: Int, using random: inout SnapshotBenchRandom) -> [BenchTodo] {
    var todos: [BenchTodo] = []
    todos.reserveCapacity(count)
    for index in 0..<count {
        let deadline: Int32? = index % 3 == 0 ? nil : Int32.random(in: 19_000...20_000, using: &random)
        todos.append(
            BenchTodo(id: Int64(index + 1), name: "Todo number \(index)", deadline: deadline, done: index % 5 == 0))
    }
    return todos
}

/// The best of five runs of `body`, in milliseconds. Each run's result goes through `check`,
/// a precondition, so the optimiser cannot drop the work.
private func snapshotBenchBestOfFive<Result>(_ body: () -> Result, check: (Result) -> Bool) -> Double {
    let clock = ContinuousClock()
    var best = Double.infinity
    for _ in 0..<5 {
        var result: Result?
        let elapsed = clock.measure { result = body() }
        precondition(result.map(check) == true, "benchmark result failed its check")
        let (seconds, attoseconds) = elapsed.components
        best = min(best, Double(seconds) * 1e3 + Double(attoseconds) / 1e15)
    }
    return best
}

/// Milliseconds (best of 5) to diff two `count`-item flat snapshots that differ by 1% inserts,
/// 1% deletes, 1% moves and 1% updates: ours (`Snapshot.difference(from:)`) against the
/// standard library's `difference(from:).inferringMoves()` on the same id arrays, which cannot
/// see updates at all. Ours is checked once: applying its result to the old list gives the new.
func benchSnapshotDiff(count: Int = snapshotBenchCount) -> (ours: Double, baseline: Double) {
    var random = SnapshotBenchRandom(state: 0xD1FF)
    let old = snapshotBenchTodos(count: count, using: &random)
    let changed = count / 100

    // Disjoint sets of old positions to delete, move and rename.
    var positions = Array(0..<count)
    positions.shuffle(using: &random)
    let deleted = Set(positions[0..<changed])
    let moved = Set(positions[changed..<2 * changed])
    let renamed = Set(positions[2 * changed..<3 * changed])

    var kept: [BenchTodo] = []
    var travelling: [BenchTodo] = []
    for (position, todo) in old.enumerated() {
        if deleted.contains(position) { continue }
        var todo = todo
        if renamed.contains(position) { todo.name += " (renamed)" }
        if moved.contains(position) { travelling.append(todo) } else { kept.append(todo) }
    }
    for index in 0..<changed {
        travelling.append(BenchTodo(id: Int64(count + 1 + index), name: "New \(index)", deadline: nil, done: false))
    }
    // Drop the moved and new todos into random gaps between the kept ones, in linear time.
    var gaps = [[BenchTodo]](repeating: [], count: kept.count + 1)
    for todo in travelling { gaps[Int.random(in: 0...kept.count, using: &random)].append(todo) }
    var new: [BenchTodo] = []
    new.reserveCapacity(kept.count + travelling.count)
    for (gap, todos) in gaps.enumerated() {
        new.append(contentsOf: todos)
        if gap < kept.count { new.append(kept[gap]) }
    }

    let oldSnapshot = Snapshot<Int, BenchTodo>(sections: [(id: 0, items: old)])
    let newSnapshot = Snapshot<Int, BenchTodo>(sections: [(id: 0, items: new)])
    let reference = newSnapshot.difference(from: oldSnapshot)
    precondition(oldSnapshot.applying(reference) == newSnapshot, "Snapshot.difference is wrong")
    precondition(reference.itemInserts.count == changed && reference.itemDeletes.count == changed)

    let ours = snapshotBenchBestOfFive({ newSnapshot.difference(from: oldSnapshot) }) {
        $0.count == reference.count
    }
    let oldIDs = old.map(\.id)
    let newIDs = new.map(\.id)
    let baseline = snapshotBenchBestOfFive({ newIDs.difference(from: oldIDs).inferringMoves() }) {
        $0.insertions.count >= changed
    }
    return (ours, baseline)
}

/// Milliseconds (best of 5) to build the two-section todo list (section `all`, section
/// `outline` with its Undone/Done hierarchy) from `count` records, each build into the last
/// one's storage (`build(_:reusing:)`), as a view that builds again on every change does: the
/// first build, which allocates the tables, is not counted.
func benchSnapshotBuild(count: Int = snapshotBenchCount) -> Double {
    var random = SnapshotBenchRandom(state: 0xB111D)
    let records = snapshotBenchTodos(count: count, using: &random)
    let builder = TodoSnapshotBuilder<BenchTodo> { $0.done }
    var snapshots = builder.build(records)
    // Counts, not the snapshots, come out of each run: a copy kept would make the next build
    // allocate fresh storage instead of reusing it.
    return snapshotBenchBestOfFive({ () -> (items: Int, outline: Int) in
        builder.build(records, reusing: &snapshots)
        return (snapshots.snapshot.numberOfItems, snapshots.outline.count)
    }) {
        $0.items == 2 * records.count + 2 && $0.outline == records.count + 2
    }
}

/// Milliseconds (best of 5) to build the outline of the todos of the file at `path` (every todo,
/// read once before timing, in the list's order), grouped as `todo watch --outline --by
/// grouping` and `todo ui` group them (done, tag or priority), subtasks nested by the tree rule:
/// the build of scripts/bench's realistic data, where `benchSnapshotBuild(count:)` builds plain
/// records. As there, each build goes into the last one's storage (`build(_:reusing:)`) and the
/// first build, which allocates the tables, is not counted.
func benchSnapshotBuild(path: String, grouping name: String) throws -> Double {
    let grouping: TodoGrouping<Todo>
    switch name {
    case "tag": grouping = .byTag
    case "priority": grouping = .byPriority
    default: grouping = .byDoneState
    }
    let todos = try TodoRepository(path: path).fetch()
    let builder = TodoSnapshotBuilder<Todo>(nestingTodosBy: grouping)
    var snapshots = builder.build(todos)
    let expected = (items: snapshots.snapshot.numberOfItems, outline: snapshots.outline.count)
    precondition(expected.items >= todos.count, "the first build left todos out")
    // Counts, not the snapshots, come out of each run: a copy kept would make the next build
    // allocate fresh storage instead of reusing it.
    return snapshotBenchBestOfFive({ () -> (items: Int, outline: Int) in
        builder.build(todos, reusing: &snapshots)
        return (snapshots.snapshot.numberOfItems, snapshots.outline.count)
    }) { $0 == expected }
}
