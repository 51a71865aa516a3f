import TestSupport
import Testing
@testable import TodoObservation
import TodoStore

/// ``FetchedResultsController/beginFetch()`` and ``FetchedResultsController/continueFetch(rows:)``:
/// a fetch read in slices ends equal to one full fetch, and commits made by another connection
/// while it runs are picked up afterwards, not lost.
@Suite struct SlicedFetchTests {
    let folder = TemporaryFolder()

    @Test func slicesEqualAFullFetchAndACommitDuringTheFetchIsNotLost() throws {
        let path = folder.file("todo.sqlite")
        let repository = try TodoRepository(path: path)
        let other = try TodoRepository(path: path)
        try other.connection.transaction {
            for index in 1...1000 { try other.add(name: "todo \(index)", isDone: index % 3 == 0) }
        }
        let request = TodoFetchRequest(order: .name)
        let controller = FetchedResultsController(repository: repository, fetchRequest: request)
        let recorder = Recorder()
        controller.delegate = recorder

        try controller.beginFetch()
        #expect(try controller.continueFetch(rows: 100) == false)
        #expect(controller.isFetching)
        #expect(controller.fetchedObjects.isEmpty, "nothing is published before the last slice")
        // Another connection commits mid-fetch: the fetch keeps its snapshot, and the change
        // waits for the first look after it.
        try other.add(name: "added meanwhile")
        #expect(try controller.processExternalChanges() == false)
        var slices = 1
        while try !controller.continueFetch(rows: 100) { slices += 1 }
        #expect(slices >= 10)
        #expect(!controller.isFetching)
        #expect(controller.fetchedObjects.count == 1000)
        #expect(recorder.batches.isEmpty, "a fetch notifies nothing")

        #expect(try controller.processExternalChanges())
        #expect(controller.fetchedObjects == (try repository.fetch(request)))
        #expect(controller.fetchedObjects.count == 1001)
        // Own commits are observed once the fetch is done.
        try repository.add(name: "added here")
        #expect(controller.fetchedObjects.count == 1002)
    }
}
