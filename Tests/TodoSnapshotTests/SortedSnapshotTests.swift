import TestSupport
import Testing

@testable import TodoSnapshot

/// The in-place form of the snapshot: patched results must equal results built whole, and the
/// difference derived from the changed items must be as exact and as minimal as the full diff,
/// which stays the reference.
@Suite(.timed) struct SortedSnapshotTests {
    typealias Sorted = SortedSnapshot<String, Row>

    /// Sections "low" (content below 50) and "high", hidden while empty; inside a section by
    /// content, then id: a strict total order, as `ORDER BY deadline, id` is.
    static let layout = Sorted.Layout(
        sections: ["low", "high"], keepsEmptySections: false, section: { $0.content < 50 ? 0 : 1 },
        areInIncreasingOrder: { ($0.content, $0.id) < ($1.content, $1.id) })

    /// The snapshot of `rows`, built whole: sorted, then appended.
    static func built(_ rows: some Sequence<Row>) -> Sorted {
        Sorted(layout: layout, items: rows.sorted { ($0.content, $0.id) < ($1.content, $1.id) })
    }

    /// Moves, updates, inserts, deletes and section changes: what minimality is about.
    static func shape(_ difference: SnapshotDifference<String, Row>) -> [Int] {
        [
            difference.itemInserts.count, difference.itemDeletes.count,
            difference.itemMoves.count + difference.itemUpdates.count,
            difference.itemUpdates.count, difference.sectionInserts.count, difference.sectionDeletes.count
        ]
    }

    /// Random batches of inserts, deletes and content changes (some moving an item across the
    /// section boundary, some leaving its place, some rewriting it unchanged) over lists long
    /// enough to span several chunks.
    @Test(arguments: [1, 2, 3, 4])
    func patchedEqualsBuiltAndTheDerivedDifferenceIsExactAndMinimal(seed: UInt64) throws {
        var generator = SeededGenerator(seed: 0x5057_ED00 + seed)
        var rows: [Int: Row] = [:]
        var nextID = 0
        for _ in 0..<2_600 {
            rows[nextID] = Row(nextID, generator.below(100))
            nextID += 1
        }
        var snapshot = Self.built(rows.values)
        for round in 0..<150 {
            let old = snapshot
            let oldItems = old.items
            var changes: [Int: Row?] = [:]
            // Mostly small commits; now and then a large one, as a refetch's merge finds.
            let count = generator.chance(0.1) ? 40 + generator.below(200) : 1 + generator.below(6)
            for _ in 0..<count {
                switch generator.below(10) {
                case 0...1:
                    changes.updateValue(Row(nextID, generator.below(100)), forKey: nextID)
                    nextID += 1
                case 2...3:
                    if let id = rows.keys.randomElement(using: &generator) { changes.updateValue(nil, forKey: id) }
                case 4:
                    // Rewritten with the same content: named as changed, changes nothing.
                    if let row = rows.values.randomElement(using: &generator) {
                        changes.updateValue(row, forKey: row.id)
                    }
                default:
                    if let id = rows.keys.randomElement(using: &generator) {
                        let content =
                            generator.chance(0.3)
                            ? (rows[id]?.content ?? 0) + generator.below(3) - 1 : generator.below(100)
                        changes.updateValue(Row(id, content), forKey: id)
                    }
                }
            }
            for (id, row) in changes { rows[id] = row }
            let patched = try #require(old.applying(changes), "round \(round)")
            let expected = Self.built(rows.values)
            #expect(patched == expected, "round \(round)")
            #expect(patched.items == expected.items, "round \(round)")
            #expect(patched.numberOfItems == rows.count)

            let derived = try #require(patched.difference(from: old, changed: changes.keys), "round \(round)")
            #expect(old.snapshot.applying(derived) == patched.snapshot, "round \(round)")
            let full = patched.snapshot.difference(from: old.snapshot)
            #expect(Self.shape(derived) == Self.shape(full), "round \(round): \(derived) vs \(full)")

            // A refetch's way: the changed items found by merging, then the same derivation.
            let merged = try #require(expected.changedIdentifiers(from: old))
            #expect(Set(merged).isSuperset(of: changes.keys.filter { old.item(withID: $0) != changes[$0] ?? nil }))
            let fromMerge = try #require(expected.difference(from: old, changed: merged))
            #expect(old.snapshot.applying(fromMerge) == expected.snapshot, "round \(round)")
            #expect(Self.shape(fromMerge) == Self.shape(full), "round \(round)")

            // The old version is untouched by the patch (storage is shared, not overwritten).
            #expect(old.items == oldItems, "round \(round)")
            snapshot = patched
        }
        // Every look-up agrees with the flat order.
        for (flat, row) in snapshot.items.enumerated() {
            #expect(snapshot.index(ofItem: row.id) == flat)
            let path = try #require(snapshot.indexPath(ofItem: row.id))
            #expect(snapshot.item(at: path) == row)
        }
    }

    /// Three changed items that keep their order and pass one unchanged item: each changed
    /// item costs one change wherever it goes, while moving the unchanged one would cost one
    /// more, so the three are moved (as the full diff's rule 1 says).
    @Test func changedItemsMoveAroundAnUnchangedOne() throws {
        let old = Self.built([Row(1, 10), Row(2, 11), Row(3, 12), Row(4, 20)])
        let changes: [Int: Row?] = [1: Row(1, 30), 2: Row(2, 31), 3: Row(3, 32)]
        let new = try #require(old.applying(changes))
        let difference = try #require(new.difference(from: old, changed: changes.keys))
        #expect(difference.itemMoves.map(\.item.id) == [1, 2, 3])
        #expect(difference.itemUpdates.isEmpty)
        #expect(Self.shape(difference) == Self.shape(new.snapshot.difference(from: old.snapshot)))
        #expect(old.snapshot.applying(difference) == new.snapshot)
    }

    /// A section that empties is deleted and one that fills is inserted, with their items
    /// reported one by one, as the full diff does.
    @Test func sectionsAppearAndDisappearWithTheirItems() throws {
        let old = Self.built([Row(1, 10)])
        let changes: [Int: Row?] = [1: Row(1, 60)]
        let new = try #require(old.applying(changes))
        #expect(new.sectionIdentifiers == ["high"])
        let difference = try #require(new.difference(from: old, changed: changes.keys))
        #expect(difference.sectionDeletes.map(\.id) == ["low"])
        #expect(difference.sectionInserts.map(\.id) == ["high"])
        #expect(difference.itemMoves.count == 1)
        #expect(old.snapshot.applying(difference) == new.snapshot)
    }

    /// Items given out of the layout's order (as another program's data can sort differently
    /// in SQL): every read still answers exactly, by scanning; patching and deriving refuse.
    @Test func itemsOutOfOrderAreReadExactlyAndNeverPatched() throws {
        let snapshot = Sorted(layout: Self.layout, items: [Row(1, 20), Row(2, 10), Row(3, 30)])
        #expect(!snapshot.isOrdered)
        #expect(snapshot.items.map(\.id) == [1, 2, 3])
        #expect(snapshot.index(ofItem: 2) == 1)
        #expect(snapshot.indexPath(ofItem: 3) == SnapshotIndexPath(section: 0, item: 2))
        #expect(snapshot.applying([2: Row(2, 11)]) == nil)
        #expect(Self.built([Row(2, 10)]).difference(from: snapshot, changed: [1, 3]) == nil)
        // A changed set that misses an item is caught by the counts, not trusted.
        let old = Self.built([Row(1, 10), Row(2, 20)])
        let new = Self.built([Row(1, 10), Row(2, 20), Row(3, 30)])
        #expect(new.difference(from: old, changed: [] as [Int]) == nil)
    }

    /// The chunked list against an array, through enough inserts and removes to split and
    /// merge chunks; a copy keeps its contents while the original changes.
    @Test func aChunkedListBehavesAsAnArray() {
        var generator = SeededGenerator(seed: 0xC4_0C4)
        var reference = Array(0..<3_000)
        var list = ChunkedList(reference)
        let copy = list
        for step in 0..<6_000 {
            if generator.chance(0.45), !reference.isEmpty {
                let index = generator.below(reference.count)
                #expect(list.remove(at: index) == reference.remove(at: index))
            } else {
                let index = generator.below(reference.count + 1)
                list.insert(step, at: index)
                reference.insert(step, at: index)
            }
        }
        #expect(Array(list) == reference)
        #expect(list.array == reference)
        #expect(list.elements(in: 100..<900) == Array(reference[100..<900]))
        #expect(copy.array == Array(0..<3_000))
        #expect(list.chunks.allSatisfy { !$0.isEmpty && $0.count <= 2 * ChunkedList<Int>.chunkCapacity })
        let sorted = ChunkedList((0..<5_000).map { $0 * 2 })
        #expect(sorted.lowerBound(of: 777, by: <) == 389)
        #expect(sorted.lowerBound(of: 778, by: <) == 389)
        #expect(sorted.lowerBound(of: 20_000, by: <) == 5_000)
    }

    /// The sharded dictionary against a dictionary, past several growths of its shard table;
    /// a copy keeps its contents while the original changes.
    @Test func aShardedDictionaryBehavesAsADictionary() {
        var generator = SeededGenerator(seed: 0x5AD)
        var reference: [Int: Int] = [:]
        var sharded = ShardedDictionary<Int, Int>()
        var copy = sharded
        var referenceAtCopy = reference
        for step in 0..<30_000 {
            let key = generator.below(20_000)
            if generator.chance(0.2) {
                reference[key] = nil
                sharded[key] = nil
            } else {
                reference[key] = step
                sharded[key] = step
            }
            if step == 15_000 {
                copy = sharded
                referenceAtCopy = reference
            }
        }
        #expect(sharded.count == reference.count)
        #expect(sharded.shards.count > 1)
        #expect((0..<20_000).allSatisfy { sharded[$0] == reference[$0] })
        #expect(copy.count == referenceAtCopy.count)
        #expect((0..<20_000).allSatisfy { copy[$0] == referenceAtCopy[$0] })
    }
}
