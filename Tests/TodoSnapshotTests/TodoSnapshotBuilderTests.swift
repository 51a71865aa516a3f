import TestSupport
import Testing

@testable import TodoSnapshot

/// A record like the storage layer's todo: what the builder needs and nothing else.
struct FakeTodo: Identifiable, Equatable, Sendable {
    var id: Int64
    var name: String
    var isDone = false
}

/// The sample app's two-section list: `all` flat, `outline` grouped into Undone then Done.
@Suite(.timed) struct TodoSnapshotBuilderTests {
    typealias ID = TodoRowID<Int64>
    let builder = TodoSnapshotBuilder<FakeTodo> { $0.isDone }
    let todos = [
        FakeTodo(id: 3, name: "c"), FakeTodo(id: 1, name: "a", isDone: true),
        FakeTodo(id: 2, name: "b"), FakeTodo(id: 5, name: "e", isDone: true)
    ]

    @Test func bothGroupsArePresentEvenWithoutTodos() {
        let built = builder.build([])
        #expect(built.snapshot.sectionIdentifiers == [.all, .outline])
        #expect(built.snapshot.itemIdentifiers(inSection: .all).isEmpty)
        #expect(built.snapshot.itemIdentifiers(inSection: .outline) == [.group(.undone), .group(.done)])
        #expect(built.outline.rootItems == [.group(.undone), .group(.done)])
        #expect(built.count(of: .undone) == 0 && built.count(of: .done) == 0)
        #expect(TodoGroup.allCases.map(\.title) == ["Undone", "Done"])
    }

    @Test func fetchOrderIsKeptInBothSections() {
        let built = builder.build(todos)
        #expect(built.snapshot.itemIdentifiers(inSection: .all) == [3, 1, 2, 5].map { ID.todo($0, .all) })
        #expect(
            built.snapshot.itemIdentifiers(inSection: .outline) == [
                .group(.undone), .todo(3, .outline), .todo(2, .outline),
                .group(.done), .todo(1, .outline), .todo(5, .outline)
            ])
        #expect(built.outline.children(of: .group(.done)) == [.todo(1, .outline), .todo(5, .outline)])
        #expect(built.outline.parent(of: .todo(2, .outline)) == .group(.undone))
        #expect(built.records(in: .undone).map(\.name) == ["c", "b"])
        #expect(built.count(of: .done) == 2)
        #expect(
            built.outline.visibleItems == built.snapshot.itemIdentifiers(inSection: .outline),
            "groups start expanded")
        #expect(builder.snapshot(todos) == built.snapshot)
        #expect(builder.outline(todos) == built.outline)
    }

    @Test func doneToggleIsAnUpdateInAllAndAMoveInTheOutline() {
        var toggled = todos
        toggled[2].isDone = true
        let old = builder.build(todos).snapshot
        let new = builder.build(toggled).snapshot
        let diff = new.difference(from: old)
        #expect(diff.count == 2)
        #expect(diff.itemUpdates.map(\.id) == [.todo(2, .all)])
        #expect(diff.itemMoves.map(\.id) == [.todo(2, .outline)])
        #expect(diff.itemMoves.first?.item == .todo(toggled[2], .outline), "the move carries the new content")
        #expect(old.applying(diff) == new)
    }

    @Test func groupRowsKeepIdentityAndContent() {
        var changed = todos
        changed.removeAll { $0.id == 1 }
        changed.append(FakeTodo(id: 9, name: "i", isDone: true))
        let old = builder.build(todos).snapshot
        let new = builder.build(changed).snapshot
        let diff = new.difference(from: old)
        let groupIDs: Set<ID> = [.group(.undone), .group(.done)]
        let mentioned =
            diff.itemUpdates.map(\.id) + diff.itemMoves.map(\.id) + diff.itemInserts.map(\.id)
            + diff.itemDeletes.map(\.id)
        #expect(Set(mentioned).isDisjoint(with: groupIDs))
        #expect(new.item(withID: .group(.done)) == old.item(withID: .group(.done)))
        #expect(old.applying(diff) == new)
    }

    @Test func outlineExpansionCarriesOver() {
        var previous = builder.outline(todos)
        previous.collapse([.group(.done)])
        let rebuilt = builder.build(todos + [FakeTodo(id: 8, name: "h", isDone: true)], previousOutline: previous)
        #expect(rebuilt.outline.isExpanded(.group(.undone)))
        #expect(!rebuilt.outline.isExpanded(.group(.done)))
        #expect(!rebuilt.outline.isVisible(.todo(8, .outline)))
    }

    @Test func theAllSectionAloneHoldsEveryRecord() {
        #expect(builder.build(todos).snapshot.snapshot(ofSection: .all).numberOfItems == 4)
    }
}
