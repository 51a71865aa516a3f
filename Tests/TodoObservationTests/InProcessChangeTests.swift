import SQLite
import TestSupport
import Testing
import TodoSnapshot
import TodoStore

@testable import TodoObservation

/// Changes made through the controller's own repository connection, seen through SQLite's hooks.
@Suite(.timed) struct InProcessChangeTests {
    let folder = TemporaryFolder()

    private func makeController(
        _ sectioning: FetchedResultsController.Sectioning = .none,
        request: TodoFetchRequest = TodoFetchRequest()
    ) throws -> (TodoRepository, FetchedResultsController, Recorder) {
        let repository = try TodoRepository(path: folder.file("todo.sqlite"))
        let controller = FetchedResultsController(repository: repository, fetchRequest: request, sectioning: sectioning)
        let recorder = Recorder()
        controller.delegate = recorder
        return (repository, controller, recorder)
    }

    private func date(_ text: String) -> CalendarDate? { CalendarDate(text) }

    @Test func performFetchLoadsResultsAndNotifiesNothing() throws {
        let (repository, controller, recorder) = try makeController()
        let a = try repository.add(name: "a", deadline: date("2024-05-02"))
        let b = try repository.add(name: "b", deadline: date("2024-05-01"))
        try controller.performFetch()
        #expect(controller.fetchedObjects == [b, a])
        #expect(controller.sections.map(\.name) == ["All"])
        #expect(controller.sections.first?.numberOfObjects == 2)
        #expect(controller.object(at: SnapshotIndexPath(section: 0, item: 1)) == a)
        #expect(controller.indexPath(forObjectWithID: b.id) == SnapshotIndexPath(section: 0, item: 0))
        #expect(controller.indexPath(forObjectWithID: 99) == nil)
        #expect(recorder.events.isEmpty)
    }

    @Test func anAddIsOneInsertInTheAppleOrder() throws {
        let (repository, controller, recorder) = try makeController()
        try repository.add(name: "a", deadline: date("2024-05-02"))
        try controller.performFetch()
        let b = try repository.add(name: "b", deadline: date("2024-05-01"))
        #expect(recorder.events == ["will", "insert \(b.id) -->0.0", "did"])
        #expect(recorder.batches.count == 1)
        #expect(controller.fetchedObjects.first == b)
    }

    @Test func singleEditsGiveSingleChanges() throws {
        let (repository, controller, recorder) = try makeController()
        let a = try repository.add(name: "a", deadline: date("2024-05-01"))
        let b = try repository.add(name: "b", deadline: date("2024-05-02"))
        let c = try repository.add(name: "c", deadline: date("2024-05-03"))
        try controller.performFetch()

        _ = try repository.rename(id: b.id, to: "B")
        #expect(recorder.objectChanges == ["update \(b.id) 0.1->0.1"])

        recorder.events.removeAll()
        _ = try repository.setDeadline(date("2024-06-01"), id: a.id)
        #expect(recorder.objectChanges == ["move \(a.id) 0.0->0.2"])
        #expect(recorder.batches.last?.difference.itemMoves.first?.item.deadline == date("2024-06-01"))

        recorder.events.removeAll()
        try repository.delete(ids: [c.id])
        #expect(recorder.objectChanges == ["delete \(c.id) 0.1->-"])
    }

    @Test func oneTransactionIsOneBatch() throws {
        let (repository, controller, recorder) = try makeController()
        try controller.performFetch()
        try repository.connection.transaction {
            try repository.add(name: "a")
            try repository.add(name: "b")
            try repository.add(name: "c")
        }
        #expect(recorder.batches.count == 1)
        #expect(recorder.batches.first?.difference.itemInserts.count == 3)
        #expect(recorder.events.filter { $0 == "will" }.count == 1)
    }

    @Test func aRolledBackTransactionPublishesNothing() throws {
        let (repository, controller, recorder) = try makeController()
        try repository.add(name: "a")
        try controller.performFetch()
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try repository.connection.transaction {
                try repository.add(name: "b")
                _ = try repository.setDone(true, ids: [1])
                throw Stop()
            }
        }
        #expect(recorder.events.isEmpty)
        // And the next real change is reported alone, with nothing of the rolled-back one (whose
        // id was never committed, so SQLite hands it out again).
        try repository.add(name: "c")
        #expect(recorder.objectChanges == ["insert 2 -->0.1"])
    }

    @Test func aCommitThatChangesNothingShownPublishesNothing() throws {
        let (repository, controller, recorder) = try makeController(request: TodoFetchRequest(filter: .undone))
        let a = try repository.add(name: "a")
        let done = try repository.add(name: "done", isDone: true)
        try controller.performFetch()
        _ = try repository.rename(id: done.id, to: "still done")
        _ = try repository.setDone(false, ids: [a.id])  // already undone: same content
        try repository.connection.execute("CREATE TABLE unrelated (x)")
        #expect(recorder.events.isEmpty)
        // The controller is listening: a change it shows is reported, alone.
        _ = try repository.rename(id: a.id, to: "a2")
        #expect(recorder.objectChanges == ["update \(a.id) 0.0->0.0"])
    }

    @Test func sectionsByDoneStateAppearAndDisappear() throws {
        let (repository, controller, recorder) = try makeController(.byDoneState)
        let a = try repository.add(name: "a")
        try controller.performFetch()
        #expect(controller.sections.map(\.name) == ["Undone"])
        _ = try repository.setDone(true, ids: [a.id])
        #expect(controller.sections.map(\.name) == ["Done"])
        #expect(recorder.events.contains("move \(a.id) 0.0->0.0"))
        #expect(recorder.events.contains { $0.hasPrefix("section insert Done") })
        #expect(recorder.events.contains { $0.hasPrefix("section delete Undone") })
        let batch = try #require(recorder.batches.last)
        #expect(batch.previous.snapshot.applying(batch.difference) == batch.snapshot.snapshot)
    }

    @Test func batchesStreamToSwiftConcurrency() async throws {
        let (repository, controller, _) = try makeController()
        try controller.performFetch()
        let stream = controller.batches()
        try repository.add(name: "a")
        try repository.add(name: "b")
        var iterator = stream.makeAsyncIterator()
        let first = await iterator.next()
        let second = await iterator.next()
        #expect(first?.snapshot.items.map(\.name) == ["a"])
        #expect(second?.snapshot.items.map(\.name) == ["a", "b"])
    }

    @Test func otherConnectionsAreSeenThroughDataVersion() throws {
        let (repository, controller, recorder) = try makeController()
        try controller.performFetch()
        #expect(try controller.processExternalChanges() == false)
        let other = try Connection(path: repository.connection.path)
        try other.execute("INSERT INTO todos (name) VALUES ('from elsewhere')")
        #expect(recorder.events.isEmpty, "another connection's commit is not seen until asked")
        #expect(try controller.processExternalChanges() == true)
        #expect(recorder.objectChanges == ["insert 1 -->0.0"])
        #expect(try controller.processExternalChanges() == false)
    }
}
