import TestSupport
import Testing
import TodoObservation
import TodoSnapshot
import TodoStore

@testable import todo

/// The ui filter's in-memory narrowing against the store's own search, on a real file: at every
/// step it must hold exactly what a fetch with that search returns, in the same order, while
/// the text grows and shrinks and while the controller reports changes.
@Suite(.timed) struct UINarrowingTests {
    let folder = TemporaryFolder()

    /// Collects the controller's batches.
    final class Batches: FetchedResultsControllerDelegate {
        var received: [FetchedResultsBatch] = []
        func controller(_ controller: FetchedResultsController, didChangeContentWith batch: FetchedResultsBatch) {
            received.append(batch)
        }
    }

    /// Names that share prefixes and cases, with non-ASCII ones that take the folding path.
    static let words = [
        "Buy", "buy", "MILK", "milk", "bread", "Brot", "Crème", "brûlée", "STRASSE", "straße",
        "σίσυφος", "ΣΊΣΥΦΟΣ", "e\u{301}clair", "Éclair", "a", "ab", "abc", "x", "+MI", "@br"
    ]

    /// Tags whose words share prefixes with the names' words, so that a term can match either.
    static let tags = ["+MILK", "@bread", "+straße", "@Éclair", "+ab"]

    private static func tags(_ random: inout SeededGenerator) -> TodoTags {
        TodoTags(
            (0..<Int.random(in: 0...2, using: &random)).compactMap { _ in
                TodoTag(tags.randomElement(using: &random) ?? "+a")
            })
    }

    private static func name(_ random: inout SeededGenerator) -> String {
        (0..<Int.random(in: 1...3, using: &random)).map { _ in words.randomElement(using: &random) ?? "a" }
            .joined(separator: " ")
    }

    /// What the store finds for the words of `text`, each a `--search` term.
    private func fetched(_ repository: TodoRepository, _ order: TodoFetchRequest.Order, _ text: String) throws
        -> [Todo]
    {
        var request = TodoFetchRequest(order: order)
        request.searches = UIState.searchTerms(of: text)
        return try repository.fetch(request)
    }

    /// A narrowing to the words of `text`, as the ui's filter makes one.
    private func narrowed(
        _ text: String, in index: UINameIndex, narrowing: UINarrowing?, order: TodoFetchRequest.Order = .due
    ) -> UINarrowing {
        let terms = UIState.searchTerms(of: text)
        return UINarrowing(
            searches: terms, folded: terms.map(TodoSearch.fold), in: index, narrowing: narrowing, order: order)
    }

    private func shown(_ narrowing: UINarrowing) -> [Todo] {
        narrowing.results.numberOfSections > 0 ? narrowing.results.list(inSection: 0).array : []
    }

    @Test(arguments: [TodoFetchRequest.Order.due, .name, .status])
    func aNarrowingHoldsWhatTheStoresSearchFindsAsTheTextChangesAndTodosChange(order: TodoFetchRequest.Order) throws {
        var random = SeededGenerator(seed: 0x5EED_0F15 &+ UInt64(order.rawValue.utf8.count))
        let repository = try TodoRepository(path: folder.file("narrowing-\(order.rawValue).sqlite"))
        for _ in 0..<300 {
            let deadline =
                Bool.random(using: &random)
                ? CalendarDate(year: 2024, month: 5, day: Int.random(in: 1...9, using: &random)) : nil
            try repository.add(
                TodoFields(
                    name: Self.name(&random), deadline: deadline, isDone: Bool.random(using: &random),
                    tags: Self.tags(&random)))
        }
        let controller = FetchedResultsController(repository: repository, fetchRequest: TodoFetchRequest(order: order))
        let batches = Batches()
        controller.delegate = batches
        try controller.performFetch()
        var index = UINameIndex(controller.snapshot)
        var narrowing: UINarrowing?
        for step in 0..<120 {
            // A new text: one more character (a space starts another term), one less, or a word
            // of its own.
            let previous = narrowing?.searches.joined(separator: " ") ?? ""
            let text: String
            switch Int.random(in: 0..<4, using: &random) {
            case 0 where !previous.isEmpty: text = String(previous.dropLast())
            case 3 where !previous.isEmpty:
                text = previous + " " + String((Self.words.randomElement(using: &random) ?? "a").prefix(1))
            case 1:
                text = String(
                    (Self.words.randomElement(using: &random) ?? "a").prefix(Int.random(in: 1...3, using: &random)))
            default:
                text =
                    previous
                    + String((Self.words.randomElement(using: &random) ?? "a").randomElement(using: &random) ?? "a")
            }
            guard !UIState.searchTerms(of: text).isEmpty else { continue }
            narrowing = narrowed(text, in: index, narrowing: narrowing, order: order)
            let expected = try fetched(repository, order, text)
            #expect(shown(try #require(narrowing)) == expected, "step \(step): \"\(text)\"")
            // Now and then a change, as another program or the ui itself makes one.
            guard step % 3 == 0 else { continue }
            let ids = try repository.fetch(TodoFetchRequest(order: order)).map(\.id)
            let id = ids.randomElement(using: &random) ?? 1
            switch Int.random(in: 0..<5, using: &random) {
            case 0: try repository.add(name: text + " " + Self.name(&random))
            case 4:
                let tags = Self.tags(&random)
                try repository.update(id: id) { $0.tags = tags }
            case 1: _ = try repository.rename(id: id, to: Self.name(&random))
            case 2: _ = try repository.setDone(Bool.random(using: &random), ids: [id])
            default: _ = try repository.delete(ids: [id])
            }
            // (Marking a todo done that was done already is no change, and brings no batch.)
            guard !batches.received.isEmpty else { continue }
            for batch in batches.received {
                if var current = narrowing {
                    _ = current.apply(batch, order: order)
                    narrowing = current
                }
            }
            batches.received.removeAll()
            // The names changed: the index is built again, as the ui drops it on a batch.
            index = UINameIndex(controller.snapshot)
            #expect(
                shown(try #require(narrowing)) == (try fetched(repository, order, text)),
                "after a change at step \(step): \"\(text)\"")
            #expect(narrowing?.positions == nil, "a patched narrowing has no positions in any index")
        }
    }

    @Test func aTextThatLeavesNothingOutSharesTheResultsItNarrowed() throws {
        let repository = try TodoRepository(path: folder.file("everything.sqlite"))
        for number in 1...50 { try repository.add(name: "todo number \(number)") }
        let controller = FetchedResultsController(repository: repository, fetchRequest: TodoFetchRequest())
        try controller.performFetch()
        let index = UINameIndex(controller.snapshot)
        let all = narrowed("Number", in: index, narrowing: nil)
        #expect(all.outcome == .everything)
        #expect(all.results == controller.snapshot)
        let some = narrowed("Number 1", in: index, narrowing: all)
        #expect(some.outcome == .fewer)
        #expect(some.results.numberOfItems == 14)  // 1, 10-19, 21, 31, 41: both words
        let same = narrowed("NUMBER 1", in: index, narrowing: some)
        #expect(same.outcome == .unchanged)
        #expect(same.results == some.results)
    }
}
