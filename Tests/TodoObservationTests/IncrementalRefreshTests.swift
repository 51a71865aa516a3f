import SQLite
import TestSupport
import Testing
import TodoObservation
import TodoSnapshot
import TodoStore

/// Results patched in after small commits (no refetch) must always equal a full fetch, the
/// notifications must still rebuild them exactly, and each difference derived from the changed
/// todos must be as minimal as the full diff of the two snapshots.
@Suite(.timed) struct IncrementalRefreshTests {
    let folder = TemporaryFolder()

    /// Keeps its own copy of the results, rebuilt only from the batches' differences.
    final class Replayer: FetchedResultsControllerDelegate {
        var replayed = Snapshot<String, Todo>()
        /// Batches whose difference (derived from the changed todos) is less minimal than the
        /// full diff of the two snapshots, the reference.
        var lessMinimal: [String] = []

        func controller(_ controller: FetchedResultsController, didChangeContentWith batch: FetchedResultsBatch) {
            replayed = replayed.applying(batch.difference)
            let full = batch.snapshot.snapshot.difference(from: batch.previous.snapshot)
            func shape(_ difference: SnapshotDifference<String, Todo>) -> [Int] {
                [
                    difference.itemInserts.count, difference.itemDeletes.count,
                    difference.itemMoves.count + difference.itemUpdates.count, difference.itemUpdates.count,
                    difference.sectionInserts.count, difference.sectionDeletes.count, difference.sectionMoves.count
                ]
            }
            if shape(batch.difference) != shape(full) { lessMinimal.append("\(batch.difference) vs \(full)") }
        }
    }

    /// Each step writes through the controllers' own repository (its commit observer patches them
    /// at once) or through another connection (as another process would; seen through `PRAGMA
    /// data_version` and the change feed by ``processExternalChanges()``), chosen at random. One
    /// run covers both paths and their interleavings: ``processExternalChanges()`` is called after
    /// every step, so after an in-process write it must find nothing new to apply twice.
    @Test func randomOperationsKeepEveryOrderFilterAndSearchExact() throws {
        let repository = try TodoRepository(path: folder.file("todo.sqlite"))
        let otherConnection = try TodoRepository(path: folder.file("todo.sqlite"))
        var generator = SeededGenerator(seed: 0x1DEA_5EED)
        // Names that tell NOCASE apart from Unicode folding and from plain byte order.
        let words = ["apple", "Apple", "APPLE", "_x", "Zed", "zed", "éclair", "Éclair", "a", "ab", "B", "b", "bA"]
        func randomName() -> String {
            words[Int.random(in: 0..<words.count, using: &generator)]
                + (Bool.random(using: &generator) ? "" : " \(Int.random(in: 0 ..< 9, using: &generator))")
        }
        func randomDate() -> CalendarDate? {
            Int.random(in: 0..<4, using: &generator) == 0
                ? nil
                : CalendarDate(
                    year: 2024, month: Int.random(in: 1...3, using: &generator),
                    day: Int.random(in: 1...5, using: &generator))
        }
        // Priorities too, so the priority order has something to sort (issue 26).
        func randomPriority() -> TodoPriority {
            TodoPriority(rawValue: [0, 0, 1, 5, 9, 3][Int.random(in: 0..<6, using: &generator)]) ?? .none
        }
        for _ in 0..<150 {
            try otherConnection.add(
                TodoFields(
                    name: randomName(), deadline: randomDate(), isDone: Bool.random(using: &generator),
                    priority: randomPriority()))
        }

        var watched: [(FetchedResultsController, Replayer)] = []
        for order in TodoFetchRequest.Order.allCases {
            for filter in TodoFetchRequest.DoneFilter.allCases {
                for search in [nil, "a"] as [String?] {
                    // Sectioning only regroups the same patched array: one filter covers it.
                    for sectioning in filter == .all
                        ? [.none, .byDoneState] : [FetchedResultsController.Sectioning.none]
                    {
                        // Deadline bounds ride along with the search, so every term is patched too.
                        let request = TodoFetchRequest(
                            order: order, filter: filter, search: search,
                            dueBefore: search == nil ? nil : CalendarDate("2024-03-03"),
                            dueAfter: search == nil ? nil : CalendarDate("2024-01-03"))
                        let controller = FetchedResultsController(
                            repository: repository, fetchRequest: request, sectioning: sectioning)
                        let replayer = Replayer()
                        controller.delegate = replayer
                        try controller.performFetch()
                        replayer.replayed = controller.snapshot.snapshot
                        watched.append((controller, replayer))
                    }
                }
            }
        }

        /// One random write through `writer`.
        func write(through writer: TodoRepository) throws {
            let ids = try repository.fetch().map(\.id)
            let id = ids.isEmpty ? 0 : ids[Int.random(in: 0..<ids.count, using: &generator)]
            switch ids.isEmpty ? 0 : Int.random(in: 0..<20, using: &generator) {
            case 0...3:
                _ = try writer.add(name: randomName(), deadline: randomDate(), isDone: Bool.random(using: &generator))
            case 4...6: _ = try writer.rename(id: id, to: randomName())
            case 7...8: _ = try writer.setDeadline(randomDate(), id: id)
            case 9:
                let priority = randomPriority()
                _ = try writer.update(id: id) { $0.priority = priority }
            case 10...13: _ = try writer.setDone(Bool.random(using: &generator), ids: [id])
            case 14...15: _ = try writer.delete(ids: [id])
            case 16...17:
                // Several rows in one transaction.
                let some = (0..<5).map { _ in ids[Int.random(in: 0..<ids.count, using: &generator)] }
                _ = try writer.setDone(Bool.random(using: &generator), ids: some)
            case 18:
                // More rows than the incremental path takes: a refetch.
                _ = try writer.setDone(Bool.random(using: &generator), ids: ids)
            default:
                try writer.connection.execute("UPDATE todos SET done = 1 - done")
            }
        }

        for step in 0..<1_000 {
            // One write, or now and then two before anything is checked: a commit of the
            // controllers' own repository can then land while another connection's is unseen.
            var writers: [String] = []
            for _ in 0..<(Int.random(in: 0..<4, using: &generator) == 0 ? 2 : 1) {
                let external = Bool.random(using: &generator)
                writers.append(external ? "other connection" : "own repository")
                try write(through: external ? otherConnection : repository)
            }
            let label = "step \(step) (through \(writers.joined(separator: ", then ")))"
            for (controller, replayer) in watched {
                try controller.processExternalChanges()
                let expected = try repository.fetch(controller.fetchRequest)
                if controller.sectioning == .none {
                    #expect(controller.fetchedObjects == expected, "\(label): \(controller.fetchRequest)")
                } else {
                    let grouped = expected.filter { !$0.isDone } + expected.filter(\.isDone)
                    #expect(controller.fetchedObjects == grouped, "\(label): \(controller.fetchRequest)")
                }
                #expect(replayer.replayed == controller.snapshot.snapshot, "\(label): \(controller.fetchRequest)")
                #expect(
                    replayer.lessMinimal.isEmpty, "\(label): \(controller.fetchRequest): \(replayer.lessMinimal)")
                replayer.lessMinimal.removeAll()
            }
        }
    }
}
