import TestSupport
import Testing
@testable import TodoObservation
import TodoStore

/// ``FetchedResultsController/beginFetch()`` and ``FetchedResultsController/continueFetch(rows:)``:
/// a fetch read in slices ends equal to one full fetch, each slice says exactly whether it
/// completed the fetch, and commits made by another connection while it runs are in the
/// results it publishes.
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
        // Another connection commits mid-fetch: the fetch's last slice brings it in.
        try other.add(name: "added meanwhile")
        #expect(try controller.processExternalChanges() == false, "mid-fetch, left to the fetch")
        // 1,000 todos, 100 a slice: the tenth call reads the last ones and says so.
        var calls = 1
        var completed = false
        while !completed && calls < 20 {
            calls += 1
            completed = try controller.continueFetch(rows: 100)
        }
        #expect(calls == 10)
        #expect(completed)
        #expect(!controller.isFetching)
        #expect(controller.fetchedObjects == (try repository.fetch(request)))
        #expect(controller.fetchedObjects.count == 1001)
        #expect(recorder.batches.isEmpty, "a fetch notifies nothing")
        #expect(try controller.processExternalChanges() == false, "nothing was left for later")

        // Own commits are observed once the fetch is done.
        try repository.add(name: "added here")
        #expect(controller.fetchedObjects.count == 1002)
        #expect(recorder.batches.count == 1)
    }
}
