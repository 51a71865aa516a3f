import TestSupport
import Testing

@testable import TodoSnapshot

/// A record like the storage layer's todo: what the builder needs and nothing else.
struct FakeTodo: Identifiable, Equatable, Sendable {
    var id: Int64
    var name: String
    var isDone = false
    var priority = 0
    var tags: [String] = []
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
        #expect(
            built.snapshot.itemIdentifiers(inSection: .outline) == [
                .group(TodoGroup.undone.id), .group(TodoGroup.done.id)
            ])
        #expect(built.outline.rootItems == [.group(TodoGroup.undone.id), .group(TodoGroup.done.id)])
        #expect(built.count(of: .undone) == 0 && built.count(of: .done) == 0)
        #expect(TodoGroup.doneStates.map(\.title) == ["Undone", "Done"])
    }

    /// A build into the last one's storage (issue 38: no fresh tables on every build) gives what
    /// a fresh build gives, whatever the last one held, by done state and by several groups each.
    @Test func aBuildReusingStorageEqualsAFreshOne() {
        let byTag = TodoSnapshotBuilder<FakeTodo>(
            grouping: .several { todo in todo.tags.map { TodoGroup(rank: 0, key: $0, title: $0) } })
        let lists: [[FakeTodo]] = [
            todos, [], todos.reversed(), [FakeTodo(id: 9, name: "i", tags: ["x", "y"])] + todos,
            todos.map { FakeTodo(id: $0.id, name: $0.name, isDone: !$0.isDone, tags: ["x"]) }
        ]
        var reused = builder.build(todos)
        var reusedByTag = byTag.build(todos)
        for records in lists + lists.reversed() {
            builder.build(records, reusing: &reused)
            byTag.build(records, reusing: &reusedByTag)
            #expect(reused == builder.build(records))
            #expect(reusedByTag == byTag.build(records))
        }
    }

    @Test func fetchOrderIsKeptInBothSections() {
        let built = builder.build(todos)
        #expect(built.snapshot.itemIdentifiers(inSection: .all) == [3, 1, 2, 5].map { ID.todo($0, .all) })
        #expect(
            built.snapshot.itemIdentifiers(inSection: .outline) == [
                .group(TodoGroup.undone.id), .todo(3, .outline), .todo(2, .outline),
                .group(TodoGroup.done.id), .todo(1, .outline), .todo(5, .outline)
            ])
        #expect(built.outline.children(of: .group(TodoGroup.done.id)) == [.todo(1, .outline), .todo(5, .outline)])
        #expect(built.outline.parent(of: .todo(2, .outline)) == .group(TodoGroup.undone.id))
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
        let groupIDs: Set<ID> = [.group(TodoGroup.undone.id), .group(TodoGroup.done.id)]
        let mentioned =
            diff.itemUpdates.map(\.id) + diff.itemMoves.map(\.id) + diff.itemInserts.map(\.id)
            + diff.itemDeletes.map(\.id)
        #expect(Set(mentioned).isDisjoint(with: groupIDs))
        #expect(new.item(withID: .group(TodoGroup.done.id)) == old.item(withID: .group(TodoGroup.done.id)))
        #expect(old.applying(diff) == new)
    }

    @Test func outlineExpansionCarriesOver() {
        var previous = builder.outline(todos)
        previous.collapse([.group(TodoGroup.done.id)])
        let rebuilt = builder.build(todos + [FakeTodo(id: 8, name: "h", isDone: true)], previousOutline: previous)
        #expect(rebuilt.outline.isExpanded(.group(TodoGroup.undone.id)))
        #expect(!rebuilt.outline.isExpanded(.group(TodoGroup.done.id)))
        #expect(!rebuilt.outline.isVisible(.todo(8, .outline)))
    }

    @Test func theAllSectionAloneHoldsEveryRecord() {
        #expect(builder.build(todos).snapshot.snapshot(ofSection: .all).numberOfItems == 4)
    }

    // MARK: Other groupings (`todo list --outline --by priority|tag|due`)

    /// One group each, as by priority: ranks 0-2, "none" last, only groups that have records.
    static let byPriority = TodoGrouping<FakeTodo>.one { todo in
        todo.priority == 0
            ? TodoGroup(rank: 3, title: "None") : TodoGroup(rank: todo.priority, title: "P\(todo.priority)")
    }
    /// Several groups each, as by tag: a group per tag (folded), "No tag" last.
    static let byTag = TodoGrouping<FakeTodo>.several { todo in
        todo.tags.isEmpty
            ? [TodoGroup(rank: 1, title: "No tag")]
            : todo.tags.map { TodoGroup(rank: 0, key: $0.lowercased(), title: $0) }
    }

    @Test func oneGroupEachShowsOnlyGroupsWithRecordsInRankOrder() {
        let records = [
            FakeTodo(id: 1, name: "a", priority: 2), FakeTodo(id: 2, name: "b"),
            FakeTodo(id: 3, name: "c", priority: 1), FakeTodo(id: 4, name: "d", priority: 2)
        ]
        let built = TodoSnapshotBuilder(grouping: Self.byPriority).build(records)
        #expect(built.groups.map(\.title) == ["P1", "P2", "None"])
        #expect(
            built.snapshot.itemIdentifiers(inSection: .outline) == [
                .group(TodoGroup(rank: 1, title: "P1").id), .todo(3, .outline),
                .group(TodoGroup(rank: 2, title: "P2").id), .todo(1, .outline), .todo(4, .outline),
                .group(TodoGroup(rank: 3, title: "None").id), .todo(2, .outline)
            ])
        #expect(built.outline.visibleItems == built.snapshot.itemIdentifiers(inSection: .outline))
        #expect(TodoSnapshotBuilder(grouping: Self.byPriority).build([]).groups.isEmpty, "no fixed groups, none shown")
    }

    @Test func aRecordChangingItsOnlyGroupIsOneMove() {
        let records = [FakeTodo(id: 1, name: "a", priority: 2), FakeTodo(id: 2, name: "b", priority: 1)]
        var changed = records
        changed[0].priority = 1
        let builder = TodoSnapshotBuilder(grouping: Self.byPriority)
        let old = builder.build(records).snapshot
        let new = builder.build(changed).snapshot
        let diff = new.difference(from: old)
        #expect(diff.itemMoves.map(\.id) == [.todo(1, .outline)])
        #expect(diff.itemUpdates.map(\.id) == [.todo(1, .all)])
        #expect(diff.itemDeletes.map(\.id) == [.group(TodoGroup(rank: 2, title: "P2").id)], "the emptied group goes")
        #expect(diff.itemInserts.isEmpty)
        #expect(old.applying(diff) == new)
    }

    @Test func aRecordWithTwoTagsIsUnderBothAndNoTagIsLast() {
        let records = [
            FakeTodo(id: 1, name: "a", tags: ["+work", "@phone"]), FakeTodo(id: 2, name: "b"),
            FakeTodo(id: 3, name: "c", tags: ["+Work", "+work"])
        ]
        let built = TodoSnapshotBuilder(grouping: Self.byTag).build(records)
        let work = TodoGroup(rank: 0, key: "+work", title: "+work")
        let phone = TodoGroup(rank: 0, key: "@phone", title: "@phone")
        let noTag = TodoGroup(rank: 1, title: "No tag")
        #expect(built.groups == [work, phone, noTag])
        #expect(built.groups.first?.title == "+work", "titled as the first record listed writes it")
        #expect(
            built.snapshot.itemIdentifiers(inSection: .outline) == [
                .group(work.id), .member(1, work.id), .member(3, work.id),
                .group(phone.id), .member(1, phone.id),
                .group(noTag.id), .member(2, noTag.id)
            ], "a tag repeated on one record counts once")
        #expect(built.records(in: work).map(\.id) == [1, 3])
        #expect(built.count(of: phone) == 1)
        #expect(built.snapshot.snapshot(ofSection: .all).numberOfItems == 3)
        #expect(built.outline.parent(of: .member(1, phone.id)) == .group(phone.id))
    }

    @Test func aTagAddedIsOneInsertAndATagRemovedOneDelete() {
        let records = [FakeTodo(id: 1, name: "a", tags: ["+a", "+b"]), FakeTodo(id: 2, name: "b", tags: ["+b"])]
        var changed = records
        changed[0].tags = ["+b", "+c"]
        let builder = TodoSnapshotBuilder(grouping: Self.byTag)
        let old = builder.build(records).snapshot
        let new = builder.build(changed).snapshot
        let diff = new.difference(from: old)
        let a = TodoGroup(rank: 0, key: "+a", title: "+a")
        let b = TodoGroup(rank: 0, key: "+b", title: "+b")
        let c = TodoGroup(rank: 0, key: "+c", title: "+c")
        #expect(Set(diff.itemDeletes.map(\.id)) == [.member(1, a.id), .group(a.id)])
        #expect(Set(diff.itemInserts.map(\.id)) == [.member(1, c.id), .group(c.id)])
        #expect(Set(diff.itemUpdates.map(\.id)) == [.todo(1, .all), .member(1, b.id)], "new content where it stays")
        #expect(diff.itemMoves.isEmpty)
        #expect(old.applying(diff) == new)
    }

    /// Random lists and random edits under each grouping: the difference between two builds
    /// applies exactly, and never mentions a row whose record did not change.
    @Test func differencesBetweenBuildsApplyExactlyUnderEveryGrouping() {
        let seed = TestSeed.make("snapshot builder groupings")
        var random = SeededGenerator(seed: seed)
        let tags = ["+a", "+B", "@c", "+b"]
        func randomTodo(_ id: Int64) -> FakeTodo {
            FakeTodo(
                id: id, name: "t\(id)", isDone: Bool.random(using: &random),
                priority: Int.random(in: 0..<4, using: &random),
                tags: (0..<Int.random(in: 0..<3, using: &random)).map { _ in
                    tags[Int.random(in: 0..<tags.count, using: &random)]
                })
        }
        for grouping in [Self.byPriority, Self.byTag, .doneState(\.isDone)] {
            let builder = TodoSnapshotBuilder(grouping: grouping)
            for _ in 0..<60 {
                let old = (1...Int64.random(in: 1...12, using: &random)).map(randomTodo)
                var new = old.filter { _ in Int.random(in: 0..<5, using: &random) != 0 }
                for index in new.indices where Int.random(in: 0..<3, using: &random) == 0 {
                    new[index] = randomTodo(new[index].id)
                }
                new += (20..<20 + Int64.random(in: 0..<3, using: &random)).map(randomTodo)
                new.shuffle(using: &random)
                let before = builder.build(old).snapshot
                let after = builder.build(new).snapshot
                let diff = after.difference(from: before)
                #expect(before.applying(diff) == after, "seed \(seed)")
                let unchanged = Set(old.filter { new.contains($0) }.map(\.id))
                let mentioned = (diff.itemUpdates.map(\.id) + diff.itemInserts.map(\.id) + diff.itemDeletes.map(\.id))
                for id in mentioned {
                    if case .member(let record, _) = id { #expect(!unchanged.contains(record), "seed \(seed)") }
                }
            }
        }
    }
}
