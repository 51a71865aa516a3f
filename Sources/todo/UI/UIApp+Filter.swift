import TodoObservation
import TodoSnapshot
import TodoStore

/// The filter prompt: the list narrows as the text is typed, Enter keeps the filter, Esc puts
/// back the list `/` found.
///
/// Why not a refetch per key: the search is SQL (`todo_matches` over every name, in the
/// list's order through the deadline index), ~65 ms at 100,000 todos whatever it finds, and
/// reading a whole list back costs ~150 ms more; a key must show its list within a frame
/// (16 ms). So:
/// - text that extends the shown filter (the usual typing) narrows the list in memory: the
///   new results are the shown ones whose names contain the new text, by the store's own
///   rule (``TodoSearch/matches(name:foldedNeedle:)``, the function SQL's `todo_matches` calls);
/// - back to the text `/` found (Esc, or erasing what was typed): its controller comes back
///   and catches up on the commits made meanwhile (the change feed says which);
/// - an erased character narrows the list `/` found instead, when the text still extends the
///   one `/` found (it always does when `/` found no filter);
/// - any other change (erasing beyond the text `/` found) refetches (SQL).
/// After a narrowing, the controller for the new filter reads its results in slices between
/// keys (the first load's machinery), so the list is live again once they are in.
extension UIApp {
    /// Rows read per event-loop iteration while a filter's results load: ~5 ms.
    static let filterLoadSlice = 2_500

    func performFilter(_ step: UIEffect.FilterStep) {
        switch step {
        case .typed:
            filterPending = true
        case .kept:
            applyPendingFilter()
            filterOrigin = nil
            state.say(state.search.map { "\(list.todoCount) matching \"\(TodoText.sanitized($0))\"" } ?? "Filter cleared")
        case .cancelled:
            filterPending = true
            applyPendingFilter()
            filterOrigin = nil
        }
    }

    /// Makes the list show ``UIState/search`` (see the type's comment for how).
    func applyPendingFilter() {
        guard filterPending else { return }
        filterPending = false
        let search = state.search
        guard search != shownSearch else { return }
        if filterOrigin == nil, !loadingFilter { filterOrigin = (shownSearch, controller) }
        var request = controller.fetchRequest
        request.search = search
        request.order = state.order
        if let origin = filterOrigin, origin.search == search, !origin.controller.isFetching,
           origin.controller.fetchRequest == request {
            restore(origin.controller)
        } else if let narrowed = narrowed(to: request) {
            show(narrowed, loading: request)
        } else {
            refetch()
        }
    }

    /// Puts back a live controller (the one `/` found): its results, and the commits it has
    /// not looked at yet.
    private func restore(_ original: FetchedResultsController) {
        controller = original
        controller.delegate = self
        loadingFilter = false
        shownSearch = original.fetchRequest.search
        renderer.invalidateAll()
        rebuild(from: original.snapshot, maxID: renderer.maxIDSeen)
        processExternalChanges()
    }

    /// The todos that `request`'s search selects, in order, found in memory; nil when they may
    /// include todos neither list at hand holds. Typing (the new text extends the shown one)
    /// narrows the shown list; erasing back towards the text `/` found narrows the list `/` found
    /// (its controller catches up on commits first), so most keys never reach SQL. The match is
    /// the store's own rule (``TodoSearch``), so the rows are those a fetch would give.
    private func narrowed(to request: TodoFetchRequest) -> [Todo]? {
        guard let search = request.search else { return nil }
        var needle = TodoSearch.fold(search)
        func extends(_ text: String?) -> Bool { text.map { needle.contains(TodoSearch.fold($0)) } ?? true }
        let source: TodoResultsSnapshot
        if extends(shownSearch) {
            source = list.results
        } else if let origin = filterOrigin, extends(origin.search), !origin.controller.isFetching,
                  sameRequest(origin.controller.fetchRequest, request) {
            do { try origin.controller.processExternalChanges() } catch { return nil }
            source = origin.controller.snapshot
        } else {
            return nil
        }
        guard source.numberOfSections > 0 else { return [] }
        return needle.withUTF8 { needleBytes in
            source.list(inSection: 0).filter { todo in
                var name = todo.name
                return name.withUTF8 { TodoSearch.matches(name: $0, foldedNeedle: needleBytes) }
            }
        }
    }

    /// Whether two requests differ at most in their search text.
    private func sameRequest(_ one: TodoFetchRequest, _ other: TodoFetchRequest) -> Bool {
        var one = one
        one.search = other.search
        return one == other
    }

    /// Shows `todos` (exact, not yet live) and starts reading `request`'s results behind them.
    private func show(_ todos: [Todo], loading request: TodoFetchRequest) {
        let loader = FetchedResultsController(repository: repository, fetchRequest: request)
        do {
            try loader.beginFetch()
        } catch {
            state.say(CLIError(error, path: databasePath).message, error: true)
            return
        }
        // The origin's controller stays (for Esc); any other is dropped.
        controller = loader
        loadingFilter = true
        shownSearch = request.search
        // The same todos: only the header's filter text changes.
        guard todos.count != list.todoCount else { return }
        list = UIList(TodoResultsSnapshot(order: request.order, todos: todos), order: request.order,
                      expanded: list.expandedGroups)
        state.follow(in: &list)
    }

    /// Reads the next slice of the filter's results; after the last, the list is the
    /// controller's (live), with the commits made meanwhile.
    func loadFilterSlice() {
        do {
            guard try controller.continueFetch(rows: Self.filterLoadSlice) else { return }
        } catch {
            state.say(CLIError(error, path: databasePath).message, error: true)
            finishLoading()
            return
        }
        controller.delegate = self
        // Rows changed by commits the narrowed list never saw are drawn again.
        renderer.invalidateAll()
        rebuild(from: controller.snapshot, maxID: renderer.maxIDSeen)
        processExternalChanges()
        finishLoading()
    }
}
