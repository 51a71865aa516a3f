import TestSupport
import Testing

@testable import TodoSnapshot

/// Single edits give single changes, in a flat list (one section) and across sections.
@Suite(.timed) struct MinimalityTests {
    let base = (1...8).map { Row($0) }

    /// The difference between two flat lists, each as the one section of a snapshot.
    func listDiff(_ old: [Row], _ new: [Row]) -> SnapshotDifference<String, Row> {
        oneSection(new).difference(from: oneSection(old))
    }

    /// Item `item` of the one section.
    func at(_ item: Int) -> SnapshotIndexPath { SnapshotIndexPath(section: 0, item: item) }

    @Test func oneRenameIsOneUpdate() {
        var new = base
        new[3].content = 9
        let diff = listDiff(base, new)
        #expect(diff.count == 1)
        #expect(diff.itemUpdates == [.init(item: Row(4, 9), from: at(3), to: at(3))])

        var renamed = makeSnapshot([("a", [1]), ("b", [2, 3, 4])])
        renamed.reconfigureItems([Row(3, 1)])
        let snapshotDiff = renamed.difference(from: makeSnapshot([("a", [1]), ("b", [2, 3, 4])]))
        #expect(snapshotDiff.count == 1)
        #expect(
            snapshotDiff.itemUpdates == [
                .init(
                    item: Row(3, 1), from: SnapshotIndexPath(section: 1, item: 1),
                    to: SnapshotIndexPath(section: 1, item: 1))
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
        #expect(diff.itemMoves == [.init(item: Row(2, 5), from: at(1), to: at(6))])
        #expect(diff.itemUpdates.isEmpty)
    }

    @Test func oneAddIsOneInsert() {
        var new = base
        new.insert(Row(99), at: 4)
        let diff = listDiff(base, new)
        #expect(diff.count == 1)
        #expect(diff.itemInserts == [.init(item: Row(99), to: at(4))])
    }

    @Test func oneRemovalIsOneDelete() {
        var new = base
        new.remove(at: 0)
        let diff = listDiff(base, new)
        #expect(diff.count == 1)
        #expect(diff.itemDeletes == [.init(id: 1, from: at(0))])
    }

    @Test func swappingTwoNeighboursIsOneMove() {
        var new = base
        new.swapAt(2, 3)
        let diff = listDiff(base, new)
        #expect(diff.count == 1)
        #expect(diff.itemMoves.count == 1)
        #expect(oneSection(base).applying(diff) == oneSection(new))
    }

    @Test func updateIndexesFollowInsertsAndDeletesBefore() {
        // Delete the first item, rename the fifth: the update is at old 4, new 3, not a move.
        var new = Array(base.dropFirst())
        new[3].content = 1
        let diff = listDiff(base, new)
        #expect(diff.itemDeletes == [.init(id: 1, from: at(0))])
        #expect(diff.itemUpdates == [.init(item: Row(5, 1), from: at(4), to: at(3))])
        #expect(diff.itemMoves.isEmpty && diff.itemInserts.isEmpty)
    }

    @Test func emptyToManyIsAllInserts() {
        let diff = listDiff([], base)
        #expect(diff.itemInserts.map(\.to) == (0..<8).map(at))
        #expect(diff.count == 8)
        let snapshotDiff = makeSnapshot([("a", [1, 2, 3])]).difference(from: RowSnapshot())
        #expect(snapshotDiff.sectionInserts == [.init(id: "a", to: 0)])
        #expect(snapshotDiff.itemInserts.map(\.id) == [1, 2, 3])
        #expect(snapshotDiff.count == 4)
    }

    @Test func manyToEmptyIsAllDeletes() {
        let diff = listDiff(base, [])
        #expect(diff.itemDeletes.map(\.from) == (0..<8).map(at))
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
                .init(
                    item: Row(2), from: SnapshotIndexPath(section: 0, item: 1),
                    to: SnapshotIndexPath(section: 1, item: 1))
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

    // Deadline changes. `content` plays the deadline (yyyymmdd) and lists are sorted the way
    // `todo list` sorts: deadline, then id.

    func byDeadline(_ rows: [Row]) -> [Row] {
        rows.sorted { ($0.content, $0.id) < ($1.content, $1.id) }
    }

    func oneSection(_ rows: [Row]) -> RowSnapshot {
        RowSnapshot(sections: [(id: "all", items: rows)])
    }

    @Test func aDeadlineChangeThatSwapsTwoItemsIsOneMove() {
        // old: [2 (due 2024-04-30), 1 (due 2024-05-01)]; todo 2 becomes due 2025-01-01.
        let old = byDeadline([Row(1, 2024_05_01), Row(2, 2024_04_30)])
        let new = byDeadline([Row(1, 2024_05_01), Row(2, 2025_01_01)])
        #expect(old.map(\.id) == [2, 1] && new.map(\.id) == [1, 2])
        let diff = listDiff(old, new)
        #expect(diff.count == 1)
        #expect(diff.itemMoves == [.init(item: Row(2, 2025_01_01), from: at(0), to: at(1))])
        #expect(oneSection(old).applying(diff) == oneSection(new))
    }

    @Test func aDeadlineChangeFromFrontToBackOfTenIsOneMove() {
        let rows = (1...10).map { Row($0, 2024_05_00 + $0) }
        let old = byDeadline(rows)
        var changed = rows
        changed[0].content = 2025_01_01
        let new = byDeadline(changed)
        #expect(new.map(\.id) == [2, 3, 4, 5, 6, 7, 8, 9, 10, 1])
        let diff = listDiff(old, new)
        #expect(diff.count == 1)
        #expect(diff.itemMoves == [.init(item: Row(1, 2025_01_01), from: at(0), to: at(9))])
        #expect(oneSection(old).applying(diff) == oneSection(new))
    }

    @Test func aRenameInPlaceAndAnotherItemMovingAreOneUpdateAndOneMove() {
        // Todo 4 is renamed where it stands; todo 7, unchanged, moves to the front.
        var new = base
        new[3].content = 9
        new.insert(new.remove(at: 6), at: 0)
        let diff = listDiff(base, new)
        #expect(diff.count == 2)
        #expect(diff.itemUpdates == [.init(item: Row(4, 9), from: at(3), to: at(4))])
        #expect(diff.itemMoves == [.init(item: Row(7), from: at(6), to: at(0))])
        #expect(oneSection(base).applying(diff) == oneSection(new))
    }

    @Test func onATieARenameInPlaceIsAnUpdateRatherThanAMove() {
        // [1, 2, 3] to [3, 1', 2]: keeping 3 alone or 1' and 2 both cost two changes; keeping
        // 1' and 2 reports the rename as an update and 3 as the one move.
        let old = [Row(1), Row(2), Row(3)]
        let new = [Row(3), Row(1, 1), Row(2)]
        let diff = listDiff(old, new)
        #expect(diff.count == 2)
        #expect(diff.itemUpdates == [.init(item: Row(1, 1), from: at(0), to: at(1))])
        #expect(diff.itemMoves == [.init(item: Row(3), from: at(2), to: at(0))])
    }

    @Test func editedItemsOvertakingAnUnchangedOneAreMovesNotUpdates() {
        // [1, 2, 3] to [2', 3', 1]: keeping the longest run (2', 3') costs a move of 1 and two
        // updates; keeping the unchanged 1 costs only the two moves, which carry the new content.
        let old = [Row(1), Row(2), Row(3)]
        let new = [Row(2, 1), Row(3, 1), Row(1)]
        let diff = listDiff(old, new)
        #expect(diff.count == 2)
        #expect(diff.itemUpdates.isEmpty)
        #expect(
            diff.itemMoves == [
                .init(item: Row(2, 1), from: at(1), to: at(0)), .init(item: Row(3, 1), from: at(2), to: at(1))
            ])
        #expect(oneSection(old).applying(diff) == oneSection(new))
    }

    @Test func remainingTiesGoToTheRunFoundFirst() {
        // Two unchanged neighbours swapped: either could move; the one first in the new list
        // stays, every time.
        #expect(keptInPlaceMask(offsets: [1, 0], unchanged: [true, true]) == [true, false])
        #expect(
            keptInPlaceMask(offsets: [2, 3, 0, 1], unchanged: [true, true, true, true]) == [true, true, false, false])
        #expect(keptInPlaceMask(offsets: [0, 1, 2], unchanged: [false, true, false]) == [true, true, true])
        #expect(keptInPlaceMask(offsets: [], unchanged: []) == [])
    }
}
