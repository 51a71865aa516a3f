import TodoObservation
import TodoSnapshot
import TodoStore

/// The filter prompt: the list narrows as the text is typed, Enter keeps the filter, Esc puts
/// back the list `/` found.
///
/// Why not a fetch per key: the search is SQL (`todo_matches` over every name, in the list's
/// order through the deadline index), a pass over the whole table whatever it finds, and
/// reading the results back costs more; on a long list that takes longer than a frame (16 ms),
/// within which a key must show its list. So the controller keeps the results of the search it
/// fetched, and while the filter text extends that search (always, when it fetched none), the
/// list shows a ``UINarrowing`` of them: the todos whose names, tags or notes contain every word of
/// the text, by the store's own rule, found in memory:
/// - typing (the text extends the shown one) narrows the shown narrowing;
/// - erasing narrows the controller's results again;
/// - back to the controller's own search (Esc, or erasing what was typed), the list is the
///   controller's, kept patched meanwhile;
/// - only a text that does not extend the controller's search (erasing beyond the text `/`
///   found, when it found one) fetches, as a new sort does.
/// A narrowing stays live after Enter: the controller's batches are narrowed and patched in
/// (``UINarrowing/apply(_:order:)``), so the list follows other processes' commits as the
/// controller does.
extension UIApp {
    func performFilter(_ step: UIEffect.FilterStep) {
        switch step {
        case .typed, .cancelled:
            filterPending = true
            // Esc's list now: its keys may be followed by more in the same read.
            if step == .cancelled { applyPendingFilter() }
        case .kept:
            applyPendingFilter()
            state.say(
                state.searches.isEmpty
                    ? "Filter cleared" : "\(list.todoCount) matching \"\(TodoText.sanitized(state.filterText))\"")
        }
    }

    /// The filter terms the list shows: its narrowing's, else the controller's search.
    var shownSearches: [String] { narrowing?.searches ?? controller.fetchRequest.searches }

    /// Makes the list show ``UIState/searches`` (see the extension's comment for how).
    func applyPendingFilter() {
        guard filterPending else { return }
        filterPending = false
        let searches = state.searches
        guard searches != shownSearches else { return }
        let fetched = controller.fetchRequest.searches.map(TodoSearch.fold)
        let folded = searches.map(TodoSearch.fold)
        if folded == fetched {
            showControllerResults()
        } else if !searches.isEmpty, UINarrowing.terms(folded, narrow: fetched) {
            narrow(to: searches, folded: folded)
        } else {
            refetch()
        }
    }

    /// Builds the name index while the filter prompt is open and the index is missing (not
    /// built yet, or dropped by a change): a pass over every todo, spent between keys (after a
    /// frame is drawn) instead of in the first key typed.
    func prepareFilter() {
        guard nameIndex == nil, !showsPreview, case .prompt(let prompt) = state.mode, case .filter = prompt.purpose
        else { return }
        nameIndex = makeNameIndex()
        filterHistory = []
    }

    /// The name index of the controller's results, read from the database.
    func makeNameIndex() -> UINameIndex {
        UINameIndex(keys: controller.keyResults, repository: repository, request: controller.fetchRequest)
    }

    /// Shows the todos of the controller's results whose names, tags or notes contain every one of
    /// `searches`: found among the shown narrowing's when these terms narrow its own, else among
    /// all of them.
    private func narrow(to searches: [String], folded: [String]) {
        let order = controller.fetchRequest.order
        if nameIndex == nil { filterHistory = [] }
        let index = nameIndex ?? makeNameIndex()
        nameIndex = index
        let collapsed = list.collapsedGroups
        let sections = list.sections
        if narrowing == nil { unnarrowedList = list }
        // The same terms shown before (since the index was built): their narrowing and list.
        if let seen = filterHistory.last(where: { $0.narrowing.foldedSearches == folded }) {
            list = listShown(for: seen.narrowing)
            list.collapsedGroups = collapsed
            list.sections = sections
            narrowing = seen.narrowing
            return state.follow(in: &list)
        }
        // Else narrowed from the fewest todos known to contain these terms.
        let from = ([narrowing].compactMap { $0 } + filterHistory.map(\.narrowing))
            .filter { $0.positions != nil && $0.isNarrowed(by: folded) }
            .min { ($0.positions?.count ?? .max) < ($1.positions?.count ?? .max) }
        let narrowed = UINarrowing(searches: searches, folded: folded, in: index, narrowing: from, order: order)
        switch narrowed.outcome {
        case .everything:
            // Nothing left out: the controller's list is the answer (no copy, no regrouping).
            list = unnarrowedList ?? list
            list.collapsedGroups = collapsed
        case .unchanged:
            if let from, from.foldedSearches != narrowing?.foldedSearches {
                list = listShown(for: from)
                list.collapsedGroups = collapsed
                list.sections = sections
            }
        case .fewer:
            // The groups of the list narrowed from, filtered: no todo grouped again, and only
            // the todos that list holds looked at (all of them, from the controller's list).
            list = listShown(for: from).narrowed(to: narrowed.list)
            list.collapsedGroups = collapsed
            list.sections = sections
        }
        filterHistory.append((narrowed, list))
        if filterHistory.count > Self.filterHistoryKept { filterHistory.removeFirst() }
        narrowing = narrowed
        state.follow(in: &list)
    }

    /// The list shown for `narrowing`, one of ``filterHistory``'s (the controller's for nil, or
    /// one that left nothing out).
    private func listShown(for narrowing: UINarrowing?) -> UIList {
        let unnarrowed = unnarrowedList ?? list
        guard let narrowing, narrowing.outcome != .everything,
            let shown = filterHistory.last(where: { $0.narrowing.foldedSearches == narrowing.foldedSearches })
        else { return unnarrowed }
        return shown.list
    }

    /// Shows the controller's results again (kept up to date under the narrowing).
    private func showControllerResults() {
        guard narrowing != nil, var unnarrowed = unnarrowedList else { return }
        unnarrowed.collapsedGroups = list.collapsedGroups
        list = unnarrowed
        narrowing = nil
        unnarrowedList = nil
        state.follow(in: &list)
    }

    /// Takes in one of the controller's batches under a narrowing: the controller's list and
    /// the narrowed one are both patched.
    func applyNarrowed(_ batch: TodoKeyBatch) {
        // The names it indexes are no longer the results'.
        nameIndex = nil
        filterHistory = []
        guard var narrowing, var unnarrowed = unnarrowedList else { return list.apply(batch) }
        unnarrowed.apply(batch)
        unnarrowedList = unnarrowed
        let order = controller.fetchRequest.order
        if let changed = narrowing.apply(
            batch, rows: rowSource, repository: repository, request: controller.fetchRequest)
        {
            if !changed.isEmpty { list.apply(narrowing.list, changed: changed) }
        } else {
            list = UIList(
                narrowed: narrowing.list, rows: rowSource, order: order, grouping: list.grouping,
                collapsed: list.collapsedGroups, sections: list.sections)
        }
        self.narrowing = narrowing
    }
}
