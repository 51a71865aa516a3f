import TestSupport
import Testing

@testable import TodoSnapshot

/// The editing vocabulary and the lookups, checked against the index the snapshot keeps.
@Suite(.timed) struct SnapshotTests {
    /// Every lookup agrees with the stored order: catches an index left stale by an edit.
    func expectConsistent(_ snapshot: RowSnapshot, sourceLocation: SourceLocation = #_sourceLocation) {
        var flat = 0
        for (section, id) in snapshot.sectionIdentifiers.enumerated() {
            #expect(snapshot.index(ofSection: id) == section, sourceLocation: sourceLocation)
            for (offset, item) in snapshot.items(inSection: id).enumerated() {
                #expect(
                    snapshot.indexPath(ofItem: item.id) == SnapshotIndexPath(section: section, item: offset),
                    sourceLocation: sourceLocation)
                #expect(snapshot.index(ofItem: item.id) == flat, sourceLocation: sourceLocation)
                #expect(snapshot.sectionIdentifier(containingItem: item.id) == id, sourceLocation: sourceLocation)
                flat += 1
            }
        }
        #expect(snapshot.numberOfItems == flat, sourceLocation: sourceLocation)
    }

    @Test func appendAndQuery() {
        var snapshot = RowSnapshot()
        snapshot.appendSections(["a", "b"])
        snapshot.appendItems([Row(1), Row(2)])
        snapshot.appendItems([Row(3)], toSection: "a")
        #expect(snapshot.sectionIdentifiers == ["a", "b"])
        #expect(snapshot.itemIdentifiers == [3, 1, 2])
        #expect(snapshot.itemIdentifiers(inSection: "b") == [1, 2])
        #expect(snapshot.numberOfSections == 2)
        #expect(snapshot.numberOfItems(inSection: "a") == 1)
        #expect(snapshot.index(ofItem: 2) == 2)
        #expect(snapshot.indexPath(ofItem: 2) == SnapshotIndexPath(section: 1, item: 1))
        #expect(snapshot.sectionIdentifier(containingItem: 3) == "a")
        #expect(snapshot.item(withID: 99) == nil)
        #expect(snapshot.index(ofItem: 99) == nil)
        #expect(snapshot.index(ofSection: "z") == nil)
        expectConsistent(snapshot)
    }

    @Test func insertAndMoveSections() {
        var snapshot = makeSnapshot([("a", [1]), ("c", [3])])
        snapshot.insertSections(["b"], beforeSection: "c")
        snapshot.insertSections(["d"], afterSection: "c")
        snapshot.appendItems([Row(2)], toSection: "b")
        #expect(snapshot.sectionIdentifiers == ["a", "b", "c", "d"])
        expectConsistent(snapshot)
        snapshot.moveSection("a", afterSection: "c")
        #expect(snapshot.sectionIdentifiers == ["b", "c", "a", "d"])
        expectConsistent(snapshot)
        snapshot.moveSection("d", beforeSection: "b")
        #expect(snapshot.sectionIdentifiers == ["d", "b", "c", "a"])
        #expect(snapshot.itemIdentifiers == [2, 3, 1])
        expectConsistent(snapshot)
    }

    @Test func deleteSectionsTakesTheirItems() {
        var snapshot = makeSnapshot([("a", [1]), ("b", [2, 3]), ("c", [4])])
        snapshot.deleteSections(["b", "zzz"])
        #expect(snapshot.sectionIdentifiers == ["a", "c"])
        #expect(snapshot.item(withID: 2) == nil)
        expectConsistent(snapshot)
    }

    @Test func insertDeleteAndMoveItems() {
        var snapshot = makeSnapshot([("a", [1, 4]), ("b", [5])])
        snapshot.insertItems([Row(2), Row(3)], beforeItem: 4)
        snapshot.insertItems([Row(6)], afterItem: 5)
        #expect(snapshot.itemIdentifiers == [1, 2, 3, 4, 5, 6])
        expectConsistent(snapshot)
        snapshot.moveItem(1, afterItem: 3)
        #expect(snapshot.itemIdentifiers(inSection: "a") == [2, 3, 1, 4])
        expectConsistent(snapshot)
        snapshot.moveItem(4, beforeItem: 6)
        #expect(snapshot.itemIdentifiers(inSection: "b") == [5, 4, 6])
        expectConsistent(snapshot)
        snapshot.deleteItems([2, 6, 42])
        #expect(snapshot.itemIdentifiers == [3, 1, 5, 4])
        expectConsistent(snapshot)
        snapshot.deleteAllItems()
        #expect(snapshot.numberOfItems == 0 && snapshot.numberOfSections == 0)
    }

    @Test func reconfigureReplacesContentInPlace() {
        var snapshot = makeSnapshot([("a", [1, 2])])
        snapshot.reconfigureItems([Row(2, 7)])
        snapshot.reloadItems([Row(1, 8)])
        #expect(snapshot.items(inSection: "a") == [Row(1, 8), Row(2, 7)])
        #expect(snapshot != makeSnapshot([("a", [1, 2])]))
    }

    @Test func oneSectionAsItsOwnSnapshot() {
        let snapshot = makeSnapshot([("a", [1]), ("b", [2, 3])])
        #expect(snapshot.snapshot(ofSection: "b") == makeSnapshot([("b", [2, 3])]))
    }

    @Test func duplicateItemStopsWithAClearMessage() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var snapshot = Snapshot<Int, Row>()
            snapshot.appendSections([0])
            snapshot.appendItems([Row(1), Row(1)])
        }
        #expect(
            String(decoding: result.standardErrorContent, as: UTF8.self)
                .contains("Snapshot: duplicate item identifier 1"))
    }

    @Test func duplicateItemAcrossSectionsStops() async {
        await #expect(processExitsWith: .failure) {
            var snapshot = Snapshot<Int, Row>()
            snapshot.appendSections([0, 1])
            snapshot.appendItems([Row(1)], toSection: 0)
            snapshot.insertItems([Row(1)], beforeItem: 1)
        }
    }

    @Test func duplicateSectionStops() async {
        await #expect(processExitsWith: .failure) {
            var snapshot = Snapshot<Int, Row>()
            snapshot.appendSections([0, 1, 0])
        }
    }
}
