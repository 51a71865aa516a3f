import SQLite
import TodoSnapshot
import TodoStore

/// Live results of a todo fetch request, with change notifications for every committed
/// transaction that changes them, made by this process or by any other.
///
/// Like `NSFetchedResultsController`, minus its known flaws: items are identified by
/// todo id, so a diff is minimal (one rename is one update); an edit is always reported; a move
/// carries its new content; sections are diffed too; and changes made by another process, the
/// `sqlite3` shell included, are seen.
///
/// How changes are detected:
/// - through the repository's own connection: SQLite's update, rollback and commit hooks (see
///   `Connection.addCommitObserver`): the controller updates right after each commit that
///   touched `todos` (patching in the changed rows, or refetching; see Complexity), before the
///   writing call returns; rolled-back work is never seen;
/// - from other connections and processes: call ``processExternalChanges()`` whenever the
///   file may have changed (``DatabaseFileMonitor`` says when, without polling). It compares
///   `PRAGMA data_version`, which costs no disk access; when it moved, the change feed (which
///   triggers in the file write for every writer) names the todos changed, and only those are
///   re-read and patched in, as for this connection's commits.
///   When the file was replaced (renamed over, as editors and file-sync tools save), it opens
///   the new file, switches ``repository`` to it and reports the difference; when the file was
///   deleted, it throws `TodoStoreError.databaseMissing(path:)`.
///
/// Lists: ``lists`` holds the lists as read with the results, and a commit that changed them
/// (renamed, recoloured, reordered, made or removed one, by any program: the `list_changes`
/// feed, written by triggers, says so) is told to the delegate
/// (``FetchedResultsControllerDelegate/controller(_:didChangeLists:)``) before the batch of the
/// same commit, so that a grouping by list is rebuilt before the todos are placed in it.
///
/// Threading: not `Sendable`. Use a controller where its repository is used (one actor, queue
/// or thread); delegate callbacks and stream elements are produced there. ``batches(bufferingNewest:)`` hands
/// `Sendable` values to any other context.
///
/// Batches never nest and arrive in commit order, whoever committed: a commit made while the
/// delegate is being told about a batch (a callback that writes, or that calls
/// ``processExternalChanges()``) is brought in and reported once every callback of that batch
/// has run.
///
/// Complexity: a commit, through this connection or any other, that changed at most
/// ``incrementalLimit`` todos (and a request without limit or offset) costs O(k log n) for k
/// changed todos, whatever the size of the results: those todos are re-read by id, moved by
/// binary search in the snapshot (a `SortedSnapshot`, which shares storage with the previous
/// one), and the difference is derived from them alone. Any other change refetches the
/// request, O(n), and finds the changed todos by merging the old and new results.
///
/// Subtasks: ``tree`` holds the results as a tree (the tree rule, `TodoOutline`: a subtask under
/// its parent when that parent is among the results, in the same list and section, else at the
/// top level), depth first, each row with its depth; each batch carries its change in tree
/// order (``FetchedResultsBatch/tree``), where a todo that only changed parent or level is a
/// move or an update, never a delete and an insert. A file without subtasks keeps no tree
/// (``tree`` is nil: the tree is the flat results) and its commits stay O(k log n): a look at
/// the k changed todos' parents. With subtasks, a commit also moves the rows of the todos under
/// the changed ones, O((k + s) (d + log n)) for s such todos and trees d deep, and the tree
/// costs a second sorted snapshot of the results in memory; the commit that brings the first
/// subtask, or takes the last away, builds or drops it whole, O(n).
public final class FetchedResultsController {
    /// How the results are grouped into sections.
    public enum Sectioning: Sendable, Equatable {
        /// One section, "All", always present (even when empty).
        case none
        /// "Undone" then "Done", each present only while it has todos (as with a
        /// `sectionNameKeyPath`); each keeps the request's order.
        case byDoneState
    }

    /// What the controller keeps of each todo.
    public enum Rows: Sendable, Equatable {
        /// The whole todo: ``snapshot``, ``tree`` and every batch hold todos, as
        /// `NSFetchedResultsController` holds objects.
        case todos
        /// Only what places it (`TodoKeyColumns`: its deadline, done state, status, priority,
        /// list and parent, and the extra fields asked for), as `NSFetchedResultsController`
        /// with a batch size keeps object ids and faults in the rows shown: about 24 bytes a
        /// todo where a whole one takes a few hundred. The results are ``keyResults`` (and
        /// ``keyTree``), the batches ``TodoKeyBatch``es told to
        /// ``FetchedResultsControllerDelegate/controller(_:didChangeKeysWith:)``; ``snapshot``
        /// and ``tree`` stay empty, ``batches(bufferingNewest:)`` yields nothing, and the rows
        /// are read by id when they are shown (`TodoRepository.todo(id:)`). Sectioning is
        /// always ``Sectioning/none``. A batch comes for every commit that changed a todo of
        /// the results, in any field (the rows are not kept to be compared), and names those
        /// todos.
        case keys(TodoKeyColumns)
    }

    /// One section of the results.
    public struct SectionInfo: Sendable, Equatable {
        /// "All", "Undone" or "Done".
        public let name: String
        /// The section's todos, in order.
        public let objects: [Todo]
        /// `objects.count`.
        public var numberOfObjects: Int { objects.count }
    }

    /// The repository whose database is observed. It changes only when
    /// ``processExternalChanges()`` follows a replaced file: write through this property, not
    /// a copy kept from before, so writes go where the results come from.
    public private(set) var repository: TodoRepository
    /// What is fetched, and in which order.
    public let fetchRequest: TodoFetchRequest
    /// How results are grouped.
    public let sectioning: Sectioning
    /// What is kept of each todo.
    public let rows: Rows
    /// Receives change notifications. Held weakly, as in UIKit.
    public weak var delegate: (any FetchedResultsControllerDelegate)?

    /// The current results as a snapshot (empty before ``performFetch()``).
    public private(set) var snapshot: TodoResultsSnapshot
    /// The parent links among the results and, while there are some, the tree.
    private var treeState: TodoTreeState
    /// The results in ``Rows/keys(_:)`` (empty in ``Rows/todos``, and before ``performFetch()``).
    public private(set) var keyResults: TodoKeyResults
    /// The tree of ``keyResults``, nil while none of them stores a parent.
    public var keyTree: TodoKeyTree? { keyTreeState.tree }
    private var keyTreeState = TodoKeyTreeState()
    /// The columns read in ``Rows/keys(_:)``, nil in ``Rows/todos``.
    private var keyColumns: TodoKeyColumns? {
        guard case .keys(let columns) = rows else { return nil }
        return fetchRequest.order == .name ? TodoKeyColumns(extra: columns.extra.union(.name)) : columns
    }
    /// The number of todos in the results, whatever is kept of them.
    private var resultCount: Int { keyColumns == nil ? snapshot.numberOfItems : keyResults.count }

    /// The results as a tree, in tree order, each row with its depth and parent; nil while no
    /// todo of the results has a parent (the tree is then ``snapshot``, every todo at the top
    /// level: ``treeRows`` reads either way).
    public var tree: TodoTreeSnapshot? { treeState.snapshot }

    /// Every row in tree order, section after section: ``tree``'s rows, or every todo at depth
    /// 0 when there is no tree. O(n).
    public var treeRows: [TodoTreeRow] {
        tree?.rows ?? snapshot.items.map { TodoTreeRow(todo: $0, ancestors: []) }
    }
    /// Up to this many changed todos per commit are patched in rather than refetched: 256, or
    /// one in 50 of the results when that is more, up to 10,000 (about what the change feed
    /// keeps). At that bound patching is still cheaper than a refetch, as `todo watch` timed
    /// with one commit changing k todos at several list sizes (the commit that set the bound
    /// has the figures). Patching costs mostly copying the chunks and shards the changes touch
    /// (the previous results share them), so it never grows past a copy of the list.
    public var incrementalLimit: Int { Self.incrementalLimit(forResultsOf: resultCount) }

    private static func incrementalLimit(forResultsOf count: Int) -> Int { min(max(256, count / 50), 10_000) }
    private var lastDataVersion: Int64?
    /// The lists, in display order, as read when the results were last read whole and after
    /// every change to them since (each told to the delegate first).
    public private(set) var lists: [TodoList] = []
    /// The lists' change feed's last entry when ``lists`` were read; nil: read them again.
    private var listFeedSeq: Int64?
    /// Where the change feed stood when the results were last read whole: the changes after it
    /// are what other connections did since, so a small commit costs a look-up of its rows.
    private var feedPosition: TodoFeedPosition?
    /// How many times a refresh after a commit read the whole request (a first fetch, a sliced
    /// fetch and ``performFetch()`` are not counted): what tests check to prove a small change
    /// is patched in, not refetched.
    private(set) var refetches = 0
    /// Set when a refresh failed: the snapshot may be stale, so the next refresh refetches whole
    /// instead of patching changed rows into them.
    private var needsFullRefetch = false
    /// True while the delegate and the streams are being told about a batch.
    private var isNotifying = false
    /// What arrived while a batch was being told, to do in order once it has been.
    private var queuedWork: [QueuedWork] = []
    private enum QueuedWork {
        /// A commit through this connection, with the todo ids it changed (nil: unknown).
        case commit(Set<Int64>?)
        /// A ``processExternalChanges()`` call.
        case externalChanges
        /// A commit through this connection that may have changed the lists.
        case lists
    }
    /// The error of the last refresh that failed, `nil` once one succeeds. Also told to the
    /// delegate (``FetchedResultsControllerDelegate/controller(_:didFailToRefreshWith:)``).
    public private(set) var lastRefreshError: TodoStoreError?
    private var observerToken: CommitObserverToken?
    /// The fetch ``continueFetch(rows:)`` is reading, if one is under way, and what it has read.
    /// Its cursor's `startPosition` says which changes the results must be checked against.
    private var pendingFetch: (cursor: TodoFetchCursor, results: TodoResultsSnapshot)?
    /// The key results ``continueFetch(rows:)`` has read, in ``Rows/keys(_:)``.
    private var pendingKeys: TodoKeyResults?
    private var continuations: [AsyncStream<FetchedResultsBatch>.Continuation] = []

    /// Creates a controller; nothing is fetched until ``performFetch()``. `rows` says what is
    /// kept of each todo (``Rows/keys(_:)`` always sections as ``Sectioning/none``).
    public init(
        repository: TodoRepository, fetchRequest: TodoFetchRequest = TodoFetchRequest(),
        sectioning: Sectioning = .none, rows: Rows = .todos
    ) {
        self.repository = repository
        self.fetchRequest = fetchRequest
        self.rows = rows
        if case .keys = rows { self.sectioning = .none } else { self.sectioning = sectioning }
        snapshot = TodoResultsSnapshot(order: fetchRequest.order, sectioning: self.sectioning)
        treeState = TodoTreeState(order: fetchRequest.order, sectioning: self.sectioning)
        if case .keys(let columns) = rows {
            keyResults = TodoKeyResults(order: fetchRequest.order, columns: columns)
        } else {
            keyResults = TodoKeyResults(order: fetchRequest.order, columns: TodoKeyColumns())
        }
    }

    /// Key results in this controller's order holding `todos` (key todos, fetched in order).
    private func makeKeyResults(_ todos: [Todo] = []) -> TodoKeyResults {
        TodoKeyResults(order: fetchRequest.order, columns: keyColumns ?? TodoKeyColumns(), todos: todos)
    }

    /// The request's key results, read whole.
    private func fetchKeys() throws(TodoStoreError) -> TodoKeyResults {
        var results = makeKeyResults()
        try repository.forEachKey(fetchRequest, columns: keyColumns ?? TodoKeyColumns()) { results.append($0) }
        return results
    }

    /// Publishes freshly fetched key results without notifying.
    private func adoptKeys(_ results: TodoKeyResults) {
        keyResults = results
        keyTreeState.reset(to: results)
        needsFullRefetch = false
        lastRefreshError = nil
        observeCommits()
    }

    /// Results in this controller's order and sectioning, holding `todos` (fetched in order).
    private func makeResults(_ todos: [Todo] = []) -> TodoResultsSnapshot {
        TodoResultsSnapshot(order: fetchRequest.order, sectioning: sectioning, todos: todos)
    }

    deinit {
        if let observerToken { repository.connection.removeCommitObserver(observerToken) }
        continuations.forEach { $0.finish() }
    }

    // MARK: Results

    /// Every fetched todo, section after section. O(n).
    public var fetchedObjects: [Todo] { snapshot.items }

    /// The sections, in order. O(n).
    public var sections: [SectionInfo] {
        snapshot.sections.map { SectionInfo(name: $0.id, objects: $0.items) }
    }

    /// The todo at `indexPath`. O(log n). - Precondition: the index path is in range.
    public func object(at indexPath: SnapshotIndexPath) -> Todo { snapshot.item(at: indexPath) }

    /// Where the todo with `id` is, or `nil` when the results do not contain it. O(log n).
    public func indexPath(forObjectWithID id: Todo.ID) -> SnapshotIndexPath? { snapshot.indexPath(ofItem: id) }

    // MARK: Fetching

    /// Fetches the results and starts observing this connection's commits. Sends no
    /// notification. Calling it again refetches (and still notifies nothing).
    public func performFetch() throws(TodoStoreError) {
        pendingFetch = nil
        lastDataVersion = try TodoStoreError.wrap { () throws(SQLiteError) in try repository.connection.dataVersion() }
        feedPosition = try repository.feedPosition()
        try readLists()
        if keyColumns != nil {
            adoptKeys(try fetchKeys())
        } else {
            adopt(makeResults(try repository.fetch(fetchRequest)))
        }
    }

    /// Reads ``lists``, and the lists' feed position before them (a change in between is read
    /// again later, never missed).
    private func readLists() throws(TodoStoreError) {
        let seq = try repository.listFeedPosition()
        lists = try repository.lists()
        listFeedSeq = seq
    }

    /// Publishes freshly fetched results without notifying, and starts observing this
    /// connection's commits (once).
    private func adopt(_ results: TodoResultsSnapshot) {
        snapshot = results
        treeState.reset(to: results)
        needsFullRefetch = false
        lastRefreshError = nil
        observeCommits()
    }

    /// Registers the commit observer on the repository's connection, once per connection.
    private func observeCommits() {
        if observerToken == nil {
            observerToken = repository.connection.addCommitObserver { [weak self] transaction in
                guard let self else { return }
                // The lists first, as for other connections' commits.
                if transaction.mayHaveChanged("lists") { self.refreshListsReportingFailure() }
                guard transaction.mayHaveChanged("todos") else { return }
                self.refreshReportingFailure(changed: transaction.changedRowIDs(in: "todos"))
            }
        }
    }

    /// ``refresh(changed:)`` from the commit hook, which has nowhere to throw to: a failure is
    /// kept in ``lastRefreshError``, told to the delegate, and makes the next refresh a full one.
    /// While a batch is being told, the refresh waits until it has been.
    private func refreshReportingFailure(changed: Set<Int64>?) {
        guard !isNotifying else { return queuedWork.append(.commit(changed)) }
        do {
            try refresh(changed: changed)
        } catch {
            needsFullRefetch = true
            lastRefreshError = error
            delegate?.controller(self, didFailToRefreshWith: error)
        }
    }

    /// ``refreshLists()`` from the commit hook: a failure is kept and told as a refresh's is.
    private func refreshListsReportingFailure() {
        guard !isNotifying else { return queuedWork.append(.lists) }
        do {
            try refreshLists()
        } catch {
            listFeedSeq = nil
            lastRefreshError = error
            delegate?.controller(self, didFailToRefreshWith: error)
        }
    }

    /// Reads the lists again when their feed moved since ``lists`` were read, and tells the
    /// delegate when they differ (a change to nothing a list shows, or one undone since, is not
    /// told). Costs one look-up of the feed's last entry when the lists did not change.
    private func refreshLists() throws(TodoStoreError) {
        let seq = try repository.listFeedPosition()
        guard seq != listFeedSeq else { return }
        let fresh = try repository.lists()
        listFeedSeq = seq
        guard fresh != lists else { return }
        lists = fresh
        notifying { delegate?.controller(self, didChangeLists: fresh) }
    }

    /// Starts a fetch that ``continueFetch(rows:)`` reads in slices, for callers that must stay
    /// responsive meanwhile (reading a long list whole blocks for as long as the read takes).
    /// The current results stay published, and nothing is notified, until the last slice is
    /// read; that slice publishes the results as they are then, every commit made meanwhile
    /// included.
    ///
    /// Between slices the repository may be written through as usual, whoever else committed
    /// meanwhile (the fetch never holds a read snapshot across a write: see `TodoFetchCursor`).
    /// Such a write is reported against the current results once some were published (by a
    /// ``performFetch()`` or an earlier sliced fetch); on a first fetch there is nothing to
    /// report it against, and it is simply in the results the last slice publishes. Commits
    /// by other connections meanwhile are in those results too: the last slice re-reads every
    /// todo the change feed lists since the fetch began (a full read when there are more than
    /// ``incrementalLimit`` of them, or the request has a limit or an offset).
    public func beginFetch() throws(TodoStoreError) {
        if let keyColumns {
            pendingFetch = (try repository.cursor(fetchRequest, columns: keyColumns), makeResults())
            pendingKeys = makeKeyResults()
        } else {
            pendingFetch = (try repository.cursor(fetchRequest), makeResults())
        }
    }

    /// True between ``beginFetch()`` and the ``continueFetch(rows:)`` that completes it.
    public var isFetching: Bool { pendingFetch != nil }

    /// Reads up to `rows` more todos of the fetch ``beginFetch()`` started. Returns true from
    /// the call that reads the last todo (and after): the results are then replaced, as
    /// ``performFetch()`` would, and observing starts. Sends no notification. An error ends
    /// the fetch; the results stay as they were.
    @discardableResult
    public func continueFetch(rows: Int) throws(TodoStoreError) -> Bool {
        guard var fetch = pendingFetch else { return true }
        pendingFetch = nil
        if var keys = pendingKeys {
            pendingKeys = nil
            var slice: [Todo] = []
            let complete = try fetch.cursor.read(upTo: rows, into: &slice)
            if fetch.cursor.wasRestarted { slice.removeAll { keys.contains($0.id) } }
            keys.append(contentsOf: slice)
            guard complete else {
                pendingFetch = fetch
                pendingKeys = keys
                return false
            }
            try publishKeys(keys, checkingChangesSince: fetch.cursor.startPosition)
            return true
        }
        // Taken out while reading so the snapshot is not copied on append. Each slice is
        // indexed as it comes, so completing the fetch costs nothing more.
        var slice: [Todo] = []
        let complete = try fetch.cursor.read(upTo: rows, into: &slice)
        if fetch.cursor.wasRestarted {
            // A todo changed between two snapshots may come again; the last slice re-reads it.
            slice.removeAll { fetch.results.contains(itemWithID: $0.id) }
        }
        fetch.results.append(contentsOf: slice)
        guard complete else {
            pendingFetch = fetch
            return false
        }
        try publish(fetch.results, checkingChangesSince: fetch.cursor.startPosition)
        return true
    }

    /// Publishes the results of a sliced fetch once every todo changed after `start` (while
    /// the slices were read, or since) is re-read, and takes the data version and the feed's
    /// position for ``processExternalChanges()`` to go on from.
    private func publish(_ results: TodoResultsSnapshot, checkingChangesSince start: TodoFeedPosition)
        throws(TodoStoreError)
    {
        // The version before the feed, the feed before the rows: a commit in between is read
        // again later, never missed.
        let version = try TodoStoreError.wrap { () throws(SQLiteError) in try repository.connection.dataVersion() }
        let completed: (results: TodoResultsSnapshot, position: TodoFeedPosition)
        if let patched = try patched(results, changedSince: start) {
            completed = patched
        } else {
            let position = try repository.feedPosition()
            completed = (makeResults(try repository.fetch(fetchRequest)), position)
        }
        try readLists()
        lastDataVersion = version
        feedPosition = completed.position
        adopt(completed.results)
    }

    /// ``publish(_:checkingChangesSince:)`` for key results.
    private func publishKeys(_ results: TodoKeyResults, checkingChangesSince start: TodoFeedPosition)
        throws(TodoStoreError)
    {
        let version = try TodoStoreError.wrap { () throws(SQLiteError) in try repository.connection.dataVersion() }
        var completed: (results: TodoKeyResults, position: TodoFeedPosition)?
        let limit = Self.incrementalLimit(forResultsOf: results.count)
        if case .changed(let ids, let position) = try repository.changedTodos(since: start, limit: limit) {
            if ids.isEmpty {
                completed = (results, position)
            } else if fetchRequest.limit == nil, fetchRequest.offset == 0,
                let patched = try patchedKeys(results, changing: ids)
            {
                completed = (patched, position)
            }
        }
        if completed == nil {
            let position = try repository.feedPosition()
            completed = (try fetchKeys(), position)
        }
        guard let completed else { return }
        try readLists()
        lastDataVersion = version
        feedPosition = completed.position
        adoptKeys(completed.results)
    }

    /// `results` with the todos `ids` re-read (their keys) and moved to their places; nil when
    /// they cannot be patched. O(k log n).
    private func patchedKeys(_ results: TodoKeyResults, changing ids: Set<Int64>) throws(TodoStoreError)
        -> TodoKeyResults?
    {
        guard let keyColumns else { return nil }
        let fresh = ids.isEmpty ? [:] : try repository.fetchKeys(fetchRequest, ids: ids, columns: keyColumns)
        var changes: [Int64: Todo?] = [:]
        for id in ids { changes.updateValue(fresh[id], forKey: id) }
        return results.applying(changes)
    }

    /// ``refresh(changed:)`` in ``Rows/keys(_:)``.
    private func refreshKeys(changed: Set<Int64>?) throws(TodoStoreError) -> Bool {
        let old = keyResults
        var update: (results: TodoKeyResults, changed: [Int64]?)?
        if !needsFullRefetch, let changed, changed.count <= incrementalLimit,
            fetchRequest.limit == nil, fetchRequest.offset == 0,
            let patch = try patchedKeys(old, changing: changed)
        {
            // Only the todos among the results, before or after.
            update = (patch, changed.filter { old.contains($0) || patch.contains($0) }.sorted())
        }
        if update == nil {
            feedPosition = try repository.feedPosition()
            let results = try fetchKeys()
            refetches += 1
            update = (results, nil)
        }
        guard let update else { return false }
        needsFullRefetch = false
        lastRefreshError = nil
        if update.changed?.isEmpty == true { return false }
        keyResults = update.results
        let repository = self.repository
        let tree = try keyTreeState.update(from: old, to: update.results, changed: update.changed) {
            (ids) throws(TodoStoreError) in try repository.childIDs(of: ids)
        }
        let batch = TodoKeyBatch(previous: old, results: update.results, changed: update.changed, tree: tree)
        notifying { delegate?.controller(self, didChangeKeysWith: batch) }
        return true
    }

    /// `results` with every todo the change feed lists after `start` re-read, and the feed's
    /// position after them; nil when they must be read whole instead: more changes than
    /// ``incrementalLimit`` or a feed pruned past `start`, or any change at all to a request
    /// with a limit or an offset (a todo entering or leaving the window moves others), or
    /// results out of the comparator's order.
    private func patched(_ results: TodoResultsSnapshot, changedSince start: TodoFeedPosition) throws(TodoStoreError)
        -> (results: TodoResultsSnapshot, position: TodoFeedPosition)?
    {
        let limit = Self.incrementalLimit(forResultsOf: results.numberOfItems)
        guard case .changed(let ids, let position) = try repository.changedTodos(since: start, limit: limit) else {
            return nil
        }
        if ids.isEmpty { return (results, position) }
        guard fetchRequest.limit == nil, fetchRequest.offset == 0,
            let patch = try patched(results, changing: ids)
        else { return nil }
        return (patch.results, position)
    }

    /// Brings the results up to date if another connection committed since the last look (the
    /// todos the change feed names re-read and patched in, or a refetch past
    /// ``incrementalLimit``); notifies if the results changed. Returns whether they did.
    ///
    /// Call it whenever the database file may have changed; when nothing was committed it
    /// costs one `PRAGMA data_version` and no disk access.
    ///
    /// It also looks at the file (one `stat`): a replaced file is opened, with the checks a
    /// first open makes, and the whole difference to it reported; a deleted one throws
    /// `TodoStoreError.databaseMissing(path:)` and the results stay as they were.
    ///
    /// Returns false at once, doing nothing, in two cases: during a sliced fetch (its last
    /// slice brings in every commit made meanwhile), and from inside a delegate callback,
    /// where it runs once the current batch has been told (a failure then goes to
    /// ``FetchedResultsControllerDelegate/controller(_:didFailToRefreshWith:)``).
    @discardableResult
    public func processExternalChanges() throws(TodoStoreError) -> Bool {
        guard !isNotifying else {
            queuedWork.append(.externalChanges)
            return false
        }
        guard pendingFetch == nil else { return false }
        switch repository.fileState() {
        case .unchanged: break
        case .missing: throw .databaseMissing(path: repository.connection.path)
        case .replaced: return try follow(try repository.reopened())
        }
        let version = try TodoStoreError.wrap { () throws(SQLiteError) in try repository.connection.dataVersion() }
        guard version != lastDataVersion else { return false }
        lastDataVersion = version
        do {
            // The lists before the todos: a grouping by list is rebuilt before they are placed.
            try refreshLists()
            // The feed says which todos changed; past the limit (or pruned past us), refetch.
            guard let position = feedPosition, !needsFullRefetch else { return try refresh() }
            switch try repository.changedTodos(since: position, limit: incrementalLimit) {
            case .changed(let ids, let newPosition):
                feedPosition = newPosition
                // Another table (the undo history, say) or nothing we show: nothing to do.
                guard !ids.isEmpty else { return false }
                return try refresh(changed: ids)
            case .tooMuch:
                return try refresh()  // which reads the feed's position before the rows
            }
        } catch {
            // The version and position already moved past what failed: make the next call
            // look again and read everything, so the failed change is not skipped.
            lastDataVersion = nil
            listFeedSeq = nil
            needsFullRefetch = true
            lastRefreshError = error
            throw error
        }
    }

    /// A stream of change batches, one per committed transaction that changed the results.
    ///
    /// Batches are produced on the controller's thread; under a burst a slow consumer may see
    /// them coalesced (the newest is always delivered last, and it equals the database). The
    /// stream finishes when the controller is released.
    public func batches(bufferingNewest limit: Int = 64) -> AsyncStream<FetchedResultsBatch> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: FetchedResultsBatch.self,
            bufferingPolicy: .bufferingNewest(limit))
        continuations.append(continuation)
        return stream
    }

    // MARK: Internals

    /// Switches to `replacement` (the file now at the path) and reports the difference.
    private func follow(_ replacement: TodoRepository) throws(TodoStoreError) -> Bool {
        if let observerToken { repository.connection.removeCommitObserver(observerToken) }
        observerToken = nil
        repository = replacement
        needsFullRefetch = true
        feedPosition = nil
        listFeedSeq = nil
        observeCommits()
        lastDataVersion = try TodoStoreError.wrap { () throws(SQLiteError) in try replacement.connection.dataVersion() }
        do {
            try refreshLists()
            return try refresh()
        } catch {
            lastDataVersion = nil  // so the next call reads the new file whole
            lastRefreshError = error
            throw error
        }
    }

    /// Brings the results up to date (patching in the `changed` todos when that is possible,
    /// refetching otherwise) and notifies when anything changed. `changed` nil means "unknown".
    @discardableResult
    private func refresh(changed: Set<Int64>? = nil) throws(TodoStoreError) -> Bool {
        if keyColumns != nil { return try refreshKeys(changed: changed) }
        let old = snapshot
        let update: (results: TodoResultsSnapshot, difference: SnapshotDifference<String, Todo>?)
        // The todos that may differ, for the tree; nil: unknown.
        let ids: [Int64]?
        if !needsFullRefetch, let changed, changed.count <= incrementalLimit,
            fetchRequest.limit == nil, fetchRequest.offset == 0,
            let patch = try patched(old, changing: changed)
        {
            update = patch
            ids = Array(changed)
        } else {
            // Read before the rows, so a commit in between is read again later, never missed.
            feedPosition = try repository.feedPosition()
            let results = makeResults(try repository.fetch(fetchRequest))
            refetches += 1
            ids = results.changedIdentifiers(from: old)
            update = (results, ids.flatMap { results.difference(from: old, changed: $0) })
        }
        needsFullRefetch = false
        lastRefreshError = nil
        snapshot = update.results
        let tree = treeState.update(from: old, to: update.results, changed: ids)
        // Results out of the order the comparator expects (see `SortedSnapshot`) are diffed whole.
        let difference = update.difference ?? update.results.snapshot.difference(from: old.snapshot)
        guard !difference.isEmpty else { return false }
        notify(FetchedResultsBatch(previous: old, snapshot: update.results, difference: difference, tree: tree))
        return true
    }

    /// `results` with the todos `ids` re-read and moved to their places, and the difference
    /// derived from them; nil when the results cannot be patched (not in the order the
    /// comparator expects: say, a deadline another tool wrote in a form we do not parse), and
    /// the caller refetches. O(k log n) for k ids.
    private func patched(_ results: TodoResultsSnapshot, changing ids: Set<Int64>) throws(TodoStoreError)
        -> (results: TodoResultsSnapshot, difference: SnapshotDifference<String, Todo>?)?
    {
        let fresh = ids.isEmpty ? [:] : try repository.fetch(fetchRequest, ids: ids)
        var changes: [Int64: Todo?] = [:]
        // `updateValue`, not the subscript: assigning nil through it would drop the key, and a
        // todo that left the results must be kept as "now absent".
        for id in ids { changes.updateValue(fresh[id], forKey: id) }
        guard let patched = results.applying(changes) else { return nil }
        return (patched, patched.difference(from: results, changed: ids))
    }

    /// Tells the streams and the delegate about `batch`, then does what arrived meanwhile, in
    /// order (each of which may tell a batch of its own, after this one).
    private func notify(_ batch: FetchedResultsBatch) {
        notifying { tell(batch) }
    }

    /// Runs `tell` (which tells the streams and the delegate something), then does what
    /// arrived meanwhile, in order.
    private func notifying(_ tell: () -> Void) {
        isNotifying = true
        tell()
        isNotifying = false
        while !queuedWork.isEmpty {
            switch queuedWork.removeFirst() {
            case .lists:
                refreshListsReportingFailure()
            case .commit(let changed):
                refreshReportingFailure(changed: changed)
            case .externalChanges:
                do {
                    try processExternalChanges()
                } catch {
                    lastRefreshError = error
                    delegate?.controller(self, didFailToRefreshWith: error)
                }
            }
        }
    }

    private func tell(_ batch: FetchedResultsBatch) {
        continuations.removeAll { continuation in
            if case .terminated = continuation.yield(batch) { return true }
            return false
        }
        guard let delegate else { return }
        let difference = batch.difference
        delegate.controllerWillChangeContent(self)
        for change in difference.sectionDeletes {
            delegate.controller(
                self, didChangeSection: change.id, atSectionIndex: change.from, for: .delete, newSectionIndex: nil)
        }
        for change in difference.sectionInserts {
            delegate.controller(
                self, didChangeSection: change.id, atSectionIndex: nil, for: .insert, newSectionIndex: change.to)
        }
        for change in difference.sectionMoves {
            delegate.controller(
                self, didChangeSection: change.id, atSectionIndex: change.from, for: .move, newSectionIndex: change.to)
        }
        for change in difference.itemDeletes {
            delegate.controller(
                self, didChange: batch.previous.item(at: change.from), at: change.from, for: .delete, newIndexPath: nil)
        }
        for change in difference.itemInserts {
            delegate.controller(self, didChange: change.item, at: nil, for: .insert, newIndexPath: change.to)
        }
        for change in difference.itemMoves {
            delegate.controller(self, didChange: change.item, at: change.from, for: .move, newIndexPath: change.to)
        }
        for change in difference.itemUpdates {
            delegate.controller(self, didChange: change.item, at: change.from, for: .update, newIndexPath: change.to)
        }
        delegate.controllerDidChangeContent(self)
        delegate.controller(self, didChangeContentWith: batch)
    }
}
