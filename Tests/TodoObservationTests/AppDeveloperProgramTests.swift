import CSQLite
import Dispatch
import Foundation
import SQLite
import TestSupport
import Testing
import TodoSnapshot
import TodoStore

@testable import TodoObservation

/// Ordinary programs an app developer writes against the libraries: reading inside a loop over
/// the same query, writing from a delegate callback, throwing their own errors through our
/// closures. Each once failed (a loop that never ended, `add` returning the delegate's todo,
/// a trap); each is a test now.
@Suite(.timed) struct AppDeveloperProgramTests {
    let folder = TemporaryFolder()

    struct AppError: Error, Equatable { let code: Int }

    private func repository(named name: String = "todo.sqlite") throws -> TodoRepository {
        try TodoRepository(path: folder.file(name))
    }

    // MARK: Reading inside a loop over the same query

    @Test func readingTheSameRequestInsideItsOwnLoopEnds() throws {
        let repository = try repository()
        for name in ["a", "b", "c"] { try repository.add(name: name) }
        let request = TodoFetchRequest(order: .name)
        var visited: [String] = []
        var innerCounts: [Int] = []
        try repository.forEach(request) { todo in
            visited.append(todo.name)
            innerCounts.append((try? repository.fetch(request).count) ?? -1)
            #expect(visited.count <= 3, "the outer loop restarted")
        }
        #expect(visited == ["a", "b", "c"])
        #expect(innerCounts == [3, 3, 3])
    }

    @Test func nestedLoopsOverTheSameRequestEachSeeEveryRow() throws {
        let repository = try repository()
        for name in ["a", "b"] { try repository.add(name: name) }
        var pairs: [String] = []
        try repository.forEach { outer in
            try? repository.forEach { inner in pairs.append(outer.name + inner.name) }
        }
        #expect(pairs.sorted() == ["aa", "ab", "ba", "bb"])
    }

    @Test func anAppsCachedStatementIsNeverResetByTheLibraryOrByItself() throws {
        let repository = try repository()
        for name in ["a", "b", "c"] { try repository.add(name: name) }
        let connection = repository.connection
        // The exact SQL the store uses for its default request: the app's cache is its own.
        let sql = "SELECT id, name, deadline, done FROM todos ORDER BY deadline IS NULL, deadline, id LIMIT ? OFFSET ?"
        let outer = try connection.cachedStatement(sql)
        try outer.bind([Int64(-1), Int64(0)])
        var names: [String] = []
        while try outer.step() {
            names.append(outer.row.string(1))
            _ = try repository.fetch()  // the library's statement
            let inner = try connection.cachedStatement(sql)  // the app's, while busy
            #expect(inner !== outer)
            try inner.bind([Int64(-1), Int64(0)])
            var innerRows = 0
            while try inner.step() { innerRows += 1 }
            #expect(innerRows == 3)
            #expect(names.count <= 3)
        }
        #expect(names == ["a", "b", "c"])
        // Once done, the cached statement is handed out again.
        #expect(try connection.cachedStatement(sql) === outer)
    }

    // MARK: Writing from a delegate callback

    /// Adds a todo of its own the first time it hears of a change, and logs the callback order.
    final class WritingDelegate: FetchedResultsControllerDelegate {
        let repository: TodoRepository
        var log: [String] = []
        var depth = 0
        var maxDepth = 0
        var added: Todo?

        init(repository: TodoRepository) { self.repository = repository }

        func controllerWillChangeContent(_ controller: FetchedResultsController) {
            depth += 1
            maxDepth = max(maxDepth, depth)
            log.append("will")
        }

        func controllerDidChangeContent(_ controller: FetchedResultsController) {
            log.append("did")
            depth -= 1
        }

        func controller(
            _ controller: FetchedResultsController, didChange todo: Todo, at indexPath: SnapshotIndexPath?,
            for type: FetchedResultsChangeType, newIndexPath: SnapshotIndexPath?
        ) {
            log.append("\(type) \(todo.name)")
            if added == nil {
                added = try? repository.add(name: "from the delegate")
            }
        }
    }

    /// A repository, a fetched controller on it, and a delegate that adds a todo when told.
    private func observedByAWritingDelegate() throws -> (TodoRepository, FetchedResultsController, WritingDelegate) {
        let repository = try repository()
        let controller = FetchedResultsController(repository: repository)
        let delegate = WritingDelegate(repository: repository)
        controller.delegate = delegate
        try controller.performFetch()
        return (repository, controller, delegate)
    }

    @Test func aDelegateThatWritesDoesNotChangeWhatTheCallerGetsNorNest() throws {
        let (repository, controller, delegate) = try observedByAWritingDelegate()

        let mine = try repository.add(name: "mine")
        #expect(mine.name == "mine")
        #expect(try repository.todo(id: mine.id)?.name == "mine")
        #expect(delegate.added?.name == "from the delegate")
        #expect(delegate.added?.id != mine.id)
        // Two batches, one after the other, never one inside the other.
        #expect(delegate.log == ["will", "insert mine", "did", "will", "insert from the delegate", "did"])
        #expect(delegate.maxDepth == 1)
        #expect(controller.fetchedObjects.map(\.name) == ["mine", "from the delegate"])
    }

    @Test func aDelegateThatWritesInsideATransactionIsToldAfterTheCommit() throws {
        let (repository, controller, delegate) = try observedByAWritingDelegate()
        let ids = try repository.connection.transaction {
            [try repository.add(name: "a").id, try repository.add(name: "b").id]
        }
        #expect(try repository.todos(ids: ids).map(\.name) == ["a", "b"])
        #expect(delegate.maxDepth == 1)
        #expect(delegate.log.filter { $0 == "will" }.count == 2)
        #expect(controller.fetchedObjects.map(\.name) == ["a", "b", "from the delegate"])
    }

    @Test func aCommitObserverThatWritesSeesItsOwnWriteLaterNotInside() throws {
        let repository = try repository()
        let connection = repository.connection
        var calls: [Set<Int64>?] = []
        var inside = false
        var nested = false
        connection.addCommitObserver { transaction in
            if inside { nested = true }
            inside = true
            defer { inside = false }
            calls.append(transaction.changedRowIDs(in: "todos"))
            if calls.count == 1 { _ = try? repository.add(name: "second") }
        }
        let first = try repository.add(name: "first")
        #expect(first.name == "first")
        #expect(calls.count == 2)
        #expect(!nested)
        #expect(calls.first == [first.id])
    }

    // MARK: The app's own errors through our closures

    @Test func anAppErrorThrownInsideRecordingUndoComesBackUnchangedAndChangesNothing() throws {
        let repository = try repository()
        try repository.add(name: "kept")
        #expect(throws: AppError(code: 7)) {
            try repository.recordingUndo("app") {
                try repository.add(name: "rolled back")
                throw AppError(code: 7)
            }
        }
        #expect(try repository.fetch().map(\.name) == ["kept"])
        // No history entry was written for the failed command (the plain add records none).
        #expect(throws: TodoStoreError.nothingToUndo) { try repository.undo() }
    }

    @Test func anAppErrorThroughATransactionAndAThrowingLoopComesBackUnchanged() throws {
        let repository = try repository()
        try repository.add(name: "a")
        try repository.add(name: "b")
        #expect(throws: AppError(code: 1)) {
            try repository.connection.transaction {
                try repository.add(name: "c")
                throw AppError(code: 1)
            }
        }
        #expect(try repository.count() == 2)
        var seen = 0
        #expect(throws: AppError(code: 2)) {
            try repository.forEach(throwing: { _ in
                seen += 1
                throw AppError(code: 2)
            })
        }
        #expect(seen == 1)
        // The loop's statement was reset: the next read works and starts from the top.
        #expect(try repository.fetch().map(\.name) == ["a", "b"])
    }

    @Test func storeErrorsInsideRecordingUndoStayTyped() throws {
        let repository = try repository()
        #expect(throws: TodoStoreError.notFound(ids: [42])) {
            try repository.recordingUndo("done") { () throws(TodoStoreError) in
                try repository.setDone(true, ids: [42])
            }
        }
        #expect(throws: TodoStoreError.emptyName) {
            try repository.recordingUndo("add") { () throws(TodoStoreError) in try repository.add(name: " \t") }
        }
    }

    @Test func addReturnsTheStoredRow() throws {
        let repository = try repository()
        let todo = try repository.add(name: "Buy milk", deadline: CalendarDate("2024-05-01"), isDone: true)
        #expect(try repository.todo(id: todo.id) == todo)
    }

    // MARK: Observation that never silently drifts

    /// Records refresh failures besides the batches.
    final class FailureRecorder: FetchedResultsControllerDelegate {
        var failures: [TodoStoreError] = []
        var batches = 0
        func controller(_ controller: FetchedResultsController, didFailToRefreshWith error: TodoStoreError) {
            failures.append(error)
        }
        func controller(_ controller: FetchedResultsController, didChangeContentWith batch: FetchedResultsBatch) {
            batches += 1
        }
    }

    /// A flag the SQLite authorizer reads: while set, reading a todo's name is denied (so every
    /// fetch fails, while a plain INSERT, whose trigger reads the lists, still runs).
    final class SelectBlocker {
        var blocking = false
    }

    @Test func aFailedRefreshReachesTheAppAndTheNextRefreshIsWhole() throws {
        let repository = try repository()
        try repository.add(name: "a")
        let controller = FetchedResultsController(repository: repository)
        let recorder = FailureRecorder()
        controller.delegate = recorder
        try controller.performFetch()

        let blocker = SelectBlocker()
        let context = Unmanaged.passUnretained(blocker).toOpaque()
        sqlite3_set_authorizer(
            repository.connection.handle,
            { context, action, table, column, _, _ in
                guard let context, let table, let column else { return SQLITE_OK }
                let blocker = Unmanaged<SelectBlocker>.fromOpaque(context).takeUnretainedValue()
                let readsName =
                    action == SQLITE_READ && String(cString: table) == "todos" && String(cString: column) == "name"
                return blocker.blocking && readsName ? SQLITE_DENY : SQLITE_OK
            }, context)
        defer { sqlite3_set_authorizer(repository.connection.handle, nil, nil) }

        blocker.blocking = true
        try repository.connection.execute("INSERT INTO todos (name) VALUES ('missed')")
        blocker.blocking = false
        #expect(recorder.failures.count == 1)
        #expect(controller.lastRefreshError != nil)
        #expect(controller.fetchedObjects.map(\.name) == ["a"])

        // A small commit would normally be patched in; after a failure the refresh is whole,
        // so the todo the failed refresh missed shows up too.
        try repository.add(name: "b")
        #expect(controller.lastRefreshError == nil)
        #expect(controller.fetchedObjects == (try repository.fetch()))
        #expect(controller.fetchedObjects.map(\.name) == ["a", "missed", "b"])
        withExtendedLifetime(blocker) {}
    }

    @Test func aWriteDuringASlicedFetchIsInTheResultsItPublishes() throws {
        let repository = try repository()
        for index in 0..<50 { try repository.add(name: "todo \(index)") }
        let controller = FetchedResultsController(repository: repository)
        try controller.performFetch()
        try controller.beginFetch()
        #expect(try controller.continueFetch(rows: 10) == false)
        let added = try repository.add(name: "added mid-fetch")
        var slices = 0
        while try !controller.continueFetch(rows: 10) {
            slices += 1
            #expect(slices < 100)
        }
        #expect(controller.fetchedObjects.contains(added))
        #expect(controller.fetchedObjects == (try repository.fetch()))
    }

    @Test func commitsAreObservedInRollbackJournalModeToo() throws {
        let path = folder.file("delete-mode.sqlite")
        let setup = try Connection(path: path)
        try setup.setJournalMode(.delete)
        try Migrator().migrate(setup)
        let repository = try TodoRepository(migratedConnection: setup)
        let mode = try setup.prepare("PRAGMA journal_mode")
        #expect(try mode.step())
        #expect(mode.row.string(0) == "delete")
        try mode.reset()
        let controller = FetchedResultsController(repository: repository)
        let recorder = Recorder()
        controller.delegate = recorder
        try controller.performFetch()
        let todo = try repository.add(name: "seen")
        #expect(recorder.events == ["will", "insert \(todo.id) -->0.0", "did"])
        // A rolled-back write is never announced, in this mode either.
        #expect(throws: AppError(code: 3)) {
            try repository.connection.transaction {
                try repository.add(name: "never")
                throw AppError(code: 3)
            }
        }
        #expect(recorder.batches.count == 1)
        // Nor is a write transaction that changed nothing.
        try repository.connection.transaction {}
        #expect(recorder.batches.count == 1)
    }

    @Test func countHonoursTheSearchAsFetchDoes() throws {
        let repository = try repository()
        try repository.add(name: "Éclair")
        try repository.add(name: "bread")
        let request = TodoFetchRequest(filter: .undone, search: "ÉCLAIR")
        #expect(try repository.count(request) == (try repository.fetch(request)).count)
        #expect(try repository.count(request) == 1)
    }

    // MARK: The file monitor

    /// Counts callbacks from the monitor's queue; `first` is signalled by the first one.
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        let first = DispatchSemaphore(value: 0)
        func increment() {
            lock.lock()
            value += 1
            let isFirst = value == 1
            lock.unlock()
            if isFirst { first.signal() }
        }
        var count: Int {
            lock.lock()
            defer { lock.unlock() }
            return value
        }
    }

    /// Settling ticks a monitor scheduled, kept to be run when the test chooses, on the
    /// monitor's queue, as their timers would run them.
    final class PendingTicks: @unchecked Sendable {
        private let lock = NSLock()
        private var ticks: [(queue: DispatchQueue, tick: @Sendable () -> Void)] = []
        /// Signalled once per tick scheduled.
        let scheduled = DispatchSemaphore(value: 0)
        var schedule: DatabaseFileMonitor.TickScheduler {
            { [self] queue, _, tick in
                lock.lock()
                ticks.append((queue, tick))
                lock.unlock()
                scheduled.signal()
            }
        }
        var count: Int {
            lock.lock()
            defer { lock.unlock() }
            return ticks.count
        }
        func runAll() {
            lock.lock()
            let due = ticks
            ticks.removeAll()
            lock.unlock()
            for (queue, tick) in due { queue.sync(execute: tick) }
        }
    }

    @Test func afterCancelReturnsNoCallbackRuns() throws {
        let path = folder.file("watched.sqlite")
        let repository = try TodoRepository(path: path)
        let writer = try TodoRepository(path: path)
        let counter = Counter()
        let ticks = PendingTicks()
        let monitor = try DatabaseFileMonitor(databasePath: path, scheduleTick: ticks.schedule) { counter.increment() }
        try writer.add(name: "wake up")
        #expect(counter.first.wait(timeout: .now() + 5) == .success)
        // The first burst's seven settling ticks are scheduled after its callback returns; wait
        // for them, so that cancel() comes after (a cancel during the callback leaves none, which
        // is right, but would leave nothing to test). Each runs after cancel(), as its timer
        // would have, and must call nothing.
        for _ in 0..<7 { #expect(ticks.scheduled.wait(timeout: .now() + 5) == .success) }
        monitor.cancel()
        let atCancel = counter.count
        #expect(ticks.count >= 7)
        ticks.runAll()
        #expect(counter.count == atCancel)
        // A file event after cancel: a second monitor hears it; the cancelled one did not.
        let witness = Counter()
        let witnessMonitor = try DatabaseFileMonitor(databasePath: path, scheduleTick: PendingTicks().schedule) {
            witness.increment()
        }
        try writer.add(name: "after cancel")
        #expect(witness.first.wait(timeout: .now() + 5) == .success)
        witnessMonitor.cancel()
        ticks.runAll()
        #expect(counter.count == atCancel)
        withExtendedLifetime(repository) {}
    }

    @Test func cancellingFromInsideTheCallbackDoesNotDeadlock() throws {
        let path = folder.file("self-cancel.sqlite")
        let writer = try TodoRepository(path: path)
        let counter = Counter()
        let ticks = PendingTicks()
        final class Box: @unchecked Sendable { var monitor: DatabaseFileMonitor? }
        let box = Box()
        box.monitor = try DatabaseFileMonitor(databasePath: path, scheduleTick: ticks.schedule) {
            counter.increment()
            box.monitor?.cancel()  // returns at once: this callback is the last
        }
        try writer.add(name: "wake up")
        #expect(counter.first.wait(timeout: .now() + 5) == .success)
        box.monitor?.cancel()  // from outside: waits for the callback to end
        ticks.runAll()
        #expect(counter.count == 1)
    }
}
