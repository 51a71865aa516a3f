import TestSupport
import Testing

@testable import TodoSnapshot

/// The snapshot build's cheaper paths (issue 38) change no result: row ids hashed by their own
/// rule, ids given to the snapshot's table by the builder rather than read from rows, and
/// arrays partitioned in place.
@Suite(.timed) struct TodoRowIDHashingTests {
    typealias ID = TodoRowID<Int64>

    static func randomID(using random: inout SeededGenerator) -> ID {
        let id = Int64.random(in: -3...40, using: &random)
        let group = TodoGroupID(
            rank: Int.random(in: 0...2, using: &random), key: ["", "a", "b"].randomElement(using: &random) ?? "")
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return .group(group)
        case 1: return .todo(id, .all)
        case 2: return .todo(id, .outline)
        default: return .member(id, group)
        }
    }

    /// Equal ids hash equal, by every entry point, and sets and dictionaries of ids agree with a
    /// plain array's idea of which are equal.
    @Test func equalIDsHashEqualAndTablesAgree() {
        let seed = TestSeed.make("TodoRowIDHashingTests")
        var random = SeededGenerator(seed: seed)
        let ids = (0..<2_000).map { _ in Self.randomID(using: &random) }
        var firsts: [ID] = []
        for id in ids where !firsts.contains(id) { firsts.append(id) }
        for (left, right) in zip(ids, ids.shuffled(using: &random)) where left == right {
            #expect(left.hashValue == right.hashValue, "seed \(seed): \(left)")
            #expect(left._rawHashValue(seed: 42) == right._rawHashValue(seed: 42), "seed \(seed): \(left)")
        }
        let set = Set(ids)
        #expect(set.count == firsts.count, "seed \(seed)")
        #expect(firsts.allSatisfy { set.contains($0) }, "seed \(seed)")
        var positions: [ID: Int] = [:]
        for (position, id) in ids.enumerated() where positions[id] == nil { positions[id] = position }
        #expect(firsts.allSatisfy { ids[positions[$0] ?? -1] == $0 }, "seed \(seed)")
        // The case and the section or group count: the same record id in four rows is four ids.
        let group = TodoGroupID(rank: 0, key: "x")
        #expect(Set<ID>([.todo(1, .all), .todo(1, .outline), .member(1, group), .group(group)]).count == 4)
    }

    /// Every row of a build is found where it is by its id (the table the builder fills from
    /// the ids it has, not from the rows), by done state and by several groups each.
    @Test func everyRowIsWhereItsIDSays() {
        let seed = TestSeed.make("TodoRowIDHashingTests.rows")
        var random = SeededGenerator(seed: seed)
        let byDone = TodoSnapshotBuilder<FakeTodo> { $0.isDone }
        let byTag = TodoSnapshotBuilder<FakeTodo>(
            grouping: .several { todo in todo.tags.map { TodoGroup(rank: 0, key: $0, title: $0) } })
        var reused = byDone.build([])
        var reusedByTag = byTag.build([])
        for _ in 0..<30 {
            let todos = (1...Int64.random(in: 1...80, using: &random)).shuffled(using: &random).map { id in
                FakeTodo(
                    id: id, name: "todo \(id)", isDone: Bool.random(using: &random),
                    tags: ["x", "y", "z"].filter { _ in Bool.random(using: &random) })
            }
            byDone.build(todos, reusing: &reused)
            byTag.build(todos, reusing: &reusedByTag)
            for built in [reused, reusedByTag, byDone.build(todos), byTag.build(todos)] {
                for (section, items) in built.snapshot.sections.enumerated() {
                    for (offset, row) in items.items.enumerated() {
                        #expect(
                            built.snapshot.indexPath(ofItem: row.id)
                                == SnapshotIndexPath(section: section, item: offset), "seed \(seed)")
                    }
                }
            }
        }
    }

    /// An array is partitioned as the same records as any other sequence.
    @Test func anArrayIsPartitionedAsASequence() {
        let seed = TestSeed.make("TodoRowIDHashingTests.partition")
        var random = SeededGenerator(seed: seed)
        let grouping = TodoGrouping<FakeTodo>.several { todo in todo.tags.map { TodoGroup(rank: 0, key: $0, title: $0) }
        }
        for _ in 0..<30 {
            let todos = (0..<Int.random(in: 0...50, using: &random)).map { id in
                FakeTodo(
                    id: Int64(id), name: "\(id)", tags: ["b", "a", "c"].filter { _ in Bool.random(using: &random) })
            }
            let fromArray = grouping.partition(todos) { todo, offset in "\(todo.id)@\(offset)" }
            let fromSequence = grouping.partition(AnySequence(todos)) { todo, offset in "\(todo.id)@\(offset)" }
            #expect(fromArray.map(\.group) == fromSequence.map(\.group), "seed \(seed)")
            #expect(fromArray.map(\.members) == fromSequence.map(\.members), "seed \(seed)")
        }
    }
}
