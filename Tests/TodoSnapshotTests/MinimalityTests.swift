import Testing
@testable import TodoSnapshot

/// Single edits give single changes, in both the snapshot form and the flat list form.
@Suite struct MinimalityTests {
    let base = (1...8).map { Row($0) }

    func listDiff(_ old: [Row], _ new: [Row]) -> ListDifference<Row> {
        ListDifference(from: old, to: new)
    }

    @Test func oneRenameIsOneUpdate() {
        var new = base
        new[3].content = 9
        let diff = listDiff(base, new)
        #expect(diff.count == 1)
        #expect(diff.updates == [.init(item: Row(4, 9), from: 3, to: 3)])

        var renamed = makeSnapshot([("a", [1]), ("b", [2, 3, 4])])
        renamed.reconfigureItems([Row(3, 1)])
        let snapshotDiff = renamed.difference(from: makeSnapshot([("a", [1]), ("b", [2, 3, 4])]))
        #expect(snapshotDiff.count == 1)
        #expect(
            snapshotDiff.itemUpdates == [
                .init(item: Row(3, 1), from: SnapshotIndexPath(section: 1, item: 1), to: SnapshotIndexPath(section: 1, item: 1))
            ])
    }

    @Test func oneReorderWithNewContentIsOneMove() {
        // A deadline change: the item gets new content and a new place.
        var new = base
        var item = new.remove(at: 1)
        item.content = 5
        new.insert(item, at: 6)
        let diff = listDiff(base, new)
        #expect(diff.count == 1)
        #expect(diff.moves == [.init(item: Row(2, 5), from: 1, to: 6)])
        #expect(diff.updates.isEmpty)
    }

    @Test func oneAddIsOneInsert() {
        var new = base
        new.insert(Row(99), at: 4)
        let diff = listDiff(base, new)
        #expect(diff.count == 1)
        #expect(diff.inserts == [.init(item: Row(99), to: 4)])
    }

    @Test func oneRemovalIsOneDelete() {
        var new = base
        new.remove(at: 0)
        let diff = listDiff(base, new)
        #expect(diff.count == 1)
        #expect(diff.deletes == [.init(id: 1, from: 0)])
    }

    @Test func swappingTwoNeighboursIsOneMove() {
        var new = base
        new.swapAt(2, 3)
        let diff = listDiff(base, new)
        #expect(diff.count == 1)
        #expect(diff.moves.count == 1)
        #expect(base.applying(diff) == new)
    }

    @Test func updateIndexesFollowInsertsAndDeletesBefore() {
        // Delete the first item, rename the fifth: the update is at old 4, new 3, not a move.
        var new = Array(base.dropFirst())
        new[3].content = 1
        let diff = listDiff(base, new)
        #expect(diff.deletes == [.init(id: 1, from: 0)])
        #expect(diff.updates == [.init(item: Row(5, 1), from: 4, to: 3)])
        #expect(diff.moves.isEmpty && diff.inserts.isEmpty)
    }

    @Test func emptyToManyIsAllInserts() {
        let diff = listDiff([], base)
        #expect(diff.inserts.map(\.to) == Array(0..<8))
        #expect(diff.count == 8)
        let snapshotDiff = makeSnapshot([("a", [1, 2, 3])]).difference(from: RowSnapshot())
        #expect(snapshotDiff.sectionInserts == [.init(id: "a", to: 0)])
        #expect(snapshotDiff.itemInserts.map(\.id) == [1, 2, 3])
        #expect(snapshotDiff.count == 4)
    }

    @Test func manyToEmptyIsAllDeletes() {
        let diff = listDiff(base, [])
        #expect(diff.deletes.map(\.from) == Array(0..<8))
        #expect(diff.count == 8)
        let snapshotDiff = RowSnapshot().difference(from: makeSnapshot([("a", [1, 2, 3])]))
        #expect(snapshotDiff.sectionDeletes == [.init(id: "a", from: 0)])
        #expect(snapshotDiff.itemDeletes.map(\.id) == [1, 2, 3])
        #expect(snapshotDiff.count == 4)
    }

    @Test func movingAnItemToAnotherSectionIsOneMove() {
        let old = makeSnapshot([("a", [1, 2, 3]), ("b", [4, 5])])
        let new = makeSnapshot([("a", [1, 3]), ("b", [4, 2, 5])])
        let diff = new.difference(from: old)
        #expect(diff.count == 1)
        #expect(
            diff.itemMoves == [
                .init(item: Row(2), from: SnapshotIndexPath(section: 0, item: 1), to: SnapshotIndexPath(section: 1, item: 1))
            ])
    }

    @Test func movingASectionIsOneSectionMoveAndItsItemsTravelAlong() {
        let old = makeSnapshot([("a", [1, 2]), ("b", [3]), ("c", [4, 5])])
        let new = makeSnapshot([("b", [3]), ("c", [4, 5]), ("a", [1, 2])])
        let diff = new.difference(from: old)
        #expect(diff.count == 1)
        #expect(diff.sectionMoves == [.init(id: "a", from: 0, to: 2)])
        #expect(old.applying(diff) == new)
    }

    @Test func aSectionDeletedWithAnItemRescuedElsewhere() {
        let old = makeSnapshot([("a", [1, 2]), ("b", [3])])
        let new = makeSnapshot([("b", [2, 3])])
        let diff = new.difference(from: old)
        #expect(diff.sectionDeletes == [.init(id: "a", from: 0)])
        #expect(diff.itemDeletes == [.init(id: 1, from: SnapshotIndexPath(section: 0, item: 0))])
        #expect(diff.itemMoves.map(\.id) == [2])
        #expect(diff.itemMoves.first?.to == SnapshotIndexPath(section: 0, item: 0))
        #expect(old.applying(diff) == new)
    }
}
