import TodoObservation
import TodoSnapshot
import TodoStore

/// The todos of the controller's results whose names, tags or notes contain every term of a filter,
/// kept in memory: what `todo ui` shows while its filter narrows the search its controller
/// fetched (see UIApp+Filter.swift for why).
///
/// The match is the store's own rule (``TodoSearch/matches(_:foldedNeedle:)``, what SQL's
/// `todo_matches` applies), so the results are exactly those a fetch with this search would
/// give, in the same order.
/// They stay live the way the controller's do: each of its batches is narrowed the same way and
/// patched in, O(k log n) for k todos changed (``apply(_:order:)``).
struct UINarrowing {
    /// The filter's terms, as typed.
    let searches: [String]
    /// `searches` case-folded, as ``TodoSearch/matches(name:foldedNeedle:)`` takes them.
    let foldedSearches: [String]
    /// The todos that match, in the controller's order.
    private(set) var list: UIResults
    /// ``list`` as whole todos (empty for keys).
    var results: TodoResultsSnapshot { list.snapshot ?? TodoResultsSnapshot(order: .due) }
    /// Where ``results`` are in the name index they were found with; nil once a batch has
    /// patched them (the index is dropped then too).
    private(set) var positions: [Int]?
    /// How ``results`` relate to what they were narrowed from, when they were made.
    let outcome: Outcome

    /// What a narrowing selects, and whether that is everything it was narrowed from.
    enum Outcome {
        /// All of the index's todos (the controller's results): ``results`` are those.
        case everything
        /// All of the narrowing it was narrowed from: ``results`` are that one's.
        case unchanged
        /// Fewer: ``results`` were built from them.
        case fewer
    }

    /// Narrows the todos of `index` to those whose names, tags or notes contain every one of `searches`
    /// (`folded`, case-folded). When `previous` was found in the same index (it has
    /// ``positions``) and these terms narrow its own, only its todos are scanned.
    ///
    /// O(n) per term to scan the names (O(m) for the m todos still candidates), plus O(k) to
    /// build the results when k todos match and that is fewer than were scanned; none when all
    /// of them match, so typing that leaves nothing out builds nothing.
    init(
        searches: [String], folded: [String], in index: UINameIndex, narrowing previous: UINarrowing?,
        order: TodoFetchRequest.Order
    ) {
        self.searches = searches
        foldedSearches = folded
        let candidates = previous.flatMap { $0.isNarrowed(by: folded) ? $0.positions : nil }
        // Each term keeps those of the candidates left by the terms before it; the candidates
        // contain the terms of the narrowing they come from already.
        let matchedAlready = candidates == nil ? [] : previous?.foldedSearches ?? []
        var matched = candidates
        for term in folded where !matchedAlready.contains(term) {
            matched = index.positions(matching: term, among: matched)
        }
        let found = matched ?? Array(0..<index.count)
        positions = found
        if found.count == index.count {
            list = index.source
            outcome = .everything
        } else if let previous, let candidates, found.count == candidates.count {
            list = previous.list
            outcome = .unchanged
        } else {
            list = index.narrowed(to: found, order: order)
            outcome = .fewer
        }
    }

    /// Whether the case-folded `terms` select only todos this narrowing selects: each of its
    /// terms is within one of them (a name that contains "milk" contains "mil").
    func isNarrowed(by terms: [String]) -> Bool { Self.terms(terms, narrow: foldedSearches) }

    /// Whether a name containing every one of `terms` contains every one of `narrowed` (all
    /// case-folded): each of `narrowed` is within one of `terms`. No terms narrow nothing.
    static func terms(_ terms: [String], narrow narrowed: [String]) -> Bool {
        narrowed.allSatisfy { old in terms.contains { $0.contains(old) } }
    }

    /// Takes in one of the controller's batches: the todos it changed that match now are put
    /// in (or replaced), the others taken out. Returns the identifiers of the todos whose place
    /// or content in ``results`` may have changed; nil when the results could not be patched
    /// (another program's data sorted differently in SQL) and were narrowed anew from the
    /// controller's.
    mutating func apply(_ batch: FetchedResultsBatch, order: TodoFetchRequest.Order) -> [Int64]? {
        var changes: [Int64: Todo?] = [:]
        for id in batch.difference.itemIDs {
            let new = batch.snapshot.item(withID: id).flatMap { matches($0) ? $0 : nil }
            if new != nil || results.contains(itemWithID: id) { changes[id] = new }
        }
        positions = nil
        guard !changes.isEmpty else { return [] }
        if let patched = results.applying(changes) {
            list = .todos(patched)
            return Array(changes.keys)
        }
        self = UINarrowing(
            searches: searches, folded: foldedSearches, in: UINameIndex(batch.snapshot), narrowing: nil,
            order: order)
        positions = nil
        return nil
    }

    /// ``apply(_:order:)-(FetchedResultsBatch,_)`` for a batch of keys: the rows of the todos it
    /// changed are read from `rows` (which has forgotten them) to be matched. Nil when the
    /// narrowing was made anew (the batch names no todos, or the results could not be patched).
    mutating func apply(
        _ batch: TodoKeyBatch, rows: UIRowSource, repository: TodoRepository, request: TodoFetchRequest
    ) -> [Int64]? {
        guard case .keys(let current) = list else { return nil }
        positions = nil
        if let changed = batch.changed {
            var changes: [Int64: Todo?] = [:]
            for id in changed {
                let new = batch.results.todo(withID: id).flatMap { key in
                    rows.todo(id).flatMap { matches($0) ? key : nil }
                }
                if new != nil || current.contains(id) { changes[id] = new }
            }
            guard !changes.isEmpty else { return [] }
            if let patched = current.applying(changes) {
                list = .keys(patched)
                return Array(changes.keys)
            }
        }
        self = UINarrowing(
            searches: searches, folded: foldedSearches,
            in: UINameIndex(keys: batch.results, repository: repository, request: request), narrowing: nil,
            order: batch.results.order)
        positions = nil
        return nil
    }

    /// Whether `todo`'s name, tags or note contain every term of the filter.
    func matches(_ todo: Todo) -> Bool {
        foldedSearches.allSatisfy { TodoSearch.matches(todo, foldedNeedle: $0) }
    }
}
