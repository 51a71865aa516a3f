import TodoObservation
import TodoSnapshot
import TodoStore

#if canImport(Glibc)
    import CMalloc
    import Glibc
#endif

/// `todo ui`'s screen, the way the sample app's view controller works: the fetched-results
/// controller reports each committed change with its diff, the list regroups the results
/// (keeping the outline's expansion state), the diff says which rows to render again, and the
/// screen rewrites only the lines whose text changed.
///
/// Complexity: a change of k todos costs O(k log n), whatever the size of the list: the
/// controller patches its snapshot and derives the difference from the changed todos, and the
/// list patches its groups from that difference (see `UIList`); drawing costs the window. With
/// subtasks, "All" is the controller's tree, patched by the controller as it patches its results
/// (see `FetchedResultsController`), and each change finds the folded runs again (`UIList`).
///
/// Threading: everything runs on the thread that calls ``run(_:)``; other threads only post to
/// ``UIEvents``. The controller's delegate callbacks come on this thread too: synchronously
/// from our own writes (commit hooks) and from ``FetchedResultsController/processExternalChanges()``.
/// That thread owns ``lists`` and the grouping by list built from them: a change to the lists,
/// by any program, comes as ``controller(_:didChangeLists:)`` before the batch of its commit,
/// and re-titles the groups (see ``adopt(lists:)``).
final class UIApp: FetchedResultsControllerDelegate {
    /// The controller's: it follows a replaced database file, and writes must go there too.
    var repository: TodoRepository { controller.repository }
    let databasePath: String
    let today: CalendarDate
    /// Replaced on a new sort or filter (see UIApp+Filter.swift). It keeps the todos' keys
    /// (``FetchedResultsController/Rows/keys(_:)``): the rows shown are read by id
    /// (``rowSource``), so a list of a million todos holds a few tens of bytes a todo.
    var controller: FetchedResultsController
    /// The extra fields the keys carry, for the outline's grouping (tags, projects).
    let keyColumns: TodoKeyColumns
    /// The rows of the todos shown, read by id and kept while they do not change.
    let rowSource: UIRowSource
    var list: UIList
    var state: UIState
    var renderer: UIRenderer
    private(set) var screen = Screen()
    private var keys = KeyDecoder()
    private(set) var size: (columns: Int, rows: Int)

    /// Every list, in display order: the controller's (``FetchedResultsController/lists``),
    /// what `l` cycles through, `m` moves to, and the header and rows name.
    private(set) var lists: [TodoList] = []
    /// Whether the outline's groups are the lists (`--by list`), rebuilt when they change.
    let groupsByList: Bool
    /// The names rows give their list for a request (`todo list`'s rule, the command's:
    /// ``CommandContext/text(for:in:)``), nil where they name none.
    let rowListNames: (TodoFetchRequest, TodoRepository) throws(TodoStoreError) -> [Int64: String]?

    /// True while ``list`` is the first screen only (see ``init``); ``run(_:)`` loads the rest
    /// in slices between events, so keys are read, and mostly handled, during the load.
    private(set) var showsPreview = false
    /// The number of todos the preview holds (the lines after the "All" header).
    private var previewTodos = 0
    /// Keys that need the whole list, pressed while it loads; handled when it is in.
    private var deferredKeys: [Key] = []
    /// For each read of keys, the time from the read to its frame drawn (see ``keyStatsLine``).
    private var keyLatencies: [Duration] = []

    // The filter prompt (UIApp+Filter.swift).
    /// The filter text's narrowing of the controller's results, when the list shows one.
    var narrowing: UINarrowing?
    /// The controller's list, kept patched while ``list`` shows a narrowing of it.
    var unnarrowedList: UIList?
    /// The names of the controller's results, for the filter; dropped when they change.
    var nameIndex: UINameIndex?
    /// Filter text typed but not applied yet: the keys of one read are applied together.
    var filterPending = false
    /// The narrowings shown since the name index was built, the latest last, each with its
    /// list: a text typed again (a Backspace back to it) is shown without a scan or a
    /// regrouping, and a new one is narrowed from the fewest todos that contain it.
    var filterHistory: [(narrowing: UINarrowing, list: UIList)] = []
    /// How many ``filterHistory`` keeps.
    static let filterHistoryKept = 24

    /// Fetches the list, or only its first screen when that is enough for a correct first
    /// frame; nothing is drawn before ``run(_:)``.
    ///
    /// Why a preview: fetching and indexing a long list takes longer than the first frame may
    /// wait (scripts/bench's `ui_first_frame` goal), while the first frame needs only a
    /// screenful and the total. Limited to the unfiltered list, where the total is a cheap count
    /// and the id column's width (the largest id) is the table's.
    init(
        repository: TodoRepository, request: TodoFetchRequest, style: TextStyle, today: CalendarDate,
        dueTimes: DueTimeConverter = DueTimeConverter(), databasePath: String,
        grouping: TodoGrouping<Todo> = .byDoneState, groupsByList: Bool = false,
        keyExtra: TodoKeyColumns.Extra = [],
        rowListNames: @escaping (TodoFetchRequest, TodoRepository) throws(TodoStoreError) -> [Int64: String]? = {
            _, _ in nil
        }
    ) throws(TodoStoreError) {
        self.databasePath = databasePath
        self.today = today
        self.groupsByList = groupsByList
        self.rowListNames = rowListNames
        keyColumns = TodoKeyColumns(extra: keyExtra)
        rowSource = UIRowSource(repository: repository)
        controller = FetchedResultsController(repository: repository, fetchRequest: request, rows: .keys(keyColumns))
        state = UIState(order: request.order, searches: request.searches)
        state.lists = request.lists
        size = TerminalMode.size()
        renderer = UIRenderer(style: style, today: today, dueTimes: dueTimes)
        let sections = UIStateFile.loadSections()
        let screenful = max(size.rows, 1)
        // Hiding the todos not started yet (the default) leaves it unfiltered: those are counted
        // from their own small index and taken off.
        // Every condition counts, from the request itself (--project, --list and --blocked too).
        let unfiltered = request.hasNoConditionButStart
        var total = 0
        if unfiltered, request.limit == nil, request.offset == 0 {
            total = try repository.count()
            if let today = request.startedBy { total -= try repository.count(.waiting(after: today)) }
        }
        // The preview is the head of the "All" section: it cannot fill the outline's groups. With
        // subtasks, the head of the tree (``treeHead(of:in:rows:)``), when it is found cheaply.
        var treeHead: [TodoTreeRow]?
        let hasSubtasks = try repository.hasSubtasks()
        if total > screenful, sections.showsAll, hasSubtasks {
            treeHead = try Self.treeHead(of: request, in: repository, rows: screenful)
        }
        if total > screenful, sections.showsAll, !hasSubtasks || treeHead != nil {
            var first = request
            first.limit = screenful
            let head: [Todo]
            if let treeHead {
                head = treeHead.map(\.todo).sorted { request.order.areInIncreasingOrder($0, $1) }
            } else {
                head = try repository.fetch(first)
            }
            list = UIList(
                TodoResultsSnapshot(order: request.order, todos: head), order: request.order, grouping: grouping,
                sections: sections, previewTotal: total,
                tree: treeHead.map { TodoTreeSnapshot(order: request.order, rows: $0) })
            renderer.configure(
                columns: size.columns, maxID: try repository.maxID(), timesAsked: try repository.hasDueTimes(request))
            showsPreview = true
            previewTodos = head.count
        } else {
            try controller.performFetch()
            list = UIList(
                keys: controller.keyResults, tree: controller.keyTree, rows: rowSource, grouping: grouping,
                sections: sections)
            renderer.configure(
                columns: size.columns, maxID: controller.keyResults.ids.max() ?? 1,
                timesAsked: try repository.hasDueTimes(request))
            Self.releaseFreedMemory()
        }
        controller.delegate = self
        renderer.outlineNamesLists = !groupsByList
        // The lists read with the results (the preview's: read now; the load's end reads them
        // again): a change since the grouping was made is in them.
        adopt(lists: showsPreview ? try repository.lists() : controller.lists)
        // The cursor starts on the first todo (or the "Undone" row of an empty list).
        state.place(at: 1, in: list)
    }

    /// The first `rows` rows of the tree of `request`'s todos (the tree rule, `TodoOutline`),
    /// read without reading the list: its todos in order until `rows` top-level ones are found
    /// (a todo whose parent the request does not select, or in another list), each followed
    /// by its subtasks, depth first, siblings in order. Nil when that takes more than a few
    /// screens of todos (most of the first todos in order under parents further on): the
    /// whole list is read then. A loop (a damaged file) may leave its todos out of the head;
    /// the whole list replaces the head before any key acts on it.
    static func treeHead(of request: TodoFetchRequest, in repository: TodoRepository, rows: Int)
        throws(TodoStoreError) -> [TodoTreeRow]?
    {
        var first = request
        first.limit = rows * 8
        let candidates = try repository.fetch(first)
        var head: [TodoTreeRow] = []
        func shown(_ ids: [Int64]) throws(TodoStoreError) -> [Todo] {
            Array(try repository.fetch(request, ids: ids).values)
        }
        func add(_ todo: Todo, under above: [Todo]) throws(TodoStoreError) {
            guard head.count < rows else { return }
            head.append(TodoTreeRow(todo: todo, ancestors: above))
            // A loop has nothing below it to show in a head.
            guard above.count < 32, !above.contains(where: { $0.id == todo.id }) else { return }
            let children = try shown(try repository.childIDs(of: [todo.id]))
                .filter { $0.listID == todo.listID && $0.id != todo.id }
                .sorted { request.order.areInIncreasingOrder($0, $1) }
            for child in children where head.count < rows { try add(child, under: above + [todo]) }
        }
        for todo in candidates where head.count < rows {
            if let parentID = todo.parentID, parentID != todo.id,
                let parent = try shown([parentID]).first, parent.listID == todo.listID
            {
                continue
            }
            try add(todo, under: [])
        }
        return head.count == rows ? head : nil
    }

    /// Todos read per event-loop iteration while the whole list loads behind the preview: keys
    /// are read between two slices, so a key waits at most for one slice, a small part of the
    /// whole load.
    static let loadSlice = 5_000

    /// Reads the next slice of the whole list; after the last one, replaces the preview with
    /// it (cursor kept by id), catches up with commits made meanwhile, and handles the keys
    /// that waited for it.
    private func loadSlice() {
        do {
            guard try controller.continueFetch(rows: Self.loadSlice) else { return }
        } catch {
            state.say(CLIError(error, path: databasePath).message, error: true)
            finishLoading()
            return
        }
        renderer.invalidateAll()
        // The preview is only used unfiltered, so the table's largest id is the list's (or a
        // hidden todo's, not started yet: a column too wide, never too narrow); reading it is
        // one B-tree seek where scanning a copy of the results is a pass over every todo.
        let maxID = (try? repository.maxID()) ?? controller.keyResults.ids.max() ?? 1
        rebuild(maxID: max(renderer.maxIDSeen, maxID))
        // What the load read and dropped goes back to the system, so the process holds what
        // the list keeps (glibc keeps freed memory for reuse otherwise).
        Self.releaseFreedMemory()
        adopt(lists: controller.lists)
        // Commits by other processes during the load: the controller diffs them in now, before
        // the waiting keys act on the list.
        processExternalChanges()
        finishLoading()
    }

    /// Gives what a whole read of the list allocated and dropped back to the system, so the
    /// process holds what the list keeps (glibc keeps freed memory for reuse otherwise).
    static func releaseFreedMemory() {
        #if canImport(Glibc)
            _ = malloc_trim(0)
        #endif
    }

    /// Leaves preview mode and handles the keys that were waiting for the whole list.
    func finishLoading() {
        showsPreview = false
        let waiting = deferredKeys
        deferredKeys = []
        for key in waiting where !state.quitting { handle(key) }
    }

    /// Handles `key` now if the preview can serve it exactly as the whole list would;
    /// otherwise queues it (and every key after it, to keep their order) for the load's end.
    private func handleDuringLoad(_ key: Key) {
        if deferredKeys.isEmpty, previewServes(key) {
            handle(key)
        } else {
            deferredKeys.append(key)
        }
    }

    /// Quitting, help, and cursor moves that stay inside the preview's todos; the rest
    /// (toggle, edit, sort, jumps to the end...) needs the whole list, or writes, which must
    /// wait until the load's read is done.
    private func previewServes(_ key: Key) -> Bool {
        switch state.mode {
        case .help: return true
        case .browsing: break
        default: return false
        }
        switch key {
        case .interrupt, .suspend, .character("q"), .character("?"): return true
        case .up, .character("k"): return state.cursor > 1
        // The preview's last todo is followed by more todos it does not have.
        case .down, .character("j"): return state.cursor < previewTodos
        default: return false
        }
    }

    /// Draws the list, then handles events until the session ends. Returns the signal that
    /// stopped it, if one did.
    func run(_ events: UIEvents) -> Int32? {
        render()
        if showsPreview {
            do {
                try controller.beginFetch()
            } catch {
                state.say(CLIError(error, path: databasePath).message, error: true)
                showsPreview = false
            }
        }
        while !state.quitting {
            // While loading, only look for events between slices; otherwise sleep until one.
            let loading = showsPreview
            let batch = loading ? events.poll() : events.next()
            let readAt = ContinuousClock.now
            if let signal = batch.stopSignal { return signal }
            if batch.resized { resize() }
            // Mid-load the controller defers these; the load's end catches up.
            if batch.databaseChanged, !loading { processExternalChanges() }
            for key in keys.decode(batch.bytes) {
                if showsPreview {
                    handleDuringLoad(key)
                } else {
                    handle(key)
                }
                if state.quitting { break }
            }
            if batch.inputClosed { state.quitting = true }
            if state.quitting { break }
            // The filter typed by this read's keys, once for all of them.
            applyPendingFilter()
            // Draw what the keys did before the next slice, so a key never waits for the load.
            if !batch.bytes.isEmpty || batch.resized || !loading { render() }
            if !batch.bytes.isEmpty, keyLatencies.count < Self.keyLatenciesKept {
                keyLatencies.append(ContinuousClock.now - readAt)
            }
            // With the frame out, while the user reads it: the filter's name index, so the
            // first key typed only scans it.
            prepareFilter()
            if showsPreview {
                loadSlice()
                if !showsPreview, !state.quitting { render() }
            }
            // Filter keys that waited for the load's end.
            if filterPending, !state.quitting {
                applyPendingFilter()
                render()
            }
        }
        return nil
    }

    /// How many reads ``keyStatsLine`` reports at most (the first ones).
    static let keyLatenciesKept = 10_000

    /// `key_us=T1,T2,...`, for `TODO_UI_STATS`: for each read of keys (one key, when they come
    /// one at a time), the microseconds from the read to its frame written, so a benchmark can
    /// tell the ui's own time for a key from the terminal's.
    var keyStatsLine: String {
        "key_us="
            + keyLatencies.map {
                String($0.components.seconds * 1_000_000 + $0.components.attoseconds / 1_000_000_000_000)
            }
            .joined(separator: ",") + "\n"
    }

    /// Picks up commits made by other processes (a no-op when there were none).
    func processExternalChanges() {
        do {
            try controller.processExternalChanges()
        } catch {
            state.say(CLIError(error, path: databasePath).message, error: true)
        }
    }

    /// Draws the current frame: only the lines that differ from the screen are written.
    func render() {
        // A resize may have made the help page shorter than where it was scrolled to.
        if case .help(let top) = state.mode { state.mode = .help(top: min(top, renderer.helpLastTop(rows: size.rows))) }
        state.scroll(height: renderer.listHeight(state: state, rows: size.rows), count: list.count)
        screen.draw(renderer.frame(list: list, state: state, rows: size.rows))
    }

    /// Re-reads the terminal's size; the next frame is a full repaint.
    func resize() {
        size = TerminalMode.size()
        renderer.configure(columns: size.columns, maxID: renderer.maxIDSeen)
        screen.invalidate()
    }

    // MARK: Changes from the controller

    func controller(_ controller: FetchedResultsController, didChangeKeysWith batch: TodoKeyBatch) {
        guard controller === self.controller else { return }
        rowSource.repository = controller.repository
        if let changed = batch.changed {
            renderer.invalidate(todos: changed)
            rowSource.forget(changed)
        } else {
            renderer.invalidateAll()
            rowSource.forgetAll()
        }
        renderer.configure(
            columns: size.columns, maxID: Self.maxID(after: batch, sizedFor: renderer.maxIDSeen),
            timesAsked: dueTimesListed())
        applyNarrowed(batch)
        state.follow(in: &list)
    }

    /// ``maxID(after:in:sizedFor:)`` for a batch of keys: grown by the todos that came, narrowed
    /// by a scan of the ids when one that went was as wide as the column (or the batch does not
    /// say which came and went).
    static func maxID(after batch: TodoKeyBatch, sizedFor current: Int64) -> Int64 {
        let width = String(current).count
        guard let changed = batch.changed else { return batch.results.ids.max() ?? 1 }
        let newest = changed.lazy.filter { batch.results.contains($0) }.max() ?? 1
        let wideGone = changed.contains { !batch.results.contains($0) && String($0).count >= width }
        guard wideGone else { return max(current, newest) }
        return batch.results.ids.max() ?? 1
    }

    /// The lists changed (any program renamed, recoloured, reordered, made or removed one): the
    /// groups by list are re-titled (or regrouped, when their order changed), the rows name
    /// the lists' new names, and the header too. Before the batch of the same commit.
    func controller(_ controller: FetchedResultsController, didChangeLists lists: [TodoList]) {
        guard controller === self.controller else { return }
        adopt(lists: lists)
    }

    /// Takes in the lists as they are now: the grouping by list (when the outline has one), in
    /// the list shown and in the controller's list under a filter, the names rows give their
    /// list, and the header's. The cursor stays on its row.
    func adopt(lists: [TodoList]) {
        self.lists = lists
        if groupsByList {
            list.regroup(by: .byList(lists))
            unnarrowedList?.regroup(by: .byList(lists))
        }
        refreshListNames()
        state.follow(in: &list)
    }

    /// What rows and the header say of the lists, for the request shown.
    func refreshListNames() {
        // Unreadable, the rows name no list rather than stale ones. With one list (most
        // databases) there is nothing to name, and the rule's reads are not made.
        renderer.listNames = lists.count > 1 ? try? rowListNames(controller.fetchRequest, repository) : nil
        renderer.shownLists = shownListNames.map {
            (controller.fetchRequest.lists.count == 1 ? "list: " : "lists: ") + $0
        }
    }

    /// The names of the lists shown, made safe (`Groceries`, `Home, Work`); nil for every list.
    var shownListNames: String? {
        let ids = controller.fetchRequest.lists
        guard !ids.isEmpty else { return nil }
        return ids.map { id in TodoText.sanitized(lists.first { $0.id == id }?.name ?? "#\(id)") }
            .joined(separator: ", ")
    }

    /// The largest id after a change, for the id column's width: grown by inserts at once, and
    /// narrowed when the todos that needed the width are gone. That costs a scan of the list,
    /// so it is only done when a deleted todo had an id as wide as the column.
    static func maxID(
        after difference: SnapshotDifference<String, Todo>, in results: TodoResultsSnapshot,
        sizedFor current: Int64
    ) -> Int64 {
        let newest = difference.itemInserts.lazy.map(\.item.id).max() ?? 1
        let width = String(current).count
        guard difference.itemDeletes.contains(where: { String($0.id).count >= width }) else {
            return max(current, newest)
        }
        return (0..<results.numberOfSections).lazy.flatMap { results.list(inSection: $0) }.map(\.id).max() ?? 1
    }

    /// Whether a todo of the controller's results has a time of day (the time column): asked
    /// of the time index after each change, a few todos' worth, not the list's.
    private func dueTimesListed() -> Bool {
        (try? repository.hasDueTimes(controller.fetchRequest)) ?? renderer.timesAsked
    }

    /// Regroups the controller's results (after a fetch), keeping the expansion state, and puts
    /// the cursor back on its row. Rendered rows stay cached unless the caller invalidated them.
    func rebuild(maxID: Int64) {
        renderer.configure(columns: size.columns, maxID: maxID)
        rowSource.repository = controller.repository
        rowSource.forgetAll()
        list = UIList(
            keys: controller.keyResults, tree: controller.keyTree, rows: rowSource, grouping: list.grouping,
            collapsed: list.collapsedGroups, sections: list.sections, folded: list.folded)
        state.follow(in: &list)
    }

    /// Replaces the controller with one for the current sort and filter.
    func refetch() {
        var request = controller.fetchRequest
        request.order = state.order
        request.searches = state.searches
        request.lists = state.lists
        let replacement = FetchedResultsController(
            repository: repository, fetchRequest: request, rows: .keys(keyColumns))
        do {
            try replacement.performFetch()
        } catch {
            state.say(CLIError(error, path: databasePath).message, error: true)
            return
        }
        replacement.delegate = self
        controller = replacement
        // The lists as read with these results; the rows' names for this request.
        lists = replacement.lists
        if groupsByList { list.regroup(by: .byList(lists)) }
        refreshListNames()
        narrowing = nil
        unnarrowedList = nil
        nameIndex = nil
        filterHistory = []
        // Another order or filter: every line may differ.
        renderer.invalidateAll()
        renderer.configure(columns: size.columns, maxID: renderer.maxIDSeen, timesAsked: dueTimesListed())
        rebuild(maxID: max(renderer.maxIDSeen, replacement.keyResults.ids.max() ?? 1))
    }

    /// Runs a change inside an undo record; a failure becomes the footer's message.
    @discardableResult
    func change<Result>(_ command: String, _ body: () throws(TodoStoreError) -> Result) -> Result? {
        do {
            return try repository.recordingUndo(command, body)
        } catch {
            state.say(CLIError(error, path: databasePath).message, error: true)
            return nil
        }
    }
}
