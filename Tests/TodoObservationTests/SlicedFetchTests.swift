import TestSupport
import Testing
import TodoSnapshot
import TodoStore

@testable import TodoObservation

/// ``FetchedResultsController/beginFetch()`` and ``FetchedResultsController/continueFetch(rows:)``:
/// a fetch read in slices ends equal to one full fetch, each slice says exactly whether it
/// completed the fetch, and commits made by another connection while it runs are in the
/// results it publishes.
@Suite(.timed) struct SlicedFetchTests {
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

    /// Writes between slices, through this repository (which restarts the read after the last
    /// todo handed out) and through another connection, for every order, both sectionings, a
    /// filter with a search, and a limit with an offset: the published results always equal a
    /// fetch made right after the last slice. Seeded: a failure names its seed.
    @Test(arguments: TodoFetchRequest.Order.allCases)
    func writesBetweenSlicesNeverLeaveTheResultsStale(order: TodoFetchRequest.Order) throws {
        let path = folder.file("todo-\(order).sqlite")
        let repository = try TodoRepository(path: path)
        let other = try TodoRepository(path: path)
        let seed = order.rawValue.utf8.reduce(UInt64(24)) { $0 &* 31 &+ UInt64($1) }
        var random = SeededGenerator(seed: seed)
        func randomDeadline() -> CalendarDate? {
            Bool.random(using: &random)
                ? nil
                : CalendarDate(
                    "2024-0\(Int.random(in: 1...9, using: &random))-1\(Int.random(in: 0...9, using: &random))")
        }
        let names = ["alpha", "Alpha", "beta", "BETA", "gamma", "Ähre", "zeta", ""]
        try repository.connection.transaction {
            for _ in 0..<120 {
                try repository.add(
                    name: names.randomElement(using: &random) ?? "x", deadline: randomDeadline(),
                    isDone: Bool.random(using: &random), nameCheck: .asStored)
            }
        }
        let requests = [
            TodoFetchRequest(order: order),
            TodoFetchRequest(order: order, filter: .undone, search: "a"),
            TodoFetchRequest(order: order, limit: 50, offset: 7)
        ]
        for (number, request) in requests.enumerated() {
            for sectioning in [FetchedResultsController.Sectioning.none, .byDoneState] {
                let controller = FetchedResultsController(
                    repository: repository, fetchRequest: request, sectioning: sectioning)
                if number == 0 { try controller.performFetch() }  // a later load, besides first ones
                try controller.beginFetch()
                var calls = 0
                while try !controller.continueFetch(rows: 7) {
                    calls += 1
                    #expect(calls < 100, "seed \(seed)")
                    if calls >= 100 { break }
                    let writer = Bool.random(using: &random) ? repository : other
                    let ids = try writer.fetch().map(\.id)
                    guard let id = ids.randomElement(using: &random) else { continue }
                    switch Int.random(in: 0..<5, using: &random) {
                    case 0:
                        try writer.add(
                            name: names.randomElement(using: &random) ?? "x", deadline: randomDeadline(),
                            nameCheck: .asStored)
                    case 1: try writer.delete(ids: [id])
                    case 2: _ = try writer.setDone(Bool.random(using: &random), ids: [id])
                    case 3: _ = try writer.setDeadline(randomDeadline(), id: id)
                    default:
                        try writer.replaceFields(
                            id: id,
                            with: TodoFields(
                                name: names.randomElement(using: &random) ?? "x", deadline: randomDeadline(),
                                isDone: Bool.random(using: &random),
                                priority: TodoPriority(rawValue: Int.random(in: 0...9, using: &random)) ?? .none))
                    }
                }
                let expected = TodoResultsSnapshot(
                    order: order, sectioning: sectioning, todos: try repository.fetch(request))
                #expect(controller.snapshot == expected, "seed \(seed), request \(number), \(sectioning)")
                #expect(try controller.processExternalChanges() == false, "seed \(seed): nothing left for later")
            }
        }
    }
}
