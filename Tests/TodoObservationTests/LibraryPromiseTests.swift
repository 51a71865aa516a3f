import Foundation
import TestSupport
import Testing
import TodoObservation
import TodoSnapshot
import TodoStore

/// Programs an app developer writes from docs/LIBRARY.md's "Using the libraries safely" and the doc
/// comments, each against the public API only. Each one broke a promise the libraries made
/// (issue 24) and is kept as a test of that promise.
@Suite(.timed) struct LibraryPromiseTests {
    let folder = TemporaryFolder()

    struct AppError: Error, Equatable { let code: Int }

    /// A repository at `name` holding `count` undated todos named "todo 1"..., ids 1... in order.
    private func repository(named name: String = "todo.sqlite", todos count: Int) throws -> TodoRepository {
        let repository = try TodoRepository(path: folder.file(name))
        try repository.connection.transaction {
            for index in 1...count { try repository.add(name: "todo \(index)") }
        }
        return repository
    }

    /// Reads the rest of a sliced fetch, `rows` at a time; the number of calls it took.
    @discardableResult
    private func finishLoading(_ controller: FetchedResultsController, rows: Int = 10) throws -> Int {
        var calls = 0
        while calls < 1_000 {
            calls += 1
            if try controller.continueFetch(rows: rows) { break }
        }
        #expect(!controller.isFetching)
        return calls
    }

    // MARK: Writes during a first sliced load (what `todo ui` does)

    @Test func writesBetweenTheSlicesOfAFirstLoadAreInTheResults() throws {
        let repository = try repository(todos: 30)
        let controller = FetchedResultsController(repository: repository)
        let recorder = Recorder()
        controller.delegate = recorder
        try controller.beginFetch()  // no performFetch() first: the app's first load
        #expect(try controller.continueFetch(rows: 10) == false)

        try repository.delete(ids: [3])  // already read
        let urgent = try repository.add(name: "urgent", deadline: CalendarDate("2000-01-01"))  // sorts first
        try finishLoading(controller)

        #expect(!controller.fetchedObjects.contains { $0.id == 3 }, "a deleted todo is still shown")
        #expect(controller.fetchedObjects.first == urgent, "an added todo never appeared")
        #expect(controller.fetchedObjects == (try repository.fetch()))
        #expect(recorder.batches.isEmpty, "a first load notifies nothing")
        // Observing has started: the next write is reported.
        try repository.delete(ids: [urgent.id])
        #expect(recorder.batches.count == 1)
        #expect(controller.fetchedObjects == (try repository.fetch()))
    }

    // MARK: Writing during a sliced load after another connection committed

    @Test func writingDuringASlicedLoadWorksAfterAnotherConnectionCommitted() throws {
        let repository = try repository(todos: 30)
        let other = try TodoRepository(path: repository.connection.path)
        let controller = FetchedResultsController(repository: repository)
        try controller.beginFetch()
        #expect(try controller.continueFetch(rows: 10) == false)

        try other.add(name: "from the other connection")
        let mine = try repository.add(name: "from this repository")  // SQLITE_BUSY_SNAPSHOT (517) before the fix
        #expect(try repository.todo(id: mine.id) == mine)
        // The app's own SQL and transactions, each after another commit elsewhere.
        #expect(try controller.continueFetch(rows: 10) == false)
        try other.add(name: "again from the other connection")
        try repository.connection.execute("UPDATE todos SET done = 1 WHERE id = 1")
        #expect(try controller.continueFetch(rows: 5) == false)
        try other.add(name: "once more from the other connection")
        try repository.connection.transaction { _ = try repository.rename(id: 2, to: "renamed in a transaction") }
        try finishLoading(controller)

        #expect(controller.fetchedObjects == (try repository.fetch()))
        #expect(
            controller.fetchedObjects.suffix(4).map(\.name) == [
                "from the other connection", "from this repository",
                "again from the other connection",
                "once more from the other connection"
            ])
        #expect(controller.fetchedObjects.first?.isDone == true)
        #expect(controller.fetchedObjects.dropFirst().first?.name == "renamed in a transaction")
    }

    // MARK: A delegate that writes while told about another program's commit

    /// Marks every todo it is told was inserted as done, logs the callbacks, and rebuilds its own
    /// list from the batches, in the order they arrive, as a table view's data source would.
    final class MarkingDoneDelegate: FetchedResultsControllerDelegate {
        var list: Snapshot<String, Todo>
        var log: [String] = []
        var depth = 0
        var maxDepth = 0
        /// Batches whose `previous` was not the list the app had: they arrived out of order.
        var outOfOrder = 0

        init(list: Snapshot<String, Todo>) { self.list = list }

        func controllerWillChangeContent(_ controller: FetchedResultsController) {
            depth += 1
            maxDepth = max(maxDepth, depth)
            log.append("will")
        }

        func controller(
            _ controller: FetchedResultsController, didChange todo: Todo, at indexPath: SnapshotIndexPath?,
            for type: FetchedResultsChangeType, newIndexPath: SnapshotIndexPath?
        ) {
            log.append("\(type) \(todo.name)")
            if type == .insert { _ = try? controller.repository.setDone(true, ids: [todo.id]) }
        }

        func controllerDidChangeContent(_ controller: FetchedResultsController) {
            log.append("did")
            depth -= 1
        }

        func controller(_ controller: FetchedResultsController, didChangeContentWith batch: FetchedResultsBatch) {
            guard batch.previous.snapshot == list else {
                outOfOrder += 1
                return
            }
            list = list.applying(batch.difference)
        }
    }

    @Test func batchesNeverNestAndArriveInCommitOrderWhoeverCommitted() throws {
        let repository = try repository(todos: 2)
        let request = TodoFetchRequest(filter: .undone)
        let controller = FetchedResultsController(repository: repository, fetchRequest: request)
        try controller.performFetch()
        let delegate = MarkingDoneDelegate(list: controller.snapshot.snapshot)
        controller.delegate = delegate

        let other = try TodoRepository(path: repository.connection.path)  // another program
        try other.add(name: "from the other program")
        #expect(try controller.processExternalChanges())

        #expect(
            delegate.log == [
                "will", "insert from the other program", "did",
                "will", "delete from the other program", "did"
            ])
        #expect(delegate.maxDepth == 1)
        #expect(delegate.outOfOrder == 0)
        #expect(delegate.list.items == (try repository.fetch(request)))
        #expect(controller.fetchedObjects == (try repository.fetch(request)))
    }

    @Test func aDelegateCallingProcessExternalChangesGetsTheBatchAfterItsOwn() throws {
        let repository = try repository(todos: 1)
        let controller = FetchedResultsController(repository: repository)
        try controller.performFetch()
        let other = try TodoRepository(path: repository.connection.path)
        final class Delegate: FetchedResultsControllerDelegate {
            let other: TodoRepository
            var log: [String] = []
            var depth = 0
            var maxDepth = 0
            init(other: TodoRepository) { self.other = other }
            func controllerWillChangeContent(_ controller: FetchedResultsController) {
                depth += 1
                maxDepth = max(maxDepth, depth)
                log.append("will")
            }
            func controller(
                _ controller: FetchedResultsController, didChange todo: Todo, at indexPath: SnapshotIndexPath?,
                for type: FetchedResultsChangeType, newIndexPath: SnapshotIndexPath?
            ) {
                log.append("\(type) \(todo.name)")
                guard todo.name == "mine" else { return }
                // Another program commits meanwhile, and the app looks at once.
                _ = try? other.add(name: "theirs")
                _ = try? controller.processExternalChanges()
            }
            func controllerDidChangeContent(_ controller: FetchedResultsController) {
                log.append("did")
                depth -= 1
            }
        }
        let delegate = Delegate(other: other)
        controller.delegate = delegate
        try repository.add(name: "mine")
        #expect(delegate.log == ["will", "insert mine", "did", "will", "insert theirs", "did"])
        #expect(delegate.maxDepth == 1)
        #expect(controller.fetchedObjects == (try repository.fetch()))
    }

    // MARK: forEach(throwing:) rolls back

    @Test func forEachThrowingRollsBackTheWritesOfItsBody() throws {
        let repository = try repository(todos: 3)
        var visited = 0
        #expect(throws: AppError(code: 5)) {
            try repository.forEach(throwing: { todo in
                visited += 1
                _ = try repository.setDone(true, ids: [todo.id])
                _ = try repository.add(name: "copy of \(todo.name)")
                if visited == 2 { throw AppError(code: 5) }
            })
        }
        #expect(visited == 2)
        #expect(try repository.count(.done) == 0, "the body's writes were committed one by one")
        #expect(try repository.count() == 3)
        // A body that returns commits everything it wrote, once.
        try repository.forEach(throwing: { todo in _ = try repository.setDone(true, ids: [todo.id]) })
        #expect(try repository.count(.done) == 3)
    }

    // MARK: A sliced fetch says it is complete on the slice that completes it

    @Test func theSliceThatReadsTheLastTodoSaysTheFetchIsComplete() throws {
        let repository = try repository(todos: 30)
        let controller = FetchedResultsController(repository: repository)
        try controller.beginFetch()
        #expect(try controller.continueFetch(rows: 10) == false)
        #expect(try controller.continueFetch(rows: 10) == false)
        #expect(try controller.continueFetch(rows: 10) == true, "30 todos, 10 a slice: the third slice completes it")
        #expect(controller.fetchedObjects.count == 30)
        // Fewer todos than a slice: the first slice completes it.
        try controller.beginFetch()
        #expect(try controller.continueFetch(rows: 100) == true)
        #expect(controller.fetchedObjects.count == 30)
    }

    // MARK: Programs that held already, kept as tests of their promises

    @Test func twoRepositoriesOnOneFileEachSeeTheOthersWrites() throws {
        let path = folder.file("shared.sqlite")
        let first = try TodoRepository(path: path)
        let second = try TodoRepository(path: path)
        let controllers = [FetchedResultsController(repository: first), FetchedResultsController(repository: second)]
        for controller in controllers { try controller.performFetch() }
        let a = try first.add(name: "from the first")
        let b = try second.add(name: "from the second")
        _ = try first.setDone(true, ids: [b.id])
        _ = try second.rename(id: a.id, to: "renamed by the second")
        for controller in controllers {
            try controller.processExternalChanges()
            #expect(controller.fetchedObjects == (try first.fetch()))
        }
        #expect(try second.fetch().map(\.name) == ["renamed by the second", "from the second"])
    }

    @Test func aLongReadSeesOneSnapshotWhileAnotherConnectionCommits() throws {
        let repository = try repository(todos: 200)
        let writer = try TodoRepository(path: repository.connection.path)
        var seen = 0
        try repository.forEach { todo in
            seen += 1
            if todo.id % 20 == 0 { _ = try? writer.add(name: "committed during the read") }
        }
        #expect(seen == 200, "the loop read one snapshot")
        #expect(try writer.count() == 210)
        #expect(try repository.count() == 210, "and the next read sees every commit")
    }

    @Test func eightThreadsAddingAtOnceLoseNothing() throws {
        let path = folder.file("threads.sqlite")
        _ = try TodoRepository(path: path)  // created and migrated once, before the threads
        final class Failures: @unchecked Sendable {
            private let lock = NSLock()
            private var errors: [String] = []
            func add(_ error: any Error) {
                lock.lock()
                errors.append("\(error)")
                lock.unlock()
            }
            var all: [String] {
                lock.lock()
                defer { lock.unlock() }
                return errors
            }
        }
        let failures = Failures()
        // Each thread owns its repository (one connection each), as docs/LIBRARY.md asks.
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            do {
                let repository = try TodoRepository(path: path)
                for index in 0..<20 { try repository.add(name: "thread \(thread) todo \(index)") }
            } catch {
                failures.add(error)
            }
        }
        #expect(failures.all.isEmpty)
        let todos = try TodoRepository(path: path).fetch()
        #expect(todos.count == 160)
        #expect(Set(todos.map(\.id)).count == 160)
        #expect(Set(todos.map(\.name)).count == 160)
    }

    @Test func undoingAStepAnotherProcessRecordedWorksAndIsObserved() throws {
        let path = folder.file("undo.sqlite")
        let repository = try TodoRepository(path: path)
        try repository.add(name: "mine")
        let controller = FetchedResultsController(repository: repository)
        let recorder = Recorder()
        controller.delegate = recorder
        try controller.performFetch()
        let added = try ProcessRunner.run(ProcessRunner.todoBinary, ["--db", path, "add", "from another process"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(try controller.processExternalChanges())
        #expect(controller.fetchedObjects.map(\.name) == ["mine", "from another process"])

        #expect(try repository.undo() == UndoneCommand(command: "add", remaining: 0))
        #expect(controller.fetchedObjects.map(\.name) == ["mine"])
        #expect(recorder.objectChanges.last == "delete 2 0.1->-")
        #expect(
            try ProcessRunner.run(ProcessRunner.todoBinary, ["--db", path, "list"]).stdout.contains(
                "from another process") == false)
    }
}
